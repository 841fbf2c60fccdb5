#!/usr/bin/env bash
# The tests' fixture, not the product's: many integration tests put their volumes into libvirt's storage pool
# `default`, which a fresh host does not have. The examples do not need it: examples/basic, web, day2, reprovision
# and gitops make their own pool (StoragePool), examples/library's WebFleet makes one unless given `pool`, and the
# tests of the documented paths (test/packages/install-from-packages, which runs examples/library's guide too,
# test/examples/gitops/pipeline) use only pools their stacks declare (the reference pages' HCL snippets in
# examples/hcl name `default` as a placeholder for the reader's pool). Defines and
# starts the `dir` pool `default` at /var/lib/libvirt/images when it does not exist, as Debian's libvirt would on a
# desktop install. Idempotent; run by scripts/test-all.sh after scripts/ensure-libvirtd.sh.
set -euo pipefail
URI=qemu:///system
log() { echo "ensure-test-pool: $*" >&2; }

if ! virsh -c "$URI" pool-info default >/dev/null 2>&1; then
  log "defining storage pool 'default' at /var/lib/libvirt/images"
  mkdir -p /var/lib/libvirt/images
  virsh -c "$URI" pool-define-as default dir --target /var/lib/libvirt/images >/dev/null
  virsh -c "$URI" pool-autostart default >/dev/null || true
fi
pool_state=$(virsh -c "$URI" pool-info default | sed -n 's/^State: *//p')
if [ "$pool_state" != "running" ]; then
  virsh -c "$URI" pool-start default >/dev/null
fi
