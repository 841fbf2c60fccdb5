#!/usr/bin/env bash
# The main job: on a Debian 12 machine (root, Node 20, terraform on PATH) install what is missing, start a libvirtd
# if none answers, build and install the provider, and `cdktf deploy` examples/basic: an isolated network and a
# guest on it; the deploy itself waits until cloud-init finished in the guest (wait_for). Then print the guest's
# address and the hostname and marker the seed put on its serial console.
# Use your own image: VIRTSEED_IMAGE=/path/to/cloud.qcow2 scripts/deploy-basic.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --runtime-only
bash scripts/ensure-libvirtd.sh
npm run --silent build
VIRTSEED_SKIP_BUILD=1 bash scripts/install-provider.sh # built just above: compile once
. scripts/example-env.sh

start=$(date +%s.%N)
npx cdktf deploy basic --auto-approve --skip-provider-lock
ip=$(terraform -chdir=cdktf.out/stacks/basic output -raw ip_address 2>/dev/null || true)
log=$(terraform -chdir=cdktf.out/stacks/basic output -raw console_log 2>/dev/null || true)
[ -n "$log" ] || log=/var/log/libvirt/qemu/virtseed-basic-console.log
echo "deploy-basic: guest address ${ip:-unknown} on the isolated network virtseed-basic (serial console log: $log)"
for _ in $(seq 1 600); do
  if grep -aq 'Cloud-init v.* finished at' "$log" 2>/dev/null; then break; fi
  sleep 1
done
if ! grep -aq 'Cloud-init v.* finished at' "$log" 2>/dev/null; then
  echo "deploy-basic: cloud-init did not finish within 600 s; last console lines:" >&2
  tail -n 30 "$log" >&2 || true
  exit 1
fi
end=$(date +%s.%N)
grep -a -E 'VIRTSEED_BASIC_OK|Cloud-init v.* finished at' "$log" | tr -d '\r'
awk -v s="$start" -v e="$end" 'BEGIN { printf "deploy-basic: from deploy start to cloud-init finished: %.0f s\n", e - s }'
echo "deploy-basic: destroy with: scripts/destroy-basic.sh"
