// Preloaded into the provider by the terraform bench (NODE_OPTIONS=--require): appends the process's peak resident
// set size in KiB to $VIRTSEED_BENCH_MAXRSS_FILE at exit. Bench only; never shipped in the provider.
'use strict';
const file = process.env.VIRTSEED_BENCH_MAXRSS_FILE;
if (file) process.on('exit', () => require('fs').appendFileSync(file, `${process.resourceUsage().maxRSS}\n`));
