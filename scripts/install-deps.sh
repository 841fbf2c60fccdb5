#!/usr/bin/env bash
# Installs what virtseed needs on a Debian 12 machine and is missing: Debian packages for libvirt/QEMU and the
# independent checkers the tests use, and the npm dependencies (npm ci). Idempotent and quick when all is there.
# Usage: scripts/install-deps.sh [--runtime-only] [--system-only | --npm-only]
#   --system-only: the Debian packages alone; --npm-only: the npm dependencies alone (scripts/test-all.sh installs
#   them while it starts libvirtd and PostgreSQL).
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "install-deps: $*" >&2; }
runtime_only=0
system=1
npm=1
for arg in "$@"; do
  case "$arg" in
    --runtime-only) runtime_only=1 ;;
    --system-only) npm=0 ;;
    --npm-only) system=0 ;;
    *) log "unknown argument '$arg' (usage: install-deps.sh [--runtime-only] [--system-only | --npm-only])"; exit 2 ;;
  esac
done

pkgs=(libvirt-daemon-system libvirt-clients qemu-system-x86 qemu-utils dnsmasq-base)  # dnsmasq: DHCP/DNS of libvirt networks
pkgs+=(ovmf)  # UEFI firmware (OVMF) and its descriptors for domains with firmware = "efi"
pkgs+=(swtpm swtpm-tools)  # the emulated TPM of domains with a tpm block (libvirt runs swtpm and swtpm_setup)
# The test image (scripts/build-test-image.sh): debootstrap, then a GPT disk without loop devices or mounts: sfdisk
# (fdisk), mkfs.ext4 (e2fsprogs), a FAT ESP (dosfstools, mtools), GRUB's BIOS and UEFI images (grub-*-bin).
pkgs+=(debootstrap e2fsprogs fdisk dosfstools mtools grub-common grub-pc-bin grub-efi-amd64-bin)
if [ "$runtime_only" = 0 ]; then
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
# One dpkg-query for all of them ("ii": installed); a package dpkg does not know is not listed.
declare -A installed=()
while read -r name state; do
  [ "$state" = ii ] && installed[$name]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${pkgs[@]}" 2>/dev/null || true)
missing=()
for p in "${pkgs[@]}"; do
  [ -n "${installed[$p]:-}" ] || missing+=("$p")
done
if [ "$system" = 1 ] && [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

if [ "$npm" = 1 ] && { [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; }; then
  # `npm install --no-save` installs the locked versions without touching package-lock.json. (`npm ci` refuses this
  # lock file here: the registry we reach serves only this platform's optional binaries, so the lock file lacks the
  # darwin/win32 entries that `npm ci` insists on.) --prefer-offline: what npm's cache holds is used without asking
  # the registry again (the lock file has no tarball URLs, so otherwise each of the ~870 packages costs a metadata
  # and a tarball request even with the cache full); a cached list of versions older than the lock file makes it
  # fail, and then it is run again asking the registry.
  log "npm install (locked versions)"
  if ! npm install --no-save --no-audit --no-fund --prefer-offline >&2; then
    log "npm install --prefer-offline failed; again, asking the registry"
    npm install --no-save --no-audit --no-fund >&2
  fi
fi
