#!/usr/bin/env bash
# Makes sure a local libvirtd answers at qemu:///system:
#  - installs the Debian packages when missing (libvirt-daemon-system, qemu-system-x86, qemu-utils, ...),
#  - gives /dev/kvm Debian's usual root:kvm 0660 (a root-only /dev/kvm makes libvirt re-probe QEMU on every define),
#  - starts virtlogd and libvirtd itself when nothing answers (machines without systemd), recording their pids in
#    /run/virtseed/started.pids so scripts/stop-libvirtd.sh stops only what we started,
# Idempotent; safe to run on every deploy and test run.
set -euo pipefail
URI=qemu:///system
log() { echo "ensure-libvirtd: $*" >&2; }

need=()
command -v virsh >/dev/null || need+=(libvirt-clients)
command -v libvirtd >/dev/null || need+=(libvirt-daemon-system)
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
command -v qemu-img >/dev/null || need+=(qemu-utils)
if [ ${#need[@]} -gt 0 ]; then
  log "installing ${need[*]}"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    libvirt-daemon-system libvirt-clients qemu-system-x86 qemu-utils >&2
fi

if [ -e /dev/kvm ] && getent group kvm >/dev/null; then
  chgrp kvm /dev/kvm 2>/dev/null || true
  chmod 0660 /dev/kvm 2>/dev/null || true
fi

# libvirt runs swtpm_setup as the swtpm user (qemu.conf swtpm_user, "tss"), whose local CA (swtpm_localca) keeps its
# lock, key and serial in /var/lib/swtpm-localca: a file there made by root (swtpm_localca run by hand as root) makes
# every domain with a tpm block fail to start ("Need read/write rights on .../.lock.swtpm-localca for user tss").
if [ -d /var/lib/swtpm-localca ] && getent passwd tss >/dev/null; then
  chown -R tss:root /var/lib/swtpm-localca 2>/dev/null || true
fi

if ! timeout 10 virsh -c "$URI" version >/dev/null 2>&1; then
  mkdir -p /run/virtseed
  if command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then
    log "starting libvirtd with systemctl"
    systemctl start virtlogd.socket libvirtd.socket libvirtd.service >&2 || true
  fi
  if ! timeout 10 virsh -c "$URI" version >/dev/null 2>&1; then
    log "starting virtlogd and libvirtd"
    pgrep -x virtlogd >/dev/null || { virtlogd -d; sleep 0.3; pgrep -nx virtlogd >> /run/virtseed/started.pids || true; }
    pgrep -x libvirtd >/dev/null || { libvirtd -d; }
    for _ in $(seq 1 50); do
      timeout 5 virsh -c "$URI" version >/dev/null 2>&1 && break
      sleep 0.2
    done
    pgrep -nx libvirtd >> /run/virtseed/started.pids || true
  fi
fi
timeout 10 virsh -c "$URI" version >/dev/null 2>&1 || { log "libvirtd does not answer at $URI"; exit 1; }

log "libvirtd ready at $URI ($(virsh -c "$URI" version | sed -n 's/^Running hypervisor: //p'))"
