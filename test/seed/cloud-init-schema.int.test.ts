/**
 * #9: cloud-init's own `cloud-init schema --config-file` and virtseed's validateSeed agree on a table of
 * cloud-config inputs: valid ones, ones cloud-init rejects (virtseed: an error), ones cloud-init accepts with a
 * deprecation (virtseed: a warning) and ones its schema accepts but its code ignores (virtseed: a warning with the
 * path; cloud-init schema: valid).
 *
 * cloud-init's command runs once per row in one Python process (./fixtures/cloud_init_schema_batch.py: the
 * `cloud-init` console script's own entry point, called with `schema --config-file FILE` per row, its exit code and
 * output kept): a process per row cost about 0.6 CPU s of Python start each. One row of each verdict also runs as
 * the `cloud-init schema` process, which must give the same exit code and output.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateSeed, type SeedSpec } from '../../src/seed';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG3 me@host';

type Expected = 'valid' | 'invalid' | 'deprecated' | 'ignored';
/** name, cloud-config body (after `#cloud-config`), expected verdict, extra SeedSpec fields, expected warning path. */
type Row = [string, string, Expected, Partial<SeedSpec>?, (string | number)[]?];

const rows: Row[] = [
  ['hostname', 'hostname: web1', 'valid'],
  ['packages list', 'packages: [nginx, curl]', 'valid'],
  ['runcmd strings and lists', 'runcmd:\n  - [ls, /]\n  - echo hi', 'valid'],
  [
    'users with default and a full user',
    'users:\n  - default\n  - name: alice\n    shell: /bin/bash\n    sudo: "ALL=(ALL) NOPASSWD:ALL"\n    groups: [adm]\n    lock_passwd: true',
    'valid',
  ],
  ['write_files', 'write_files:\n  - path: /etc/a\n    content: x\n    permissions: "0644"\n    owner: root:root', 'valid'],
  ['ssh_pwauth boolean', 'ssh_pwauth: true', 'valid'],
  ['timezone', 'timezone: UTC', 'valid'],
  ['package_update/upgrade', 'package_update: true\npackage_upgrade: false', 'valid'],
  ['bootcmd', 'bootcmd: [echo a]', 'valid'],
  ['mounts', 'mounts:\n  - [vdb, /data, auto, "defaults,nofail", "0", "2"]', 'valid'],
  ['ntp', 'ntp:\n  enabled: true\n  servers: [ntp.example.com]', 'valid'],
  ['growpart', 'growpart:\n  mode: auto\n  devices: [/]', 'valid'],
  ['power_state', 'power_state:\n  mode: reboot\n  delay: now', 'valid'],
  ['final_message', 'final_message: done', 'valid'],
  ['top-level ssh_authorized_keys without users', `ssh_authorized_keys: ["${KEY}"]`, 'valid'],
  ['public_keys with the default user', 'users: [default, {name: bob}]', 'valid', { public_keys: [KEY] }],
  ['locale', 'locale: en_US.UTF-8', 'valid'],
  ['manage_etc_hosts', 'manage_etc_hosts: true', 'valid'],
  ['user expiredate as a date string', 'users:\n  - name: bob\n    expiredate: "2030-01-01"', 'valid'],
  ['disable_root', 'disable_root: false', 'valid'],
  ['resize_rootfs', 'resize_rootfs: true', 'valid'],
  ['user inactive as a string', 'users:\n  - name: a\n    inactive: "30"', 'valid'],

  ['user inactive as a boolean (cloud-init takes only a string)', 'users:\n  - name: a\n    inactive: true', 'invalid'],
  ['runcmd not a list', 'runcmd: 5', 'invalid'],
  ['packages a string', 'packages: nginx', 'invalid'],
  ['ssh_pwauth a list', 'ssh_pwauth: [1]', 'invalid'],
  ['write_files without path', 'write_files:\n  - content: x', 'invalid'],
  ['expiredate not a date', 'users:\n  - name: a\n    expiredate: soon', 'invalid'],
  ['power_state unknown mode', 'power_state:\n  mode: explode', 'invalid'],
  ['power_state delay text', 'power_state:\n  mode: reboot\n  delay: soon', 'invalid'],
  ['user without name', 'users:\n  - gecos: nobody', 'invalid'],
  ['permissions unquoted octal (YAML 1.1 integer)', 'write_files:\n  - path: /a\n    permissions: 0644', 'invalid'],
  ['growpart unknown mode', 'growpart:\n  mode: sometimes', 'invalid'],
  ['empty runcmd', 'runcmd: []', 'invalid'],
  ['lock_passwd a string', 'users:\n  - name: a\n    lock_passwd: "yes"', 'invalid'],
  ['timezone a number', 'timezone: 5', 'invalid'],
  ['hostname a list', 'hostname: [a]', 'invalid'],
  ['ntp enabled a string', 'ntp:\n  enabled: "yes"', 'invalid'],
  ['bootcmd a map', 'bootcmd: {a: b}', 'invalid'],
  ['package_update a string', 'package_update: "true"', 'invalid'],
  ['write_files unknown encoding', 'write_files:\n  - path: /a\n    encoding: rot13\n    content: x', 'invalid'],
  ['unknown user property', 'users:\n  - name: a\n    shel: /bin/sh', 'invalid'],

  ['lock-passwd (deprecated spelling)', 'users:\n  - name: a\n    lock-passwd: true', 'deprecated'],
  ['growpart mode false (deprecated)', 'growpart:\n  mode: false', 'deprecated'],
  ['sudo false (deprecated)', 'users:\n  - name: a\n    sudo: false', 'deprecated'],
  ['power_state delay as a string (deprecated)', 'power_state:\n  mode: reboot\n  delay: "+5"', 'deprecated'],

  ['public_keys while users has no default', 'users:\n  - name: alice', 'ignored', { public_keys: [KEY] }, ['public_keys']],
  [
    'top-level ssh_authorized_keys while users has no default',
    `users: [{name: alice}]\nssh_authorized_keys: ["${KEY}"]`,
    'ignored',
    {},
    ['user_data', 'ssh_authorized_keys'],
  ],
  ['user override while users has no default', 'users: [{name: alice}]\nuser: {name: bob}', 'ignored', {}, ['user_data', 'user']],
  ['hostname with preserve_hostname', 'preserve_hostname: true\nhostname: web1', 'ignored', {}, ['user_data', 'hostname']],
  ['seed hostname with preserve_hostname', 'preserve_hostname: true', 'ignored', { hostname: 'web1' }, ['hostname']],
  [
    'undecodable permissions',
    'write_files:\n  - path: /a\n    permissions: rw-r--r--',
    'ignored',
    {},
    ['user_data', 'write_files', 0, 'permissions'],
  ],
  ['unknown top-level key', 'packagez: [nginx]', 'ignored', {}, ['user_data', 'packagez']],
];

let work: string;
/** cloud-init's exit code and output by row index (the batch run of every row). */
let verdicts: Map<number, CloudInitRun>;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'vstest-ci-schema-'));
  verdicts = cloudInitBatch(rows.map((r) => `#cloud-config\n${r[1]}\n`));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** One `cloud-init schema --config-file FILE` run: its exit code and output. */
interface CloudInitRun {
  readonly file: string;
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The interpreter of the `cloud-init` console script (its `#!` line), which has the cloudinit package. */
function cloudInitPython(): string {
  const which = spawnSync('sh', ['-c', 'command -v cloud-init'], { encoding: 'utf8' });
  const script = which.stdout.trim();
  if (which.status !== 0 || !script) throw new Error(`no cloud-init on PATH: ${which.stderr}`);
  const shebang = /^#!\s*(\S+)/.exec(readFileSync(script, 'utf8'))?.[1];
  if (!shebang) throw new Error(`${script} has no #! line`);
  return shebang;
}

/** `cloud-init schema --config-file` of each of `texts` (written to row-I.yaml), in one Python process
 *  (./fixtures/cloud_init_schema_batch.py), by index. Throws with its output when the batch itself fails. */
function cloudInitBatch(texts: readonly string[]): Map<number, CloudInitRun> {
  const files = texts.map((text, i) => {
    const file = join(work, `row-${i}.yaml`);
    writeFileSync(file, text);
    return file;
  });
  const r = spawnSync(cloudInitPython(), [join(__dirname, 'fixtures', 'cloud_init_schema_batch.py'), ...files], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (r.status !== 0) throw new Error(`cloud_init_schema_batch.py exited ${r.status}:\n${r.stdout}${r.stderr}`);
  const runs = JSON.parse(r.stdout) as CloudInitRun[];
  return new Map(runs.map((run, i) => [i, run]));
}

/** The command as a process of its own, for comparison with the batch. */
function cloudInitProcess(file: string): CloudInitRun {
  const r = spawnSync('cloud-init', ['schema', '--config-file', file], { encoding: 'utf8' });
  return { file, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** cloud-init's verdict on row `i`: exit code 1 → invalid; "deprecations" in its output → deprecated; else valid. */
function cloudInitVerdict(i: number): { verdict: 'valid' | 'invalid' | 'deprecated'; output: string } {
  const r = verdicts.get(i);
  if (!r) throw new Error(`the cloud-init batch has no result for row ${i}`);
  const output = `$ cloud-init schema --config-file ${r.file}\nexit ${r.status}\n${r.stdout}${r.stderr}`;
  if (r.status !== 0 && r.status !== 1) throw new Error(output);
  return { verdict: r.status === 1 ? 'invalid' : /schema deprecations: \S/.test(r.stdout) ? 'deprecated' : 'valid', output };
}

test('the table has at least 40 inputs of every kind', () => {
  expect(rows.length).toBeGreaterThanOrEqual(40);
  for (const kind of ['valid', 'invalid', 'deprecated', 'ignored']) expect(rows.filter((r) => r[2] === kind).length).toBeGreaterThan(0);
});

test('GIVEN one row of each verdict WHEN cloud-init schema runs as its own process THEN it gives what the batch gave', () => {
  const picked = (['valid', 'invalid', 'deprecated'] as const).map((kind) => rows.findIndex((r) => r[2] === kind));
  for (const i of picked) expect(cloudInitProcess(verdicts.get(i)!.file)).toEqual(verdicts.get(i));
});

describe.each(rows.map((r, i) => [r[0], r, i] as const))('%s', (_name, [, body, expected, extra, warnAt], i) => {
  test(`GIVEN the cloud-config WHEN cloud-init schema and validateSeed judge it THEN both say ${expected}`, () => {
    const text = `#cloud-config\n${body}\n`;
    const ci = cloudInitVerdict(i);
    const found = validateSeed({ ...extra, user_data: text });
    const errors = found.filter((d) => d.severity === 'error');
    const warnings = found.filter((d) => d.severity === 'warning');
    const report = `${ci.output}\nvirtseed: ${JSON.stringify(found, null, 1)}`;
    expect({ cloudInit: ci.verdict, report }).toEqual({ cloudInit: expected === 'ignored' ? 'valid' : expected, report });
    expect({ virtseedErrors: errors.length > 0, report }).toEqual({ virtseedErrors: expected === 'invalid', report });
    if (expected === 'valid') expect(found).toEqual([]);
    if (expected === 'deprecated')
      expect({ warnings: warnings.map((d) => d.summary), report }).toEqual({ warnings: ['Deprecated cloud-config key'], report });
    if (expected === 'ignored') expect(warnings.map((d) => d.path)).toContainEqual(warnAt);
  });
});
