// Preloaded into the provider by the terraform bench (NODE_OPTIONS=--require): appends the process's peak resident
// set size in KiB and its CPU time (user + system) in ms to $VIRTSEED_BENCH_MAXRSS_FILE at exit, one line
// `KIB MS` per process. Bench only; never shipped in the provider.
'use strict';
const file = process.env.VIRTSEED_BENCH_MAXRSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    require('fs').appendFileSync(file, `${usage.maxRSS} ${cpuMs.toFixed(0)}\n`);
  });
}
