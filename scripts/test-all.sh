#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, starts libvirtd if none answers, builds, builds
# (or reuses) the test guest image, installs the provider, then runs the unit tests and the integration tests
# (real xorriso/isoinfo, cloud-init's datasource code, ignition-validate, libvirtd, terraform, cdktf and real guest
# boots under TCG). Ends with one line `tests: N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
bash scripts/install-deps.sh
bash scripts/ensure-libvirtd.sh
npm run --silent build
VIRTSEED_TEST_IMAGE_DIR=$(bash scripts/build-test-image.sh | tail -n 1)
export VIRTSEED_TEST_IMAGE_DIR
bash scripts/install-provider.sh

results=$(mktemp -d)
status=0
npx jest --selectProjects unit --json --outputFile="$results/unit.json" "$@" || status=1
npx jest --selectProjects integration --runInBand --json --outputFile="$results/int.json" "$@" || status=1
node -e '
  let p = 0, f = 0;
  for (const file of process.argv.slice(1)) {
    try { const r = require(file); p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); }
    catch { f += 1; }
  }
  console.log(`tests: ${p} passed, ${f} failed`);
' "$results/unit.json" "$results/int.json"
rm -rf "$results"
exit $status
