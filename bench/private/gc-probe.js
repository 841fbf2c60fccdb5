// Preloaded into the provider by bench/private/walk-probe.ts (NODE_OPTIONS=--require; docs/performance.md, issue 38's
// tenth round): records each garbage collection (PerformanceObserver 'gc': kind, main-thread duration) and the heap
// (used, old space, code space) after each mark-compact and every second, and at exit writes $GCPROBE_DIR/<pid>.json
// with the GC counts and times by kind, the CPU time of each of the process's threads (/proc/self/task) and the
// samples. With $GCPROBE_SNAPSHOT_AT_MS, a process that has used more than $GCPROBE_SNAPSHOT_MIN_MS (1500) ms of
// CPU by then writes one heap snapshot there at that uptime (mid-walk: Terraform waits for it). Bench only.
'use strict';
const dir = process.env.GCPROBE_DIR;
if (dir) {
  const { PerformanceObserver, performance, constants } = require('perf_hooks');
  const v8 = require('v8');
  const fs = require('fs');
  const path = require('path');
  const events = [];
  const samples = [];
  const space = (name) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name);
  const sample = (tag) => {
    const h = v8.getHeapStatistics();
    samples.push({
      t: Math.round(performance.now()),
      tag,
      used: h.used_heap_size,
      total: h.total_heap_size,
      old: space('old_space').space_used_size,
      code: space('code_space').space_used_size,
      cpu: process.cpuUsage(),
    });
  };
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = e.detail ? e.detail.kind : e.kind;
      events.push({ t: Math.round(e.startTime), kind, ms: e.duration });
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) sample('major');
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  let snapped = false;
  const timer = setInterval(() => {
    sample('tick');
    const at = Number(process.env.GCPROBE_SNAPSHOT_AT_MS || 0);
    if (at && !snapped && performance.now() > at) {
      const u = process.cpuUsage();
      if ((u.user + u.system) / 1000 > Number(process.env.GCPROBE_SNAPSHOT_MIN_MS || 1500)) {
        snapped = true;
        v8.writeHeapSnapshot(path.join(dir, `${process.pid}-${Math.round(performance.now())}.heapsnapshot`));
        sample('snapshot');
      }
    }
  }, 1000);
  timer.unref();
  function threads() {
    const out = {};
    try {
      for (const tid of fs.readdirSync('/proc/self/task')) {
        const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out[`${tid} ${name}`] = (Number(f[11]) + Number(f[12])) * 10;
      }
    } catch {}
    return out;
  }
  process.on('exit', () => {
    sample('exit');
    const by = {};
    for (const e of events) {
      const k = String(e.kind);
      by[k] = by[k] || { n: 0, ms: 0 };
      by[k].n++;
      by[k].ms += e.ms;
    }
    const u = process.resourceUsage();
    const summary = {
      pid: process.pid,
      cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000,
      maxRSS: u.maxRSS,
      gcByKind: by,
      threads: threads(),
      events,
      samples,
      spaces: v8.getHeapSpaceStatistics(),
    };
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(summary));
  });
}
