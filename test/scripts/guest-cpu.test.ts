import { classify, parseGuestCpuLog, parseStat, ProcessLedger, ProcStat, qemuGuestName } from '../../scripts/guest-cpu';

/** A /proc/<pid>/stat line: utime and stime in ticks, starttime in ticks since boot. */
function statLine(pid: number, comm: string, ppid: number, utime: number, stime: number, start: number): string {
  const rest = [ppid, pid, pid, 0, -1, 4194304, 101, 0, 0, 0, utime, stime, 0, 0, 20, 0, 1, 0, start, 3133440, 417];
  return `${pid} (${comm}) S ${rest.join(' ')}\n`;
}

const proc = (pid: number, comm: string, ppid: number, cpuTicks: number, startTicks = 1000): ProcStat => ({
  pid,
  comm,
  ppid,
  startTicks,
  cpuTicks,
});

describe('parseStat', () => {
  it('GIVEN a stat line whose command name holds spaces and parentheses WHEN parsed THEN pid, name, parent, start and utime + stime come out', () => {
    expect(parseStat(statLine(4242, 'a (b) c', 1, 150, 50, 7288352))).toEqual({
      pid: 4242,
      comm: 'a (b) c',
      ppid: 1,
      startTicks: 7288352,
      cpuTicks: 200,
    });
  });

  it('GIVEN a short or garbled line WHEN parsed THEN it throws naming the line', () => {
    expect(() => parseStat('12 (x) S 1 2 3')).toThrow(/not a \/proc\/<pid>\/stat line: 12 \(x\)/);
    expect(() => parseStat('garbage')).toThrow(/not a \/proc/);
  });
});

describe('qemuGuestName', () => {
  it.each([
    [['qemu-system-x86_64', '-name', 'guest=vstest-rp-vm,debug-threads=on', '-S'], 'vstest-rp-vm'],
    [['qemu-system-x86_64', '-name', 'debug-threads=on,guest=a,,b'], 'a,b'],
    [['qemu-system-x86_64', '-name', 'plain,process=x'], 'plain'],
    [['qemu-system-x86_64', '-m', '512'], ''],
    [['qemu-system-x86_64', '-name'], ''],
  ])('GIVEN the command line %j WHEN read THEN the guest is %j', (args, name) => {
    expect(qemuGuestName(args)).toBe(name);
  });
});

describe('classify', () => {
  const byPid = new Map(
    [
      proc(1, 'init', 0, 0),
      proc(10, 'libvirtd', 1, 0),
      proc(11, 'qemu-system-x86', 1, 0),
      proc(12, 'swtpm', 1, 0),
      proc(20, 'node', 1, 0),
      proc(21, 'setpriv', 20, 0),
      proc(22, 'libvirtd', 21, 0),
      proc(23, 'bash', 1, 0),
    ].map((p) => [p.pid, p]),
  );

  it('GIVEN the machine processes WHEN classified THEN QEMU is a guest, the daemons and helpers not under node are libvirt, the rest nothing', () => {
    expect([10, 11, 12, 22, 23, 99].map((pid) => classify(pid, byPid))).toEqual([
      'libvirt',
      'qemu',
      'libvirt',
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('ProcessLedger', () => {
  const BOOT = Date.parse('2026-11-29T00:00:00Z');
  // The sampler starts 100 s after boot; start ticks are 1/100 s since boot.
  const SINCE = BOOT + 100_000;
  const names = new Map([[11, 'vstest-aa-vm']]);

  it('GIVEN a QEMU started after the sampler WHEN it is read and then gone from a full read THEN its record has its whole CPU, name and times', () => {
    const asked: number[] = [];
    const ledger = new ProcessLedger(BOOT, SINCE, (pid) => (asked.push(pid), names.get(pid) ?? ''));
    const init = proc(1, 'init', 0, 0, 0);
    expect(ledger.observe(SINCE + 2000, [init, proc(11, 'qemu-system-x86', 1, 300, 10_100)], true)).toEqual([]);
    expect(ledger.qemuPids()).toEqual([11]);
    expect(ledger.observe(SINCE + 2500, [proc(11, 'qemu-system-x86', 1, 450, 10_100)], false)).toEqual([]);
    // a non-full read without it: not ended yet
    expect(ledger.observe(SINCE + 3000, [], false)).toEqual([]);
    expect(ledger.observe(SINCE + 4000, [init], true)).toEqual([
      {
        kind: 'qemu',
        pid: 11,
        name: 'vstest-aa-vm',
        comm: 'qemu-system-x86',
        startMs: BOOT + 101_000,
        endMs: SINCE + 2500,
        cpuSeconds: 4.5,
      },
    ]);
    expect(asked).toEqual([11]);
    expect(ledger.stillRunning()).toEqual([]);
  });

  it('GIVEN a daemon running before the sampler WHEN it stops THEN only the CPU used since its first read counts, marked running', () => {
    const ledger = new ProcessLedger(BOOT, SINCE, () => '');
    const init = proc(1, 'init', 0, 0, 0);
    ledger.observe(SINCE, [init, proc(10, 'libvirtd', 1, 5000, 500)], true);
    ledger.observe(SINCE + 2000, [init, proc(10, 'libvirtd', 1, 5250, 500)], true);
    expect(ledger.stillRunning()).toEqual([
      { kind: 'libvirt', pid: 10, name: '', comm: 'libvirtd', startMs: BOOT + 5000, endMs: SINCE + 2000, cpuSeconds: 2.5, running: true },
    ]);
  });

  it('GIVEN a libvirtd child that becomes QEMU by exec (same pid and start) WHEN read again THEN it is one guest with its name', () => {
    const ledger = new ProcessLedger(BOOT, SINCE, (pid) => names.get(pid) ?? '');
    const init = proc(1, 'init', 0, 0, 0);
    ledger.observe(SINCE + 2000, [init, proc(11, 'libvirtd', 1, 1, 10_100)], true);
    ledger.observe(SINCE + 4000, [init, proc(11, 'qemu-system-x86', 1, 900, 10_100)], true);
    expect(ledger.stillRunning()).toMatchObject([{ kind: 'qemu', name: 'vstest-aa-vm', cpuSeconds: 9 }]);
  });

  it('GIVEN a pid reused by another QEMU WHEN read THEN the two are two records', () => {
    const ledger = new ProcessLedger(BOOT, SINCE, () => 'g');
    const init = proc(1, 'init', 0, 0, 0);
    ledger.observe(SINCE + 2000, [init, proc(11, 'qemu-system-x86', 1, 100, 10_100)], true);
    const ended = ledger.observe(SINCE + 4000, [init, proc(11, 'qemu-system-x86', 1, 20, 10_300)], true);
    expect(ended).toMatchObject([{ startMs: BOOT + 101_000, cpuSeconds: 1 }]);
    expect(ledger.stillRunning()).toMatchObject([{ startMs: BOOT + 103_000, cpuSeconds: 0.2 }]);
  });
});

describe('parseGuestCpuLog', () => {
  it('GIVEN the sampler output with a torn line and an unknown kind WHEN parsed THEN the whole records come out', () => {
    const text = [
      '{"kind":"qemu","pid":11,"name":"vstest-aa-vm","comm":"qemu-system-x86","startMs":1,"endMs":2,"cpuSeconds":4.5}',
      '{"kind":"qemu","pid":12,"na',
      '{"kind":"other","pid":1}',
      '{"kind":"libvirt","pid":10,"name":"","comm":"libvirtd","startMs":0,"endMs":2,"cpuSeconds":2.5,"running":true}',
      '{"kind":"sampler","cpuSeconds":0.8}',
      '',
    ].join('\n');
    expect(parseGuestCpuLog(text)).toEqual([
      { kind: 'qemu', pid: 11, name: 'vstest-aa-vm', comm: 'qemu-system-x86', startMs: 1, endMs: 2, cpuSeconds: 4.5 },
      { kind: 'libvirt', pid: 10, name: '', comm: 'libvirtd', startMs: 0, endMs: 2, cpuSeconds: 2.5, running: true },
      { kind: 'sampler', cpuSeconds: 0.8 },
    ]);
  });
});
