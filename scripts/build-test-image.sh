#!/usr/bin/env bash
# Builds a small bootable Debian bookworm image with cloud-init (with cloud-guest-utils, whose growpart lets
# cloud-init grow the root partition to a grown disk at boot), qemu-guest-agent (runs when the domain has the agent
# channel: guest-exec, fsfreeze for backups, addresses) and Ignition's binary from Debian packages,
# for virtseed's demo and tests, shaped like a distribution's cloud image: a GPT disk that boots through its own
# GRUB under BIOS (SeaBIOS) and UEFI (OVMF), see scripts/build-cloud-disk.sh. No loop devices, no mounts.
# Cached outside the repo and reused: a second run with the same recipe is a no-op.
#
# Output (in $VIRTSEED_IMAGE_DIR, default /var/cache/virtseed/images/debian-12-cloudinit-<recipe hash>):
#   disk.qcow2    the GPT disk image (2 GiB virtual): BIOS boot partition, EFI system partition, ext4 root
#   vmlinuz, initrd.img  the image's kernel and initramfs, for direct kernel boot of the same disk
#   image.env     shell-sourceable paths (IMAGE, KERNEL, INITRD, and CMDLINE for direct kernel boot)
# Prints the image directory on stdout as its last line.
set -euo pipefail

MIRROR="${VIRTSEED_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PACKAGES="linux-image-amd64,zstd,cloud-init,cloud-guest-utils,systemd-sysv,dbus,udev,util-linux,ifupdown,isc-dhcp-client,python3-cffi-backend,iproute2,kmod,e2fsprogs,ignition,locales,sudo,qemu-guest-agent"
DISK_SCRIPT="$(dirname "$0")/build-cloud-disk.sh"
RECIPE="bookworm minbase $PACKAGES v10 datasource=NoCloud,ConfigDrive,None no-ssh ignition-unit ci-stages=3 boot-units kernel-args disk=$(sha256sum < "$DISK_SCRIPT" | cut -c1-16)"
HASH=$(printf '%s' "$RECIPE" | sha256sum | cut -c1-12)
BASE="${VIRTSEED_IMAGE_ROOT:-/var/cache/virtseed/images}"
OUT="${VIRTSEED_IMAGE_DIR:-$BASE/debian-12-cloudinit-$HASH}"

cached() {
  [ -f "$OUT/image.env" ] || return 1
  echo "test image cached: $OUT" >&2
  echo "$OUT"
}
# A finished image is found without the lock (its directory appears whole, by rename, with image.env in it): a
# build of another recipe, 5-20 minutes, does not hold up callers whose image is cached.
cached && exit 0
mkdir -p "$BASE"
exec 9>"$BASE/.build.lock"
flock 9   # one build at a time; a waiting caller then finds the image cached
cached && exit 0

# The same Debian packages as scripts/install-deps.sh lists for building the image.
need=()
for p in debootstrap e2fsprogs qemu-utils fdisk dosfstools mtools grub-common grub-pc-bin grub-efi-amd64-bin; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" >&2
fi

WORK=$(mktemp -d "${BASE%/}.build.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"
echo "building test image in $WORK (debootstrap, about 2 minutes)" >&2
debootstrap --variant=minbase --include="$PACKAGES" bookworm "$ROOT" "$MIRROR" >&2

# qemu-guest-agent: Debian starts it through udev when the virtio port org.qemu.guest_agent.0 appears (a domain
# with `qemu_agent = true`); without that channel it does not run. The rule is checked here so a package change
# that drops it fails the build instead of the backup tests' freeze.
grep -qs 'org.qemu.guest_agent.0' "$ROOT"/lib/udev/rules.d/*qemu-guest-agent*.rules "$ROOT"/usr/lib/udev/rules.d/*qemu-guest-agent*.rules ||
  { echo "qemu-guest-agent: no udev rule starts it on its virtio port" >&2; exit 1; }

# cloud-init: only local datasources, so boot never waits on a metadata server. The image has no SSH server (nor
# ssh-keygen): cloud-init generates no host keys for it (each attempt logged a warning, 4 per boot). An empty
# ssh_keys map is how its schema allows saying so (ssh_genkeytypes must name at least one type); host keys a
# user-data gives in ssh_keys still apply.
cat > "$ROOT/etc/cloud/cloud.cfg.d/90-virtseed.cfg" <<'CFG'
datasource_list: [NoCloud, ConfigDrive, None]
ssh_keys: {}
CFG
# No SSH server, and masked so: cloud-init 22.4's set-passwords asks systemctl for the ssh service at every boot and
# warns "SSH service 'ssh' is not installed" for a unit systemd does not know (exit 4); a masked unit is known and
# inactive (exit 3), which it takes quietly. A clean first boot lets a real warning stand out.
ln -sf /dev/null "$ROOT/etc/systemd/system/ssh.service"
echo 'LANG=C.UTF-8' > "$ROOT/etc/default/locale"
echo 'virtseed-image' > "$ROOT/etc/hostname"
# Empty root password lock; serial console login is not needed by tests (they read the console log).
chroot "$ROOT" passwd -l root >/dev/null 2>&1 || true
# The machine-id must be regenerated per guest.
: > "$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"

# Ignition in a running system (the Debian package ships the binary for the initramfs): a unit that runs its
# fetch and files stages against / when the QEMU fw_cfg key opt/com.coreos/config is present (first boot only:
# the script writes /var/lib/virtseed-ignition.done), then presets and starts the units the config enabled and
# prints VIRTSEED_IGNITION_APPLIED on the console. See docs/ignition.md.
cat > "$ROOT/etc/systemd/system/virtseed-ignition.service" <<'UNIT'
[Unit]
Description=Ignition (fetch + files stages) from QEMU fw_cfg opt/com.coreos/config
ConditionPathExists=!/var/lib/virtseed-ignition.done
After=systemd-modules-load.service local-fs.target
Before=cloud-init-local.service
DefaultDependencies=no

[Service]
Type=oneshot
RemainAfterExit=yes
StandardOutput=journal+console
ExecStart=/usr/local/sbin/virtseed-ignition

[Install]
WantedBy=multi-user.target
UNIT
cat > "$ROOT/usr/local/sbin/virtseed-ignition" <<'SH'
#!/bin/sh
# Runs Ignition's own stages on a booted system, once, when QEMU fw_cfg carries a config (key
# opt/com.coreos/config): fetch (reads fw_cfg, writes the config cache /run/ignition.json), then files against /.
# Units the config enables are preset (Ignition writes /etc/systemd/system-preset/20-ignition.preset) and started.
# Without a config it does nothing (and looks again at the next boot).
log() { echo "virtseed-ignition: $*"; }
modprobe qemu_fw_cfg 2>/dev/null || true
cfg=/sys/firmware/qemu_fw_cfg/by_name/opt/com.coreos/config/raw
[ -r "$cfg" ] || { log "no fw_cfg config"; exit 0; }
IGN=$(ls /usr/lib/dracut/modules.d/*ignition*/ignition 2>/dev/null | head -n1)
[ -n "$IGN" ] || IGN=$(command -v ignition)
cache=/run/ignition.json
rm -f "$cache"
log "fetch stage ($IGN)"
"$IGN" --platform=qemu --stage=fetch --config-cache="$cache" --log-to-stdout || { log "fetch FAILED"; exit 1; }
# Debian builds Ignition with SELinux relabeling on, which needs /etc/selinux/config (SELINUXTYPE) and setfiles;
# Debian has neither. For this run only: a placeholder config (when there is none) and the image's no-op
# setfiles (/usr/local/lib/virtseed-ignition/bin; /run is noexec).
shim=/usr/local/lib/virtseed-ignition
made_selinux=
if [ ! -e /etc/selinux/config ]; then
  [ -d /etc/selinux ] || made_selinux=dir
  mkdir -p /etc/selinux
  printf 'SELINUX=disabled\nSELINUXTYPE=none\n' > /etc/selinux/config
  [ -n "$made_selinux" ] || made_selinux=file
fi
log "files stage"
PATH="$shim/bin:$PATH" "$IGN" --platform=qemu --stage=files --root=/ --config-cache="$cache" --log-to-stdout
rc=$?
case "$made_selinux" in
  dir) rm -rf /etc/selinux ;;
  file) rm -f /etc/selinux/config ;;
esac
[ "$rc" -eq 0 ] || { log "files FAILED"; exit 1; }
mkdir -p /var/lib
touch /var/lib/virtseed-ignition.done
# Apply only Ignition's presets ("enable NAME [INSTANCE...]", "disable NAME"), not the distribution's.
preset=/etc/systemd/system-preset/20-ignition.preset
systemctl daemon-reload
if [ -f "$preset" ]; then
  units() {
    awk -v verb="$1" '$1 == verb { if (NF == 2) print $2; else for (i = 3; i <= NF; i++) { u = $2; sub(/@/, "@" $i, u); print u } }' "$preset"
  }
  for u in $(units disable); do systemctl preset "$u" || log "preset $u FAILED"; done
  for u in $(units enable); do
    systemctl preset "$u" || log "preset $u FAILED"
    # The boot transaction is already computed: start what was just enabled (queued, not waited for).
    systemctl start --no-block "$u" || log "start $u FAILED"
  done
fi
echo "VIRTSEED_IGNITION_APPLIED"
SH
chmod 0755 "$ROOT/usr/local/sbin/virtseed-ignition"
mkdir -p "$ROOT/usr/local/lib/virtseed-ignition/bin"
cat > "$ROOT/usr/local/lib/virtseed-ignition/bin/setfiles" <<'SH'
#!/bin/sh
# No-op stand-in for SELinux setfiles, for Ignition's relabel step on a system without SELinux.
cat >/dev/null
exit 0
SH
chmod 0755 "$ROOT/usr/local/lib/virtseed-ignition/bin/setfiles"
chroot "$ROOT" systemctl enable virtseed-ignition.service >&2 || true

# Boot cost. Every test guest boots under TCG (no KVM: each guest instruction is emulated, 1 vCPU), where a boot
# costs 75-100 host CPU seconds; what follows removes work no test observes (figures: docs/performance.md, "The
# test image's boot under TCG"; a smaller initramfs and networkd instead of ifupdown were measured there too, and
# left out).
# - cloud-init in three stages instead of four: each stage is a Python start-up that imports most of cloud-init
#   (5-7 s under TCG). The config stage's modules that matter here (set-passwords, locale, timezone, runcmd) run at
#   the head of the final stage instead, in the same order, and its service is masked; modules for what this image
#   lacks or no test uses are left out: snap, ssh-import-id and keys-to-console (no SSH server), keyboard,
#   grub-dpkg (no grub-pc package: it only asked debconf, about 2 s), apt-pipelining, apt-configure, ntp,
#   disable-ec2-metadata, byobu, fan, landscape, lxd, puppet, chef, mcollective, salt-minion, the RMC and
#   RightScale modules. The init-local and init stages are as Debian ships them.
cat > "$ROOT/etc/cloud/cloud.cfg.d/91-virtseed-stages.cfg" <<'CFG'
cloud_config_modules: []
cloud_final_modules:
 - set-passwords
 - locale
 - timezone
 - runcmd
 - package-update-upgrade-install
 - write-files-deferred
 - scripts-vendor
 - scripts-per-once
 - scripts-per-boot
 - scripts-per-instance
 - scripts-user
 - ssh-authkey-fingerprints
 - install-hotplug
 - phone-home
 - final-message
 - power-state-change
CFG
ln -sf /dev/null "$ROOT/etc/systemd/system/cloud-config.service"
# - units for what no guest here uses: the kernel modules systemd loads by name at every boot (drm, dm_mod, loop,
#   fuse, configfs, efi_pstore; a mount of virtiofs still loads fuse on demand) and the file systems they serve
#   (debugfs, tracefs, configfs, fusectl, hugetlbfs, mqueue), and pstore. The journal stays in /run
#   (Storage=volatile): no flush to /var/log/journal at boot.
for unit in modprobe@drm.service modprobe@dm_mod.service modprobe@loop.service modprobe@fuse.service \
  modprobe@configfs.service modprobe@efi_pstore.service systemd-pstore.service sys-kernel-debug.mount \
  sys-kernel-tracing.mount sys-kernel-config.mount sys-fs-fuse-connections.mount dev-hugepages.mount dev-mqueue.mount; do
  ln -sf /dev/null "$ROOT/etc/systemd/system/$unit"
done
rm -f "$ROOT/etc/systemd/system/sysinit.target.wants/systemd-pstore.service"
mkdir -p "$ROOT/etc/systemd/journald.conf.d"
printf '[Journal]\nStorage=volatile\n' > "$ROOT/etc/systemd/journald.conf.d/virtseed.conf"
# - systemd's generators for what the image lacks (each is a program run before any unit starts): encrypted,
#   integrity and verity volumes, hibernation, GPT partition discovery (root is on the command line), offline
#   updates, debug and run arguments, rc.local, SysV scripts (every /etc/init.d script here has a native unit).
#   fstab, getty and cloud-init's own generator stay.
mkdir -p "$ROOT/etc/systemd/system-generators"
for gen in systemd-cryptsetup-generator systemd-integritysetup-generator systemd-veritysetup-generator \
  systemd-hibernate-resume-generator systemd-gpt-auto-generator systemd-system-update-generator \
  systemd-debug-generator systemd-run-generator systemd-rc-local-generator systemd-sysv-generator; do
  ln -sf /dev/null "$ROOT/etc/systemd/system-generators/$gen"
done
# - kernel arguments (in the image's grub.cfg and image.env's CMDLINE for direct kernel boot): mitigations=off (no
#   speculative-execution mitigations: retpolines, RSB filling on context switch), init_on_alloc=0 (Debian's kernel
#   zeroes every page it hands out, in emulated stores), and no modules for devices the pc machine has but no test
#   uses, which udev would load at every boot: KVM (qemu64 advertises SVM), AMD's crypto co-processor, floppy, PC
#   speaker, PS/2 mouse, DRM (the VGA text console stays).
# - the initramfs compressed with zstd (initramfs.conf's default, COMPRESS=zstd, which fell back to gzip while the
#   zstd program was missing): 30 MB instead of gzip's 36 MB, so GRUB's boots read 6 MB less through the firmware.
#   The kernel's unpacking measured the same (4.7 against 4.6 host CPU s under load): kept as Debian's own default.
KERNEL_ARGS="mitigations=off init_on_alloc=0 modprobe.blacklist=kvm,kvm_amd,kvm_intel,ccp,floppy,pcspkr,psmouse,serio_raw,drm"
zstd_initrd() { [ "$(head -c4 "$ROOT"/boot/initrd.img-* | od -An -tx1 | tr -d ' \n')" = 28b52ffd ]; }
zstd_initrd || chroot "$ROOT" update-initramfs -u -k all >&2
zstd_initrd || { echo "the initramfs is not zstd-compressed" >&2; exit 1; }
# Serial console getty is not needed; keep the boot quiet but leave kernel messages on ttyS0.
chroot "$ROOT" apt-get clean
rm -rf "$ROOT/var/lib/apt/lists/"*

mkdir -p "$WORK/out"
cp "$ROOT"/boot/vmlinuz-* "$WORK/out/vmlinuz"
cp "$ROOT"/boot/initrd.img-* "$WORK/out/initrd.img"
# Partitions, file systems and boot loaders; prints the kernel command line its grub.cfg uses (root by PARTUUID).
CMDLINE=$(bash "$DISK_SCRIPT" "$ROOT" "$WORK/disk.raw" "$KERNEL_ARGS")
qemu-img convert -c -O qcow2 "$WORK/disk.raw" "$WORK/out/disk.qcow2"
cat > "$WORK/out/image.env" <<ENV
IMAGE=$OUT/disk.qcow2
KERNEL=$OUT/vmlinuz
INITRD=$OUT/initrd.img
CMDLINE='$CMDLINE'
ENV
mkdir -p "$(dirname "$OUT")"
chmod 0755 "$WORK/out"; chmod 0644 "$WORK/out/"*
rm -rf "$OUT"; mv "$WORK/out" "$OUT"
echo "test image ready: $OUT ($(du -sh "$OUT" | cut -f1))" >&2
echo "$OUT"
