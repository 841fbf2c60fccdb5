#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs what is missing (the npm dependencies while libvirtd and PostgreSQL
# are started if none answers, and the storage pool `default` the tests use is made), then runs the unit tests with,
# beside them, the build with the type check of everything including the tests in one TypeScript program
# (scripts/build-and-typecheck.ts; the unit tests need no build: they take the core its single-threaded tsc leaves)
# and after it the checks in the background (`npm run lint`: eslint and prettier, their caches kept per machine,
# scripts/lint-cached.ts; their output and the type check's kept in test-results/ and shown at the end; our npm
# packages, made once into .test-run/npm
# for the files that install them; the signed release; and the test guest image, built or reused, its log in
# test-results/image.log), installs the provider, and runs the integration tests (real xorriso/isoinfo, cloud-init's
# datasource code, ignition-validate, libvirtd, PostgreSQL, terraform, cdktf and real guest boots under TCG) in three
# slots side by side (scripts/test-run.ts: a slot that frees takes the next files from a queue; at most two slots
# run files that start guests at once). The slots start as soon as the unit tests and checks end; the files that
# need the test image when it is ready (on a fresh machine it is still being built then: the others run meanwhile).
# A failed check (or image build) fails the run (status 1) once everything else has run; a failed build ends it at
# once (once the unit tests already started have ended). Ends with the timing table (scripts/test-timings.ts: per
# test file its slot, wall time, its own CPU, its guests' CPU (scripts/guest-cpu.ts samples the QEMU processes over
# the slots), guest boots and slowest tests; the image's build time and each slot's start against it; also in
# test-results/timings.md and timings.json), then a line `checks: ...` and, last, one line `tests: N passed, N failed`
# (every jest JSON of the run: the unit tests' and each batch's).
#
# test-results/ (gitignored) keeps every jest JSON result of the run (unit.json, and one <slot>-b<NN>.json per batch
# of integration files, listed in int-results.txt), the batches' and checks' output, the guest CPU samples
# (guest-cpu.jsonl), the tests' own daemons' QEMU logs (qemu-logs/) and the timings; it is emptied at the start of
# a run.
# Arguments are passed to every jest run (e.g. `-t PATTERN`). VIRTSEED_TEST_ONLY="FILE ..." runs only those test
# files (each in its project; the checks still cover everything): for trying the test command itself.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHECKPOINT_DISABLE=1
bash scripts/install-deps.sh --system-only
# The npm dependencies (a network wait, mostly) install while libvirtd, the pool and PostgreSQL are made ready.
bash scripts/install-deps.sh --npm-only &
npm_pid=$!
bash scripts/ensure-libvirtd.sh
bash scripts/ensure-test-pool.sh # the tests' own volumes go into pool `default`; the examples make their pools
# PostgreSQL on 127.0.0.1 for the pg state backend tests (examples/gitops): a cluster started when none runs, the
# tests' role and database made (they run the script again themselves, which is quick once this is done).
bash scripts/ensure-postgres.sh >/dev/null # the database docs/guides/ci.md makes (its default name)
wait "$npm_pid"
results=test-results
rm -rf "$results"
mkdir -p "$results"
status=0
failed_checks=()

# The files to run: everything, or VIRTSEED_TEST_ONLY's files sorted into unit and integration ones.
unit_args=()
int_only=()
if [ -n "${VIRTSEED_TEST_ONLY:-}" ]; then
  read -r -a only <<<"$VIRTSEED_TEST_ONLY"
  for f in "${only[@]}"; do
    [ -e "$f" ] || { echo "VIRTSEED_TEST_ONLY: no file $f" >&2; exit 2; }
    case "$f" in
      *.int.test.ts) int_only+=("$f") ;;
      *) unit_args+=("$f") ;;
    esac
  done
  if ((${#unit_args[@]})); then unit_args=(--runTestsByPath "${unit_args[@]}"); fi
fi

# The unit tests start before the build and run beside it (they read no dist/: a core the single-threaded tsc of the
# build and type check leaves), their output kept in test-results/unit.log and shown once they end; after the build
# lint runs beside them in the background. The checks' output is kept and shown at the end, and a failure fails the
# run once everything else has run. The machine's CPU over this phase goes into the timing table (from here to the
# integration slots' start).
head -n 1 /proc/stat >"$results/proc-stat.unit-start"
ran=()
unit_pid=
if [ -z "${VIRTSEED_TEST_ONLY:-}" ] || ((${#unit_args[@]})); then
  npx jest --selectProjects unit --json --outputFile="$results/unit.json" "${unit_args[@]}" "$@" >"$results/unit.log" 2>&1 &
  unit_pid=$!
  ran+=("$results/unit.json")
fi
image_pid=
if [ -z "${VIRTSEED_TEST_ONLY:-}" ] || ((${#int_only[@]})); then
  # The test guest image (scripts/build-test-image.sh: a debootstrap of some minutes on a fresh machine, mostly
  # waiting on the Debian mirror; a no-op once cached), built beside the build, unit tests and checks instead of
  # after them. The files that need it wait for it (scripts/test-run.ts). image.start and image.end (ms since the
  # epoch) time it for the timing table; image.status is the build's exit status, written before image.end, whose
  # presence says it is done.
  date +%s%3N >"$results/image.start"
  (
    if bash scripts/build-test-image.sh >"$results/image.out" 2>"$results/image.log"; then rc=0; else rc=$?; fi
    echo "$rc" >"$results/image.status"
    date +%s%3N >"$results/image.end.tmp"
    mv "$results/image.end.tmp" "$results/image.end"
    exit $rc
  ) &
  image_pid=$!
fi
# The build's tsc (`npm run build`: `tsc -p tsconfig.json`) and the type check (`npm run typecheck`: `tsc -p
# tsconfig.test.json`, everything including the tests) in one TypeScript program, which checks the code once instead
# of twice (scripts/build-and-typecheck.ts: dist/ as the build's tsc makes it, the diagnostics of both), its output
# kept in test-results/typecheck.log. Status 2: errors only in files the build does not hold (the tests): the type
# check failed, dist/ is complete, the run goes on; any other failure is the build's. Then the rest of `npm run
# build` (build:artifacts: the provider artifact and the CLI bundle).
tsc_status=0
npx tsx scripts/build-and-typecheck.ts >"$results/typecheck.log" 2>&1 || tsc_status=$?
if [ "$tsc_status" = 2 ]; then
  status=1
  failed_checks+=(typecheck)
elif [ "$tsc_status" != 0 ]; then
  cat "$results/typecheck.log"
fi
if { [ "$tsc_status" != 0 ] && [ "$tsc_status" != 2 ]; } || ! npm run --silent build:artifacts; then
  echo "test-all: the build failed (above); waiting for the unit tests already started, then stopping" >&2
  wait
  exit 1
fi
# `npm run lint`'s checks with their caches kept per machine (scripts/lint-cached.ts).
node dist/scripts/lint-cached.js >"$results/lint.log" 2>&1 &
lint_pid=$!
# Our npm packages (packages/build/packages.ts), made once beside the unit tests for the integration files that
# install them (test/helpers/packages.ts reads $VIRTSEED_TEST_PACKAGES) instead of once per file.
packages_pid=
release_pid=
if [ -z "${VIRTSEED_TEST_ONLY:-}" ] || ((${#int_only[@]})); then
  export VIRTSEED_TEST_PACKAGES="$PWD/.test-run/npm"
  rm -rf "$VIRTSEED_TEST_PACKAGES"
  node dist/packages/build/packages.js --out "$VIRTSEED_TEST_PACKAGES" >"$results/packages.log" 2>&1 &
  packages_pid=$!
  # The signed release with the TEST key (packages/build/release.ts), made once for the files that serve it and
  # compare it with a clone's (test/helpers/release.ts reads $VIRTSEED_TEST_RELEASE) instead of once per file;
  # $VIRTSEED_TEST_BUILT_HEAD: the commit it and `npm run build` were made at.
  export VIRTSEED_TEST_RELEASE="$PWD/.test-run/release"
  VIRTSEED_TEST_BUILT_HEAD=$(git rev-parse HEAD 2>/dev/null || true)
  export VIRTSEED_TEST_BUILT_HEAD
  rm -rf "$VIRTSEED_TEST_RELEASE"
  node dist/packages/build/release.js --key test/packages/fixtures/release-test-key.asc --out "$VIRTSEED_TEST_RELEASE" \
    >"$results/release.log" 2>&1 &
  release_pid=$!
fi
if [ -n "$unit_pid" ]; then
  wait "$unit_pid" || status=1
  cat "$results/unit.log"
fi
wait "$lint_pid" || { status=1; failed_checks+=(lint); }
if [ -n "$packages_pid" ] && ! wait "$packages_pid"; then
  # The files that need them make their own (and say why they fail, if they do).
  status=1
  failed_checks+=(packages)
  rm -rf "$VIRTSEED_TEST_PACKAGES"
fi
if [ -n "$release_pid" ] && ! wait "$release_pid"; then
  # The files that need it build their own (and say why they fail, if they do).
  status=1
  failed_checks+=(release)
  rm -rf "$VIRTSEED_TEST_RELEASE"
fi

if [ -z "${VIRTSEED_TEST_ONLY:-}" ] || ((${#int_only[@]})); then
  # The provider under test is installed into this checkout's own folder and terraform is pointed at it, so a
  # provider installed by another checkout (or the user's ~/.terraform.d) never stands in for this one.
  . scripts/test-env.sh
  VIRTSEED_SKIP_BUILD=1 VIRTSEED_MIRROR="$VIRTSEED_TEST_MIRROR" bash scripts/install-provider.sh

  # Integration tests run in three slots side by side (scripts/test-run.ts, its queue in scripts/test-queue.ts): a
  # slot that frees takes the next files, at most two slots run files that start guests at once (two TCG guests on a
  # 2-core machine), guest files first, longest first by the measured times in test/lanes.json, short files batched
  # into one jest process. The slots start now; on a fresh machine (CI's case) the test image is still being built:
  # the files that need it wait for it, and the others run meanwhile (the queue keeps two slots free for about when
  # it is estimated ready: the image's recorded build time in test/lanes.json less how long it has been building);
  # with the image cached all files may start at once. `npm run test:lanes` rewrites test/lanes.json from a run's
  # test-results/timings.json. The tests' own libvirt daemons keep their QEMU logs in test-results/qemu-logs for the
  # timing table's boot counts (test/helpers/qemu-logs.ts).
  export VIRTSEED_TEST_QEMU_LOGS="$PWD/$results/qemu-logs"
  # CPU for the timing table: each file's own (test/helpers/limits-environment.ts), and the machine's as a whole.
  export VIRTSEED_TEST_CPU_LOG="$PWD/$results/cpu.jsonl"
  # The image not ready: how long it has been building (0 while build-test-image.sh waits for another checkout's
  # build or installs debootstrap: it has not begun).
  run_args=()
  if [ ! -e "$results/image.end" ]; then
    building=0
    if grep -q '^building test image' "$results/image.log"; then
      building=$((($(date +%s%3N) - $(cat "$results/image.start")) / 1000))
    fi
    run_args=(--image-building "$building")
    echo "slots: the test image is being built (test-results/image.log); the files that need it wait for it"
  fi
  # The guests' CPU for the timing table: a sampler of the QEMU processes and libvirt's daemons over the slots
  # (scripts/guest-cpu.ts; stopped by SIGTERM after the slots, or when this script exits early).
  node dist/scripts/guest-cpu.js "$results/guest-cpu.jsonl" &
  sampler_pid=$!
  trap 'kill "$sampler_pid" 2>/dev/null || true' EXIT
  head -n 1 /proc/stat >"$results/proc-stat.start"
  # Each batch's output is shown when it ends (test-results/<slot>-b<NN>.log), its jest JSON in <slot>-b<NN>.json,
  # each listed in int-results.txt as the batch starts.
  node dist/scripts/test-run.js "$results" "${run_args[@]}" "${int_only[@]}" -- "$@" || status=1
  if [ -s "$results/int-results.txt" ]; then mapfile -t -O "${#ran[@]}" ran <"$results/int-results.txt"; fi
  head -n 1 /proc/stat >"$results/proc-stat.end"
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" || true
  if wait "$image_pid"; then
    tail -n 1 "$results/image.log"
  else
    echo "--- bash scripts/build-test-image.sh failed:"
    cat "$results/image.log"
    status=1
    failed_checks+=(image)
  fi
fi

echo
node dist/scripts/test-timings.js "$results" || echo "timings: the table could not be made (see above)"
echo "timings: $results/timings.md (and timings.json)"
if [ -s "$results/typecheck.log" ]; then
  echo "--- type check (npm run typecheck's, in scripts/build-and-typecheck.ts):"
  cat "$results/typecheck.log"
fi
if [ -s "$results/lint.log" ]; then
  echo "--- npm run lint (scripts/lint-cached.ts):"
  cat "$results/lint.log"
fi
if [[ " ${failed_checks[*]} " == *" packages "* ]]; then
  echo "--- node dist/packages/build/packages.js:"
  cat "$results/packages.log"
fi
if [[ " ${failed_checks[*]} " == *" release "* ]]; then
  echo "--- node dist/packages/build/release.js:"
  cat "$results/release.log"
fi
if ((${#failed_checks[@]})); then echo "checks: ${failed_checks[*]} FAILED (see above)"; else echo 'checks: typecheck, lint, packages, release passed'; fi
node -e '
  let p = 0, f = 0;
  for (const file of process.argv.slice(1)) {
    try { const r = require(file); p += r.numPassedTests; f += r.numFailedTests + (r.numRuntimeErrorTestSuites || 0); }
    catch { f += 1; }
  }
  console.log(`tests: ${p} passed, ${f} failed`);
' "${ran[@]/#/$PWD/}"
exit $status
