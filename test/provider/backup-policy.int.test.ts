/**
 * virtseed_backup_policy against the real libvirtd at qemu:///system through real terraform, with the CLI a timer
 * runs (bin/virtseed, the built bundle) between applies. The domain boots nothing (an empty qcow2 volume: QEMU
 * runs, which is all a push backup needs):
 *  1. the apply that creates the policy takes the first backup (0001-full, its manifest on disk) and the next plan
 *     is empty (the latest is within max_age);
 *  2. `virtseed backup create` from a timer adds 0002-incremental, which the policy reads at refresh: still no change;
 *  3. when the latest backup is older than max_age (its manifest's takenAt set back two days), the plan warns that a
 *     backup is due, naming the domain and the latest backup, and the apply takes 0003-incremental;
 *  4. a bad keep fails the plan on `keep`; destroy keeps the backups.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(600_000);

const PREFIX = 'vstest-bkpol';
const BIN = path.join(__dirname, '..', '..', 'bin', 'virtseed');
let tf: TfWorkdir;
let dir: string;

function write(keep = 2): void {
  tf.write(`
resource "virtseed_volume" "disk" {
  pool     = "default"
  name     = "${PREFIX}.qcow2"
  capacity = ${16 * 1024 * 1024}
}
resource "virtseed_domain" "vm" {
  name   = "${PREFIX}"
  memory = 64
  disk { volume_id = virtseed_volume.disk.id }
}
resource "virtseed_backup_policy" "vm" {
  domain  = virtseed_domain.vm.name
  dir     = "${dir}"
  keep    = ${keep}
  max_age = 3600
}
`);
}

function backupsOnDisk(): string[] {
  return fs
    .readdirSync(path.join(dir, PREFIX))
    .filter((f) => fs.existsSync(path.join(dir, PREFIX, f, 'manifest.json')))
    .sort();
}

beforeAll(() => {
  dir = fs.mkdtempSync('/var/tmp/vstest-bkpol-');
  fs.chmodSync(dir, 0o755);
  tf = new TfWorkdir('bkpol');
  write();
  tf.init();
});

afterAll(() => {
  try {
    tf?.run(['destroy', '-auto-approve', '-input=false']);
    tf?.dispose();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('GIVEN a policy WHEN applied, run by the CLI from a timer, and due again THEN each backup is taken once and the plan says when one is due', () => {
  tf.apply();
  expect(backupsOnDisk()).toEqual(['0001-full']);
  expect(tf.resource('virtseed_backup_policy.vm')).toMatchObject({ latest: '0001-full', backups: ['0001-full'] });
  expect(tf.plan()).toMatchObject({ code: 0 });

  // The timer's command, as docs/backups.md shows it.
  const cli = spawnSync(BIN, ['backup', 'create', '--uri', 'qemu:///system', '--dir', dir, PREFIX], { encoding: 'utf8', timeout: 300_000 });
  expect({ status: cli.status, out: `${cli.stdout}${cli.stderr}` }).toEqual({
    status: 0,
    out: expect.stringContaining('0002-incremental'),
  });
  expect(tf.plan()).toMatchObject({ code: 0 });
  tf.ok(['apply', '-refresh-only', '-auto-approve', '-input=false']);
  expect(tf.resource('virtseed_backup_policy.vm')).toMatchObject({
    latest: '0002-incremental',
    backups: ['0001-full', '0002-incremental'],
  });

  // The latest backup is two days old: due.
  const manifest = path.join(dir, PREFIX, '0002-incremental', 'manifest.json');
  const old = new Date(Date.now() - 2 * 86_400_000).toISOString();
  fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace(/"takenAt": "[^"]+"/, `"takenAt": "${old}"`));
  const due = tf.plan();
  const flat = due.out.replace(/\s+/g, ' ');
  expect({ code: due.code, out: flat }).toEqual({ code: 2, out: expect.stringContaining(`Warning: Backup of ${PREFIX} due`) });
  expect(flat).toContain(`The latest backup of ${PREFIX}, 0002-incremental, was taken ${old}, 2 d ago: more than max_age (3600 s).`);
  tf.apply();
  expect(backupsOnDisk()).toEqual(['0001-full', '0002-incremental', '0003-incremental']);
  expect(tf.resource('virtseed_backup_policy.vm')).toMatchObject({ latest: '0003-incremental' });
  expect(tf.plan()).toMatchObject({ code: 0 });
});

test('GIVEN keep = 0 WHEN planned THEN the plan fails on keep; WHEN destroyed THEN the backups stay', () => {
  write(0);
  const bad = tf.plan();
  expect({ code: bad.code, out: bad.out.replace(/\s+/g, ' ') }).toEqual({
    code: 1,
    out: expect.stringContaining('keep is 0; expected a whole number of backups, at least 1.'),
  });
  expect(bad.out).toMatch(/keep += 0/);
  write();
  tf.destroy();
  expect(backupsOnDisk()).toEqual(['0001-full', '0002-incremental', '0003-incremental']);
});
