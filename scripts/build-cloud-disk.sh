#!/usr/bin/env bash
# Writes a disk image shaped like a distribution's cloud image from a root file system tree, without loop devices
# or mounts: a GPT disk (sfdisk on the image file) with
#   partition 14  BIOS boot partition, 1 MiB: GRUB's i386-pc core.img (boot.img in the protective MBR points at it)
#   partition 15  EFI system partition, 64 MiB FAT (mkfs.vfat + mtools): GRUB x86_64-efi as \EFI\BOOT\BOOTX64.EFI
#   partition 1   ext4 root file system (mkfs.ext4 -d ROOT -E offset=), label rootfs
# Both GRUB images carry a small embedded config that finds the root file system by its UUID and reads the
# image's own /boot/grub/grub.cfg (written here), whose kernel command line finds root by PARTUUID and puts the
# console on ttyS0. Layout and identifiers are fixed, so two builds of the same tree differ only in file contents.
#
# Usage: build-cloud-disk.sh ROOT_DIR OUT_RAW_IMAGE [EXTRA_KERNEL_ARGS]
# Needs: sfdisk (fdisk), mkfs.ext4 (e2fsprogs), mkfs.vfat (dosfstools), mmd/mcopy (mtools), grub-mkimage
# (grub-common) with /usr/lib/grub/i386-pc (grub-pc-bin) and /usr/lib/grub/x86_64-efi (grub-efi-amd64-bin).
# Prints the kernel command line (root=PARTUUID=..., then EXTRA_KERNEL_ARGS when given) on stdout.
set -euo pipefail

ROOT=$1
IMG=$2
[ -d "$ROOT/boot" ] || { echo "build-cloud-disk: $ROOT has no /boot" >&2; exit 2; }

SECTOR=512
DISK_SECTORS=$((2 * 1024 * 1024 * 1024 / SECTOR))            # 2 GiB
BIOS_START=2048;  BIOS_SECTORS=2048                           # 1 MiB at 1 MiB
ESP_START=4096;   ESP_SECTORS=$((64 * 1024 * 1024 / SECTOR))  # 64 MiB at 2 MiB
ROOT_START=$((ESP_START + ESP_SECTORS))                       # 66 MiB
ROOT_SECTORS=$((DISK_SECTORS - ROOT_START - 2048))            # up to 1 MiB before the end (backup GPT)

# Fixed identifiers (UEFI spec 5.3 GPT; type GUIDs from the Discoverable Partitions Specification).
DISK_GUID=8D6A3C1E-5B52-4E0B-9C38-7A1E4A6C2B01
ROOT_PARTUUID=5A0B6F52-2D4B-4F0E-8E0C-1C9D3F7A1E01
BIOS_PARTUUID=5A0B6F52-2D4B-4F0E-8E0C-1C9D3F7A1E0E
ESP_PARTUUID=5A0B6F52-2D4B-4F0E-8E0C-1C9D3F7A1E0F
ROOT_FS_UUID=6f1e0c3a-97a4-4d3b-b1f5-0e7c4b2d9a10
ESP_VOLUME_ID=5EED0E5F
TYPE_ROOT_X86_64=4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709
TYPE_BIOS_BOOT=21686148-6449-6E6F-744E-656564454649
TYPE_ESP=C12A7328-F81F-11D2-BA4B-00A0C93EC93B

# no_timer_check: under TCG on a loaded host the kernel's IO-APIC timer check can time out and panic at boot
# ("IO-APIC + timer doesn't work!", seen once in a UEFI guest of the snapshot e2e); Fedora's cloud images pass it too.
CMDLINE="root=PARTUUID=${ROOT_PARTUUID,,} rw console=ttyS0,115200 net.ifnames=0 no_timer_check"
[ -z "${3:-}" ] || CMDLINE+=" $3"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

kernel=$(cd "$ROOT/boot" && ls vmlinuz-* | sort -V | tail -n 1)
initrd=initrd.img-${kernel#vmlinuz-}
[ -f "$ROOT/boot/$initrd" ] || { echo "build-cloud-disk: no /boot/$initrd" >&2; exit 2; }

# The image's own boot configuration (read by both GRUB images).
mkdir -p "$ROOT/boot/grub"
cat > "$ROOT/boot/grub/grub.cfg" <<CFG
serial --unit=0 --speed=115200
terminal_input serial
terminal_output serial
set timeout=0
menuentry 'Debian GNU/Linux (virtseed test image)' {
  echo "virtseed-image: GRUB (\${grub_platform}) loading /boot/$kernel"
  linux /boot/$kernel $CMDLINE
  initrd /boot/$initrd
}
CFG
printf 'PARTUUID=%s / ext4 defaults 0 1\n' "${ROOT_PARTUUID,,}" > "$ROOT/etc/fstab"

# GPT on the image file. sfdisk takes a partition's number from its device name (IMAGE1, or IMAGEp1 after a digit).
part() { case $IMG in *[0-9]) echo "${IMG}p$1" ;; *) echo "$IMG$1" ;; esac; }
truncate -s $((DISK_SECTORS * SECTOR)) "$IMG"
sfdisk --quiet --no-reread --no-tell-kernel "$IMG" <<PARTS
label: gpt
label-id: $DISK_GUID
first-lba: 2048
$(part 1) : start=$ROOT_START, size=$ROOT_SECTORS, type=$TYPE_ROOT_X86_64, uuid=$ROOT_PARTUUID, name=root
$(part 14) : start=$BIOS_START, size=$BIOS_SECTORS, type=$TYPE_BIOS_BOOT, uuid=$BIOS_PARTUUID, name=bios
$(part 15) : start=$ESP_START, size=$ESP_SECTORS, type=$TYPE_ESP, uuid=$ESP_PARTUUID, name=esp
PARTS

# Root file system written straight into partition 1.
mkfs.ext4 -q -F -L rootfs -U "$ROOT_FS_UUID" -E offset=$((ROOT_START * SECTOR)),nodiscard -d "$ROOT" \
  "$IMG" $((ROOT_SECTORS * SECTOR / 1024))k

# GRUB: one embedded config for both platforms; modules built in, so the root file system needs no GRUB modules.
cat > "$WORK/early.cfg" <<CFG
search --no-floppy --fs-uuid --set=root $ROOT_FS_UUID
set prefix=(\$root)/boot/grub
configfile \$prefix/grub.cfg
CFG
MODULES="part_gpt ext2 search search_fs_uuid configfile normal linux echo serial terminal test gzio"
grub-mkimage -O i386-pc -o "$WORK/core.img" -c "$WORK/early.cfg" -p /boot/grub $MODULES biosdisk
grub-mkimage -O x86_64-efi -o "$WORK/BOOTX64.EFI" -c "$WORK/early.cfg" -p /boot/grub $MODULES efi_gop

# BIOS: core.img (diskboot.img + the rest) into the BIOS boot partition; boot.img's code into the MBR.
core_sectors=$(( ($(stat -c %s "$WORK/core.img") + SECTOR - 1) / SECTOR ))
[ "$core_sectors" -le "$BIOS_SECTORS" ] || { echo "build-cloud-disk: core.img ($core_sectors sectors) does not fit" >&2; exit 1; }
# grub-bios-setup's patches (GRUB 2.06 include/grub/i386/pc/boot.h): diskboot.img's blocklist (last 12 bytes of
# its sector: start LBA u64, length u16, segment u16; grub-mkimage filled length and segment) starts at the
# sector after diskboot.img; boot.img's kernel sector (offset 0x5c, u64) is diskboot.img's LBA, and its drive
# check (0x66, a 2-byte jmp) becomes two NOPs as for a hard disk.
le64() { local v=$1 i; for i in 0 1 2 3 4 5 6 7; do printf "\\x$(printf %02x $(( (v >> (8 * i)) & 255 )))"; done; }
le64 $((BIOS_START + 1)) | dd of="$WORK/core.img" bs=1 seek=$((SECTOR - 12)) conv=notrunc status=none
cp /usr/lib/grub/i386-pc/boot.img "$WORK/boot.img"
le64 "$BIOS_START" | dd of="$WORK/boot.img" bs=1 seek=$((0x5c)) conv=notrunc status=none
printf '\x90\x90' | dd of="$WORK/boot.img" bs=1 seek=$((0x66)) conv=notrunc status=none
dd if="$WORK/core.img" of="$IMG" bs=$SECTOR seek=$BIOS_START conv=notrunc status=none
# Only the code area (440 bytes): the protective MBR's disk signature and partition entry stay.
dd if="$WORK/boot.img" of="$IMG" bs=1 count=440 conv=notrunc status=none

# UEFI: the removable-media path \EFI\BOOT\BOOTX64.EFI on a FAT ESP.
truncate -s $((ESP_SECTORS * SECTOR)) "$WORK/esp.img"
mkfs.vfat -i "$ESP_VOLUME_ID" -n ESP --invariant "$WORK/esp.img" >/dev/null
mmd -i "$WORK/esp.img" ::/EFI ::/EFI/BOOT
mcopy -i "$WORK/esp.img" "$WORK/BOOTX64.EFI" ::/EFI/BOOT/BOOTX64.EFI
dd if="$WORK/esp.img" of="$IMG" bs=$SECTOR seek=$ESP_START conv=notrunc,sparse status=none

echo "$CMDLINE"
