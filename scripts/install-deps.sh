#!/usr/bin/env bash
# Installs what virtseed needs on a Debian 12 machine and is missing: Debian packages for libvirt/QEMU and the
# independent checkers the tests use, and the npm dependencies (npm ci). Idempotent and quick when all is there.
# Usage: scripts/install-deps.sh [--runtime-only]
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "install-deps: $*" >&2; }

pkgs=(libvirt-daemon-system libvirt-clients qemu-system-x86 qemu-utils dnsmasq-base)  # dnsmasq: DHCP/DNS of libvirt networks
pkgs+=(ovmf)  # UEFI firmware (OVMF) and its descriptors for domains with firmware = "efi"
pkgs+=(swtpm swtpm-tools)  # the emulated TPM of domains with a tpm block (libvirt runs swtpm and swtpm_setup)
# The test image (scripts/build-test-image.sh): debootstrap, then a GPT disk without loop devices or mounts: sfdisk
# (fdisk), mkfs.ext4 (e2fsprogs), a FAT ESP (dosfstools, mtools), GRUB's BIOS and UEFI images (grub-*-bin).
pkgs+=(debootstrap e2fsprogs fdisk dosfstools mtools grub-common grub-pc-bin grub-efi-amd64-bin)
if [ "${1:-}" != "--runtime-only" ]; then
  # Independent checkers for the tests: ISO readers, cloud-init's own datasource code, Ignition's validator,
  # netplan for network-config v2. Transport tests: an sshd and netcat (qemu+ssh), certtool (qemu+tls certificates).
  # cloud-localds (cloud-image-utils), which `virtseed seed build` is compared with (dosfstools and mtools, above,
  # for its -f vfat, also what `virtseed seed build -f vfat` runs).
  pkgs+=(xorriso genisoimage cloud-init ignition netplan.io libxml2-utils openssh-server netcat-openbsd gnutls-bin cloud-image-utils)
  # GNU time: peak memory in `npm run bench`.
  pkgs+=(time)
  # qemu-user-static: runs the linux arm64 provider executable of the release (test/packages/release-registry), with
  # arm64 glibc and libstdc++ as its -L prefix /usr/aarch64-linux-gnu (Debian's cross packages: no multiarch needed).
  pkgs+=(qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross)
  # PostgreSQL 15 for Terraform's pg state backend (examples/gitops; started by scripts/ensure-postgres.sh).
  pkgs+=(postgresql)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  # `npm install --no-save` installs the locked versions without touching package-lock.json. (`npm ci` refuses this
  # lock file here: the registry we reach serves only this platform's optional binaries, so the lock file lacks the
  # darwin/win32 entries that `npm ci` insists on.)
  log "npm install (locked versions)"
  npm install --no-save --no-audit --no-fund >&2
fi
