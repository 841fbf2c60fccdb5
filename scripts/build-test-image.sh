#!/usr/bin/env bash
# Builds a small bootable Debian bookworm image with cloud-init (and Ignition's binary) from Debian packages,
# for virtseed's demo and tests. Cached outside the repo and reused: a second run with the same recipe is a no-op.
#
# Output (in $VIRTSEED_IMAGE_DIR, default /var/cache/virtseed/images/debian-12-cloudinit-v<recipe hash>):
#   rootfs.qcow2  ext4 filesystem image (no partition table; boot with root=/dev/vda)
#   vmlinuz, initrd.img  for direct kernel boot
#   image.env     shell-sourceable paths (IMAGE, KERNEL, INITRD, CMDLINE)
# Prints the image directory on stdout as its last line.
set -euo pipefail

MIRROR="${VIRTSEED_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
PACKAGES="linux-image-amd64,cloud-init,systemd-sysv,dbus,udev,util-linux,ifupdown,isc-dhcp-client,python3-cffi-backend,iproute2,kmod,e2fsprogs,ignition,locales,sudo"
RECIPE="bookworm minbase $PACKAGES v4 size=2G datasource=NoCloud,ConfigDrive,None ignition-unit"
HASH=$(printf '%s' "$RECIPE" | sha256sum | cut -c1-12)
BASE="${VIRTSEED_IMAGE_ROOT:-/var/cache/virtseed/images}"
OUT="${VIRTSEED_IMAGE_DIR:-$BASE/debian-12-cloudinit-$HASH}"

mkdir -p "$BASE"
exec 9>"$BASE/.build.lock"
flock 9   # one build at a time; a waiting caller then finds the image cached
if [ -f "$OUT/image.env" ]; then
  echo "test image cached: $OUT" >&2
  echo "$OUT"
  exit 0
fi

command -v debootstrap >/dev/null || { apt-get update -q >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap e2fsprogs qemu-utils >&2; }

WORK=$(mktemp -d "${BASE%/}.build.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ROOT="$WORK/root"
echo "building test image in $WORK (debootstrap, about 2 minutes)" >&2
debootstrap --variant=minbase --include="$PACKAGES" bookworm "$ROOT" "$MIRROR" >&2

# cloud-init: only local datasources, so boot never waits on a metadata server.
cat > "$ROOT/etc/cloud/cloud.cfg.d/90-virtseed.cfg" <<'CFG'
datasource_list: [NoCloud, ConfigDrive, None]
CFG
echo 'LANG=C.UTF-8' > "$ROOT/etc/default/locale"
echo 'virtseed-image' > "$ROOT/etc/hostname"
printf '/dev/vda / ext4 defaults 0 1\n' > "$ROOT/etc/fstab"
# Empty root password lock; serial console login is not needed by tests (they read the console log).
chroot "$ROOT" passwd -l root >/dev/null 2>&1 || true
# The machine-id must be regenerated per guest.
: > "$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"

# Ignition in a running system (the Debian package ships the binary for the initramfs): a unit that runs its
# fetch and files stages against / when the QEMU fw_cfg key opt/com.coreos/config is present.
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
# Runs Ignition's own code on a booted system when fw_cfg carries a config; otherwise does nothing.
modprobe qemu_fw_cfg 2>/dev/null || true
cfg=/sys/firmware/qemu_fw_cfg/by_name/opt/com.coreos/config/raw
[ -r "$cfg" ] || { echo "virtseed-ignition: no fw_cfg config"; exit 0; }
IGN=$(ls /usr/lib/dracut/modules.d/*ignition*/ignition 2>/dev/null | head -n1)
[ -n "$IGN" ] || IGN=$(command -v ignition)
mkdir -p /run/ignition
echo "virtseed-ignition: fetch stage"
"$IGN" --platform=qemu --stage=fetch --log-to-stdout || { echo "virtseed-ignition: fetch FAILED"; exit 1; }
echo "virtseed-ignition: files stage"
"$IGN" --platform=qemu --stage=files --root=/ --log-to-stdout || { echo "virtseed-ignition: files FAILED"; exit 1; }
touch /var/lib/virtseed-ignition.done
echo "virtseed-ignition: done"
# Units the config enabled take effect now.
systemctl daemon-reload
systemctl preset-all >/dev/null 2>&1 || true
for u in $(systemctl list-unit-files --state=enabled --no-legend 2>/dev/null | awk '{print $1}'); do :; done
echo "VIRTSEED_IGNITION_APPLIED"
SH
chmod 0755 "$ROOT/usr/local/sbin/virtseed-ignition"
chroot "$ROOT" systemctl enable virtseed-ignition.service >&2 || true
# Serial console getty is not needed; keep the boot quiet but leave kernel messages on ttyS0.
chroot "$ROOT" apt-get clean
rm -rf "$ROOT/var/lib/apt/lists/"*

mkdir -p "$WORK/out"
cp "$ROOT"/boot/vmlinuz-* "$WORK/out/vmlinuz"
cp "$ROOT"/boot/initrd.img-* "$WORK/out/initrd.img"
mkfs.ext4 -q -F -L rootfs -d "$ROOT" "$WORK/rootfs.raw" 2G
qemu-img convert -c -O qcow2 "$WORK/rootfs.raw" "$WORK/out/rootfs.qcow2"
cat > "$WORK/out/image.env" <<ENV
IMAGE=$OUT/rootfs.qcow2
KERNEL=$OUT/vmlinuz
INITRD=$OUT/initrd.img
CMDLINE='root=/dev/vda rw console=ttyS0,115200 net.ifnames=0'
ENV
mkdir -p "$(dirname "$OUT")"
chmod 0755 "$WORK/out"; chmod 0644 "$WORK/out/"*
rm -rf "$OUT"; mv "$WORK/out" "$OUT"
echo "test image ready: $OUT ($(du -sh "$OUT" | cut -f1))" >&2
echo "$OUT"
