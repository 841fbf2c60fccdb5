#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing, starts libvirtd and PostgreSQL if none answers
# (and gives the tests the storage pool `default` they use), builds, type-checks everything including the tests
# (`npm run typecheck`) and lints and format-checks it (`npm run lint`), builds (or reuses) the test guest image, installs the provider, then runs the unit tests and the
# integration tests (real xorriso/isoinfo, cloud-init's datasource code, ignition-validate, libvirtd, PostgreSQL,
# terraform, cdktf and real guest boots under TCG). A failed check fails the run (status 1) once everything else has
# run. Ends with one line `tests: N passed, N failed`, after a line `checks: ...` naming failed checks.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
bash scripts/install-deps.sh
bash scripts/ensure-libvirtd.sh
bash scripts/ensure-test-pool.sh # the tests' own volumes go into pool `default`; the examples make their pools
# PostgreSQL on 127.0.0.1 for the pg state backend tests (examples/gitops): a cluster started when none runs, the
# tests' role and database made (they run the script again themselves, which is quick once this is done).
bash scripts/ensure-postgres.sh --name vstest_gitops >/dev/null
npm run --silent build
# Tests are type-checked and linted like the code; a failure is reported at the end, after all tests have run.
status=0
failed_checks=()
npm run --silent typecheck || { status=1; failed_checks+=(typecheck); }
npm run --silent lint || { status=1; failed_checks+=(lint); }
VIRTSEED_TEST_IMAGE_DIR=$(bash scripts/build-test-image.sh | tail -n 1)
export VIRTSEED_TEST_IMAGE_DIR
# The provider under test is installed into this checkout's own folder and terraform is pointed at it, so a
# provider installed by another checkout (or the user's ~/.terraform.d) never stands in for this one.
. scripts/test-env.sh
VIRTSEED_SKIP_BUILD=1 VIRTSEED_MIRROR="$VIRTSEED_TEST_MIRROR" bash scripts/install-provider.sh

results=$(mktemp -d)
npx jest --selectProjects unit --json --outputFile="$results/unit.json" "$@" || status=1

# Integration tests run one file at a time in two jest processes side by side (two at most boot guests at once on a
# 2-core machine): the guest-boot suites listed here in the second, everything else in the first. Each test owns its
# `vstest-<name>` objects, so the two never meet. The list balances the two processes' wall times (measured in CI).
heavy=(
  test/e2e/provision-cycle.int.test.ts
  test/e2e/seed-guest.int.test.ts
  test/e2e/day2-live.int.test.ts
  test/e2e/snapshot-before.int.test.ts
  test/e2e/firmware-boot.int.test.ts
)
present=()
ignore=()
for f in "${heavy[@]}"; do
  [ -e "$f" ] && present+=("$f")
  ignore+=("$(basename "$f" | sed 's/\./\\./g')")
done
npx jest --selectProjects integration --runInBand --runTestsByPath "${present[@]}" --json --outputFile="$results/heavy.json" > "$results/heavy.log" 2>&1 &
heavy_pid=$!
npx jest --selectProjects integration --runInBand --testPathIgnorePatterns '/node_modules/' '/dist/' "${ignore[@]}" \
  --json --outputFile="$results/int.json" "$@" || status=1
wait "$heavy_pid" || status=1
cat "$results/heavy.log"
if ((${#failed_checks[@]})); then echo "checks: ${failed_checks[*]} FAILED (see above)"; else echo 'checks: typecheck, lint passed'; fi
node -e '
  let p = 0, f = 0;
  for (const file of process.argv.slice(1)) {
    try { const r = require(file); p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); }
    catch { f += 1; }
  }
  console.log(`tests: ${p} passed, ${f} failed`);
' "$results/unit.json" "$results/int.json" "$results/heavy.json"
rm -rf "$results"
exit $status
