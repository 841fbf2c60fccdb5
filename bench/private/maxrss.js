// Preloaded into the provider by the terraform bench (NODE_OPTIONS=--require): appends the process's peak resident
// set size in KiB and its CPU time (user + system) in ms to $VIRTSEED_BENCH_MAXRSS_FILE at exit, one line
// `KIB MS` per process. With $VIRTSEED_BENCH_CPU_PROF_DIR set, also writes a V8 CPU profile of the process there
// (`<pid>.cpuprofile`, Chrome DevTools format; `--cpu-prof` itself is not allowed in NODE_OPTIONS). Bench only;
// never shipped in the provider.
'use strict';
const file = process.env.VIRTSEED_BENCH_MAXRSS_FILE;
const profDir = process.env.VIRTSEED_BENCH_CPU_PROF_DIR;
let session;
if (profDir) {
  const inspector = require('inspector');
  session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 1000 });
  session.post('Profiler.start');
}
process.on('exit', () => {
  const fs = require('fs');
  if (session) {
    // The in-process session answers synchronously, so the profile is written before the process ends.
    session.post('Profiler.stop', (err, result) => {
      if (!err) fs.writeFileSync(require('path').join(profDir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  }
  if (file) {
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    fs.appendFileSync(file, `${usage.maxRSS} ${cpuMs.toFixed(0)}\n`);
  }
});
