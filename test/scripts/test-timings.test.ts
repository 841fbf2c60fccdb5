import {
  attributeStarts,
  buildTimings,
  imageLine,
  laneOfResult,
  JestFileResult,
  machineCpu,
  nameLiterals,
  parseCpuLog,
  parseImageBuild,
  parseProcStatLine,
  parseQemuLog,
  QemuStart,
  renderTimings,
} from '../../scripts/test-timings';

const ROOT = '/repo';
const T0 = Date.parse('2026-11-28T10:00:00Z');
const at = (s: number) => T0 + s * 1000;

/** A libvirt QEMU log with a boot at 10:00:10.5 and a restore (`-incoming defer`) at 10:01:00. */
const QEMU_LOG = `2026-11-28 10:00:10.500+0000: starting up libvirt version: 9.0.0, package: 9.0.0-4+deb12u2 (Debian), qemu version: 7.2.0Debian 1:7.2+dfsg-7+deb12u18, kernel: 6.1.0, hostname: ci
LC_ALL=C \\
PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin \\
/usr/bin/qemu-system-x86_64 \\
-name guest=vstest-rp-vm,debug-threads=on \\
-S \\
-msg timestamp=on
char device redirected to /dev/pts/3 (label charserial0)
2026-11-28 10:00:50.000+0000: shutting down, reason=shutdown
2026-11-28 10:01:00.000+0000: starting up libvirt version: 9.0.0, package: 9.0.0-4+deb12u2 (Debian), qemu version: 7.2.0, kernel: 6.1.0, hostname: ci
/usr/bin/qemu-system-x86_64 \\
-name guest=vstest-rp-vm,debug-threads=on \\
-incoming defer \\
-msg timestamp=on
`;

function fileResult(name: string, start: number, end: number, tests: [string, number, string?][]): JestFileResult {
  return {
    name: `${ROOT}/${name}`,
    startTime: at(start),
    endTime: at(end),
    status: tests.some((t) => t[2] === 'failed') ? 'failed' : 'passed',
    assertionResults: tests.map(([fullName, ms, status]) => ({ fullName, duration: ms, status: status ?? 'passed' })),
  };
}

describe('parseQemuLog', () => {
  it('GIVEN a QEMU log with two starts WHEN parsed THEN each start has its UTC time and the one with -incoming is a restore', () => {
    expect(parseQemuLog('vstest-rp-vm', QEMU_LOG)).toEqual([
      { domain: 'vstest-rp-vm', ms: at(10.5), restore: false },
      { domain: 'vstest-rp-vm', ms: at(60), restore: true },
    ]);
  });

  it('GIVEN a log without a start line (a console log) WHEN parsed THEN it has no start', () => {
    expect(parseQemuLog('x', 'Linux version 6.1.0\nstarting up the system\n')).toEqual([]);
  });
});

describe('nameLiterals', () => {
  it('GIVEN a test source WHEN its literals are read THEN the vstest-/virtseed- names come out once each', () => {
    const src =
      "const PREFIX = 'vstest-rp';\nconst NAME = `${PREFIX}-vm`;\nconst LOG = '/var/log/libvirt/qemu/virtseed-basic-console.log'; 'vstest-rp'";
    expect(nameLiterals(src).sort()).toEqual(['virtseed-basic-console.log', 'vstest-rp']);
  });
});

describe('attributeStarts', () => {
  const literals = new Map<string, string[]>([
    ['a.int.test.ts', ['vstest-aa']],
    ['b.int.test.ts', ['vstest-bb', 'vstest-bb-x']],
    ['c.int.test.ts', ['vstest-cc']],
  ]);
  const windows = [
    { file: 'a.int.test.ts', startMs: at(0), endMs: at(100) },
    { file: 'b.int.test.ts', startMs: at(50), endMs: at(200) },
  ];
  const start = (domain: string, s: number): QemuStart => ({ domain, ms: at(s), restore: false });

  it('GIVEN two files running side by side WHEN a start falls in both windows THEN it goes to the file whose source names the domain', () => {
    const { byFile, unattributed } = attributeStarts(windows, [start('vstest-bb-x-vm', 60), start('vstest-aa-vm', 70)], literals);
    expect(byFile.get('a.int.test.ts')?.map((s) => s.domain)).toEqual(['vstest-aa-vm']);
    expect(byFile.get('b.int.test.ts')?.map((s) => s.domain)).toEqual(['vstest-bb-x-vm']);
    expect(unattributed).toEqual([]);
  });

  it('GIVEN one file running WHEN a domain no test names starts THEN it goes to that file by time', () => {
    const { byFile } = attributeStarts(windows, [start('made-elsewhere', 10)], literals);
    expect(byFile.get('a.int.test.ts')?.length).toBe(1);
  });

  it('GIVEN one file running WHEN a domain another test file names starts THEN it is not attributed (someone else runs that test)', () => {
    const { byFile, unattributed } = attributeStarts(windows, [start('vstest-cc-vm', 10)], literals);
    expect(byFile.size).toBe(0);
    expect(unattributed.map((s) => s.domain)).toEqual(['vstest-cc-vm']);
  });

  it('GIVEN two files running WHEN a start names neither THEN it is not attributed; outside every window neither', () => {
    const { byFile, unattributed } = attributeStarts(windows, [start('other', 60), start('vstest-aa-vm', 300)], literals);
    expect(byFile.size).toBe(0);
    expect(unattributed).toHaveLength(2);
  });
});

describe('buildTimings and renderTimings', () => {
  const runs = [
    {
      lane: 'unit',
      result: {
        testResults: [fileResult('test/u1.test.ts', 0, 2, [['u1 fast', 5]]), fileResult('test/u2.test.ts', 0, 3, [['u2 fast', 7]])],
      },
    },
    {
      lane: 'int',
      result: {
        testResults: [
          fileResult('test/a.int.test.ts', 10, 100, [
            ['a one', 30_000],
            ['a two', 50_000, 'failed'],
          ]),
        ],
      },
    },
    {
      lane: 'heavy',
      result: {
        testResults: [
          fileResult('test/b.int.test.ts', 10, 300, [
            ['b one', 10_000],
            ['b two', 90_000],
            ['b three', 60_000],
            ['b | four', 120_000],
          ]),
        ],
      },
    },
  ];
  const literals = new Map([
    ['test/a.int.test.ts', ['vstest-aa']],
    ['test/b.int.test.ts', ['vstest-bb']],
  ]);
  const starts: QemuStart[] = [
    { domain: 'vstest-bb-vm', ms: at(20), restore: false },
    { domain: 'vstest-bb-vm', ms: at(200), restore: true },
    { domain: 'vstest-aa-vm', ms: at(50), restore: false },
    { domain: 'vstest-aa-vm', ms: at(30), restore: false },
  ];
  const t = buildTimings(runs, starts, literals, ROOT);

  it('GIVEN three lanes WHEN built THEN files are sorted by wall time with their boots, restores and 3 slowest tests', () => {
    expect(t.files.map((f) => [f.lane, f.file, f.seconds, f.boots, f.restores, f.passed, f.failed])).toEqual([
      ['heavy', 'test/b.int.test.ts', 290, 1, 1, 4, 0],
      ['int', 'test/a.int.test.ts', 90, 2, 0, 1, 1],
      ['unit', 'test/u2.test.ts', 3, 0, 0, 1, 0],
      ['unit', 'test/u1.test.ts', 2, 0, 0, 1, 0],
    ]);
    expect(t.files[0].slowest).toEqual([
      { name: 'b | four', seconds: 120 },
      { name: 'b two', seconds: 90 },
      { name: 'b three', seconds: 60 },
    ]);
  });

  it('GIVEN three lanes WHEN built THEN each lane totals its files, and its wall time runs from first start to last end', () => {
    expect(t.lanes).toEqual([
      { lane: 'unit', processes: 1, startMs: at(0), files: 2, seconds: 5, wallSeconds: 3, boots: 0, restores: 0, passed: 2, failed: 0 },
      { lane: 'int', processes: 1, startMs: at(10), files: 1, seconds: 90, wallSeconds: 90, boots: 2, restores: 0, passed: 1, failed: 1 },
      {
        lane: 'heavy',
        processes: 1,
        startMs: at(10),
        files: 1,
        seconds: 290,
        wallSeconds: 290,
        boots: 1,
        restores: 1,
        passed: 4,
        failed: 0,
      },
    ]);
  });

  it('GIVEN the timings WHEN rendered with one unit row THEN the table has the lane totals, the rows longest first and the hidden unit count', () => {
    const md = renderTimings(t, 1);
    const lines = md.split('\n');
    expect(lines[0]).toBe('| lane | jest processes | files | sum of files (s) | lane wall (s) | boots | restores | passed | failed |');
    expect(lines).toContain('| heavy | 1 | 1 | 290 | 290 | 1 | 1 | 4 | 0 |');
    const rows = lines.filter((l) => /^\| (unit|int|heavy) \| test\//.test(l));
    expect(rows).toEqual([
      '| heavy | test/b.int.test.ts | 290 |  |  | 1 | 1 | 4 | 120 b \\| four; 90 b two; 60 b three |',
      '| int | test/a.int.test.ts | 90 |  |  | 2 | 0 | 1 passed, 1 failed | 50 a two; 30 a one |',
      '| unit | test/u2.test.ts | 3 |  |  | 0 | 0 | 1 | 0 u2 fast |',
    ]);
    expect(md).toContain('(1 more unit files: every row is in test-results/timings.md)');
  });

  it('GIVEN a start no file can be given WHEN rendered THEN the table says so with the domain', () => {
    const other = buildTimings(runs, [{ domain: 'someone-else', ms: at(50), restore: false }], literals, ROOT);
    expect(renderTimings(other)).toContain('QEMU starts not attributed to a file: 1 (someone-else)');
  });

  it('GIVEN a file that failed to run (no start time) WHEN built THEN it has 0 s and counts as one failure', () => {
    const broken = buildTimings(
      [
        {
          lane: 'int',
          result: {
            testResults: [{ name: `${ROOT}/test/x.int.test.ts`, startTime: 0, endTime: 0, status: 'failed', assertionResults: [] }],
          },
        },
      ],
      [],
      literals,
      ROOT,
    );
    expect(broken.files[0]).toMatchObject({ seconds: 0, failed: 1 });
    expect(broken.lanes[0]).toMatchObject({ wallSeconds: 0, failed: 1 });
  });
});

describe('CPU in the timing table', () => {
  it('GIVEN two /proc/stat cpu lines WHEN compared THEN busy counts user, nice, system, irq, softirq and steal, available adds idle and iowait', () => {
    expect(parseProcStatLine('cpu  100 10 50 1000 20 5 5 0 0 0')).toEqual({ busy: 170, total: 1190 });
    expect(machineCpu('cpu  100 10 50 1000 20 5 5 0 0 0\n', 'cpu  400 10 150 1300 40 5 5 10 0 0\n')).toEqual({
      busySeconds: 4.1,
      availableSeconds: 7.3,
    });
    expect(() => parseProcStatLine('cpu0 1 2 3 4')).toThrow(/not the cpu line/);
  });

  it('GIVEN a cpu.jsonl with a torn line WHEN read THEN each whole line gives its file (relative) and seconds', () => {
    const log = `{"file":"${ROOT}/test/a.int.test.ts","cpuSeconds":12.5}\n{"file":"${ROOT}/test/b.int\n{"file":"${ROOT}/test/c.int.test.ts","cpuSeconds":3}\n`;
    expect([...parseCpuLog(log, ROOT)]).toEqual([
      ['test/a.int.test.ts', 12.5],
      ['test/c.int.test.ts', 3],
    ]);
  });

  it('GIVEN per-file CPU and the machine CPU WHEN rendered THEN rows carry their cpu and the header line sums the files', () => {
    const runs = [{ lane: 'int', result: { testResults: [fileResult('test/a.int.test.ts', 0, 100, [['a', 1000]])] } }];
    const t = buildTimings(runs, [], new Map(), ROOT, new Map([['test/a.int.test.ts', 42.5]]), {
      busySeconds: 150,
      availableSeconds: 200,
    });
    const md = renderTimings(t);
    expect(md).toContain('| int | test/a.int.test.ts | 100 | 42.5 |  | 0 | 0 | 1 | 1 a |');
    expect(md).toContain(
      "Machine CPU during the integration lanes: 150 core-s busy of 200 (75 %); the files' own processes 42.5 core-s, the rest is guests",
    );
  });

  it('GIVEN sampled QEMU processes and daemons WHEN built and rendered THEN each file has its guests CPU and the header line splits the rest', () => {
    const runs = [
      { lane: 'int', result: { testResults: [fileResult('test/a.int.test.ts', 0, 100, [['a', 1000]])] } },
      { lane: 'heavy', result: { testResults: [fileResult('test/b.int.test.ts', 0, 100, [['b', 1000]])] } },
      { lane: 'noguest', result: { testResults: [fileResult('test/n.int.test.ts', 0, 100, [['n', 1000]])] } },
    ];
    const literals = new Map([
      ['test/a.int.test.ts', ['vstest-aa']],
      ['test/b.int.test.ts', ['vstest-bb']],
      ['test/n.int.test.ts', ['vstest-nn']],
    ]);
    const qemu = (name: string, s: number, cpuSeconds: number) =>
      ({ kind: 'qemu', pid: 1, name, comm: 'qemu-system-x86', startMs: at(s), endMs: at(s + 50), cpuSeconds }) as const;
    const processes = [
      qemu('vstest-aa-vm', 10, 100.25),
      qemu('vstest-aa-vm', 60, 20),
      qemu('vstest-bb-vm', 20, 50),
      qemu('someone-else', 30, 7),
      { kind: 'libvirt', pid: 2, name: '', comm: 'libvirtd', startMs: 0, endMs: at(100), cpuSeconds: 30 } as const,
      { kind: 'sampler', cpuSeconds: 1.5 } as const,
    ];
    const t = buildTimings(
      runs,
      [],
      literals,
      ROOT,
      new Map([
        ['test/a.int.test.ts', 10],
        ['test/b.int.test.ts', 20],
      ]),
      { busySeconds: 250, availableSeconds: 300 },
      processes,
    );
    expect(t.files.map((f) => [f.file, f.guestCpuSeconds])).toEqual([
      ['test/a.int.test.ts', 120.3],
      ['test/b.int.test.ts', 50],
      ['test/n.int.test.ts', 0],
    ]);
    expect(t.guestCpu).toEqual({
      qemuSeconds: 177.3,
      qemuProcesses: 4,
      qemuUnattributedSeconds: 7,
      libvirtSeconds: 30,
      samplerSeconds: 1.5,
    });
    const md = renderTimings(t);
    expect(md).toContain('| int | test/a.int.test.ts | 100 | 10 | 120.3 | 0 | 0 | 1 | 1 a |');
    expect(md).toContain(
      "the files' own processes 30 core-s, guests (4 QEMU processes) 177.3 core-s (7 of it in QEMU processes no file could be given), libvirt's daemons and helpers 30 core-s, the rest 12.7 core-s is the kernel, the sampler (1.5 core-s) and anything else on the machine.",
    );
  });

  it('GIVEN the CPU of the build, unit tests and checks WHEN rendered THEN the table has its line', () => {
    const runs = [{ lane: 'int', result: { testResults: [fileResult('test/a.int.test.ts', 0, 100, [['a', 1000]])] } }];
    const t = { ...buildTimings(runs, [], new Map(), ROOT), unitPhaseCpu: { busySeconds: 380, availableSeconds: 400 } };
    expect(renderTimings(t)).toContain('Machine CPU during the build, unit tests and checks: 380 core-s busy of 400 (95 %).');
  });
});

describe('the integration slots, each over several jest processes', () => {
  // slot1 ran two batches (b then, in a later process, a and c); slot2 one (d), started between them. Files start in
  // another order than their names and their processes: a's guests start while d's run.
  const runs = [
    { lane: 'slot1', result: { testResults: [fileResult('test/b.int.test.ts', 0, 100, [['b', 1]])] } },
    { lane: 'slot2', result: { testResults: [fileResult('test/d.int.test.ts', 50, 400, [['d', 1]])] } },
    {
      lane: 'slot1',
      result: {
        testResults: [fileResult('test/a.int.test.ts', 102, 200, [['a', 1]]), fileResult('test/c.int.test.ts', 200, 260, [['c', 1]])],
      },
    },
  ];
  const literals = new Map([
    ['test/a.int.test.ts', ['vstest-aa']],
    ['test/b.int.test.ts', ['vstest-bb']],
    ['test/c.int.test.ts', ['vstest-cc']],
    ['test/d.int.test.ts', ['vstest-dd']],
  ]);
  const starts: QemuStart[] = [
    { domain: 'vstest-aa-vm', ms: at(150), restore: false },
    { domain: 'vstest-dd-vm', ms: at(150), restore: false },
    { domain: 'vstest-bb-vm', ms: at(60), restore: true },
    { domain: 'vstest-cc-vm', ms: at(250), restore: false },
  ];
  const processes = [
    { kind: 'qemu' as const, pid: 1, name: 'vstest-aa-vm', comm: 'qemu-system-x86', startMs: at(150), endMs: at(190), cpuSeconds: 30 },
    { kind: 'qemu' as const, pid: 2, name: 'vstest-dd-vm', comm: 'qemu-system-x86', startMs: at(150), endMs: at(390), cpuSeconds: 200 },
  ];
  const t = buildTimings(runs, starts, literals, ROOT, new Map(), undefined, processes);

  it('GIVEN a slot over two jest processes WHEN built THEN its total counts both processes and its wall runs from its first file to its last', () => {
    expect(t.lanes).toEqual([
      {
        lane: 'slot1',
        processes: 2,
        startMs: at(0),
        files: 3,
        seconds: 258,
        wallSeconds: 260,
        boots: 2,
        restores: 1,
        passed: 3,
        failed: 0,
      },
      {
        lane: 'slot2',
        processes: 1,
        startMs: at(50),
        files: 1,
        seconds: 350,
        wallSeconds: 350,
        boots: 1,
        restores: 0,
        passed: 1,
        failed: 0,
      },
    ]);
  });

  it('GIVEN boots and guests in files of different processes WHEN built THEN each goes to its file by time and name', () => {
    const row = (f: string) => t.files.find((x) => x.file === f);
    expect(
      [row('test/a.int.test.ts'), row('test/b.int.test.ts'), row('test/c.int.test.ts'), row('test/d.int.test.ts')].map((r) => [
        r?.lane,
        r?.boots,
        r?.restores,
        r?.guestCpuSeconds,
      ]),
    ).toEqual([
      ['slot1', 1, 0, 30],
      ['slot1', 0, 1, 0],
      ['slot1', 1, 0, 0],
      ['slot2', 1, 0, 200],
    ]);
    expect(t.unattributed).toEqual([]);
  });

  it("GIVEN result file names WHEN read THEN the lane is the slot of a batch, unit, or an older run's lane", () => {
    expect(laneOfResult('slot2-b07.json')).toBe('slot2');
    expect(laneOfResult('slot1-b123.json')).toBe('slot1');
    expect(laneOfResult('unit.json')).toBe('unit');
    expect(laneOfResult('noguest.json')).toBe('noguest');
    expect(laneOfResult('timings.json')).toBeUndefined();
    expect(laneOfResult('slot1-b07.log')).toBeUndefined();
  });
});

describe('the test image in the timing table', () => {
  it('GIVEN image.start, image.end and the log of a build WHEN parsed THEN it was built, in the seconds between', () => {
    expect(parseImageBuild(`${at(0)}\n`, `${at(341.25)}\n`, 'building test image in /x (debootstrap)\n/x\n')).toEqual({
      built: true,
      seconds: 341.3,
      startMs: at(0),
      endMs: at(341.25),
    });
  });

  it('GIVEN the log of a cached image WHEN parsed THEN it was not built', () => {
    expect(parseImageBuild(`${at(0)}`, `${at(1)}`, 'test image cached: /var/cache/virtseed/images/x\n')).toMatchObject({
      built: false,
      seconds: 1,
    });
  });

  it('GIVEN no end time (the build never ended) or garbage WHEN parsed THEN there is no image build', () => {
    expect(parseImageBuild(`${at(0)}`, undefined, '')).toBeUndefined();
    expect(parseImageBuild('', `${at(1)}`, '')).toBeUndefined();
    expect(parseImageBuild('soon', `${at(1)}`, '')).toBeUndefined();
    expect(parseImageBuild(`${at(5)}`, `${at(1)}`, '')).toBeUndefined();
  });

  it('GIVEN a built image and lanes started before and after it was ready WHEN rendered THEN each lane start is given against it', () => {
    const runs = [
      { lane: 'unit', result: { testResults: [fileResult('test/u.test.ts', 0, 100, [['u', 1]])] } },
      { lane: 'noguest', result: { testResults: [fileResult('test/n.int.test.ts', 200, 900, [['n', 1]])] } },
      { lane: 'heavy', result: { testResults: [fileResult('test/h.int.test.ts', 343, 900, [['h', 1]])] } },
    ];
    const t = { ...buildTimings(runs, [], new Map(), ROOT), image: { built: true, seconds: 340, startMs: at(0), endMs: at(340) } };
    expect(imageLine(t)).toBe(
      'Test image: built in 340 s (test-results/image.log); lanes started: noguest 140 s before it was ready, heavy 3 s after it was ready.',
    );
    expect(renderTimings(t)).toContain(imageLine(t));
    expect(imageLine({ ...t, image: { ...t.image, built: false } })).toBe('Test image: found cached (test-results/image.log).');
    expect(imageLine({ ...t, image: undefined })).toBeUndefined();
  });
});
