import { parseProcStatCpu, processCpuSeconds } from './process-cpu';

describe('process CPU from /proc/self/stat', () => {
  it('GIVEN a stat line whose command name has spaces and a parenthesis WHEN parsed THEN utime+stime+cutime+cstime in seconds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime …
    const line = '1234 (node (jest) x) S 1 1234 1234 0 -1 4194560 500 0 0 0 150 50 300 25 20 0 11 0 100 0 0';
    expect(parseProcStatCpu(line)).toBe(5.25);
  });

  it('GIVEN a truncated line WHEN parsed THEN it throws naming the line', () => {
    expect(() => parseProcStatCpu('1234 (node) S 1 2')).toThrow(/not a \/proc\/<pid>\/stat line: 1234 \(node\)/);
  });

  it('GIVEN this process WHEN it burns CPU THEN its figure grows', () => {
    const before = processCpuSeconds();
    const end = process.hrtime.bigint() + 150_000_000n;
    let x = 0;
    while (process.hrtime.bigint() < end) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(processCpuSeconds()).toBeGreaterThan(before);
  });
});
