/**
 * GitHub issue 12 item 5 "Plan says what apply would find", through real terraform and libvirtd (no guests start):
 * each check fails `terraform plan` with an error on the offending attribute (terraform's `with <address>,` line and
 * the attribute's config line) that names the resource and the fix, and nothing is created:
 * - a storage pool that does not exist (virtseed_volume, virtseed_cloudinit_seed, virtseed_ignition `pool`);
 * - a network a domain's NIC names that does not exist;
 * - a local base-image file (virtseed_volume `source`) that does not exist, also when `format` is given;
 * - a volume or domain name that already exists on the host and is not in state.
 * And an unreachable libvirtd: plan warns once naming the URI, apply fails naming the URI and what to check.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cleanupByPrefix, domainExists, virshRun, volumeNames } from '../helpers/guest';
import { networkNames } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { PROVIDER_BLOCK, TfWorkdir } from '../helpers/terraform';

const PREFIX = 'vstest-hp-';

jest.setTimeout(300_000);

/** 1-based line in main.tf (provider block + body) of the first line containing `needle`. */
function lineOf(body: string, needle: string): number {
  const i = (PROVIDER_BLOCK + body).split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`no ${needle}`);
  return i + 1;
}

describe('plan-time checks against the host, with nothing created', () => {
  let tf: TfWorkdir;

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('host-plan');
    tf.write('');
    tf.init();
  });

  afterAll(() => teardown({ tf, prefix: PREFIX }));

  /** Plans `body`; expects exit 1 with `summary`, the pointer at `address`'s line holding `needle`, and `detail`. */
  function expectPlanError(body: string, address: string, summary: string, needle: string, detail: RegExp): void {
    tf.write(body);
    const r = tf.plan();
    expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: expect.stringContaining(`Error: ${summary}`) });
    expect(r.out).toContain(`with ${address},`);
    const [type, name] = address.split('.');
    expect(r.out).toContain(`on main.tf line ${lineOf(body, needle)}, in resource "${type}" "${name}"`);
    expect(r.out.replace(/\s+/g, ' ')).toMatch(detail);
    expect(r.out).not.toMatch(/ResourceChange|ReadResource/);
    expect({ volumes: volumeNames(PREFIX), domain: domainExists(`${PREFIX}vm`), networks: networkNames(PREFIX) }).toEqual({
      volumes: [],
      domain: false,
      networks: [],
    });
  }

  test('GIVEN a volume in a pool the host does not have WHEN planned THEN the error is on pool with how to create one', () => {
    const body = `resource "virtseed_volume" "v" {\n  pool     = "${PREFIX}nopool"\n  name     = "${PREFIX}v.qcow2"\n  capacity = 1048576\n}\n`;
    expectPlanError(
      body,
      'virtseed_volume.v',
      'Storage pool not found',
      'pool',
      /Volume vstest-hp-nopool\/vstest-hp-v\.qcow2: libvirt has no storage pool named vstest-hp-nopool\. .*virsh pool-list --all.*virtseed_pool/,
    );
  });

  test('GIVEN a seed in a pool the host does not have WHEN planned THEN the error is on pool', () => {
    const body = `resource "virtseed_cloudinit_seed" "s" {\n  pool     = "${PREFIX}nopool"\n  name     = "${PREFIX}s.iso"\n  hostname = "h"\n}\n`;
    expectPlanError(
      body,
      'virtseed_cloudinit_seed.s',
      'Storage pool not found',
      'pool',
      /Seed vstest-hp-nopool\/vstest-hp-s\.iso: libvirt has no storage pool/,
    );
  });

  test('GIVEN an Ignition config in a pool the host does not have WHEN planned THEN the error is on pool', () => {
    const body = `resource "virtseed_ignition" "i" {\n  pool    = "${PREFIX}nopool"\n  name    = "${PREFIX}i.ign"\n  content = jsonencode({ ignition = { version = "3.3.0" } })\n}\n`;
    expectPlanError(
      body,
      'virtseed_ignition.i',
      'Storage pool not found',
      'pool',
      /Ignition config vstest-hp-nopool\/vstest-hp-i\.ign: libvirt has no storage pool/,
    );
  });

  test("GIVEN a domain NIC on a network the host does not have WHEN planned THEN the error is on that NIC's network", () => {
    const body = `resource "virtseed_domain" "d" {\n  name    = "${PREFIX}vm"\n  memory  = 128\n  running = false\n  network_interface { user = true }\n  network_interface { network = "${PREFIX}nonet" }\n}\n`;
    expectPlanError(
      body,
      'virtseed_domain.d',
      'Network not found',
      `"${PREFIX}nonet"`,
      /Domain vstest-hp-vm: libvirt has no network named "vstest-hp-nonet" .*virsh net-list --all/,
    );
  });

  test('GIVEN a volume whose local source file does not exist, format given WHEN planned THEN the error is on source', () => {
    const body = `resource "virtseed_volume" "v" {\n  pool   = "default"\n  name   = "${PREFIX}v.qcow2"\n  format = "qcow2"\n  source = "/nonexistent/${PREFIX}base.qcow2"\n}\n`;
    expectPlanError(
      body,
      'virtseed_volume.v',
      'Cannot read source',
      'source = "/nonexistent',
      /Volume default\/vstest-hp-v\.qcow2: cannot read \/nonexistent\/vstest-hp-base\.qcow2: ENOENT\. .*Check the path/,
    );
  });

  test('GIVEN a volume name another volume of the pool has WHEN planned THEN the error is on name with import as the fix', () => {
    virshRun('vol-create-as', 'default', `${PREFIX}taken.qcow2`, '1M', '--format', 'qcow2');
    try {
      expect(volumeNames(PREFIX)).toEqual([`${PREFIX}taken.qcow2`]);
      const body = `resource "virtseed_volume" "v" {\n  pool     = "default"\n  name     = "${PREFIX}taken.qcow2"\n  capacity = 1048576\n}\n`;
      tf.write(body);
      const r = tf.plan();
      expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: expect.stringContaining('Error: Volume exists already') });
      expect(r.out).toContain(`on main.tf line ${lineOf(body, 'name')}, in resource "virtseed_volume" "v"`);
      expect(r.out).toMatch(/terraform import <address> default\/vstest-hp-taken\.qcow2/);
    } finally {
      virshRun('vol-delete', `${PREFIX}taken.qcow2`, '--pool', 'default');
    }
  });

  test('GIVEN a domain name libvirt already has WHEN planned THEN the error is on name and the other domain is untouched', () => {
    const xml = path.join(tf.dir, 'other.xml');
    fs.writeFileSync(
      xml,
      `<domain type='qemu'><name>${PREFIX}vm</name><memory unit='MiB'>64</memory><os><type arch='x86_64'>hvm</type></os></domain>`,
    );
    virshRun('define', xml);
    try {
      const uuid = virshRun('domuuid', `${PREFIX}vm`).trim();
      expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
      const body = `resource "virtseed_domain" "d" {\n  name    = "${PREFIX}vm"\n  memory  = 128\n  running = false\n}\n`;
      tf.write(body);
      const r = tf.plan();
      expect({ code: r.code, out: r.out }).toEqual({ code: 1, out: expect.stringContaining('Error: Domain exists already') });
      expect(r.out).toContain(`on main.tf line ${lineOf(body, 'name')}, in resource "virtseed_domain" "d"`);
      expect(r.out.replace(/\s+/g, ' ')).toContain(`UUID ${uuid}`);
      expect(virshRun('domuuid', `${PREFIX}vm`).trim()).toBe(uuid);
    } finally {
      virshRun('undefine', `${PREFIX}vm`);
    }
  });
});

describe('an unreachable libvirtd', () => {
  let tf: TfWorkdir;
  const uri = `qemu+unix:///system?socket=/nonexistent/${PREFIX}libvirt-sock`;
  const body = `resource "virtseed_volume" "v" {\n  pool     = "default"\n  name     = "${PREFIX}unreach.qcow2"\n  capacity = 1048576\n}\n`;

  beforeAll(() => {
    tf = new TfWorkdir('host-unreachable');
    fs.writeFileSync(
      path.join(tf.dir, 'main.tf'),
      PROVIDER_BLOCK.replace('provider "virtseed" {}', `provider "virtseed" {\n  uri = "${uri}"\n}`) + body,
    );
    tf.init();
  });

  afterAll(() => {
    fs.rmSync(tf.dir, { recursive: true, force: true }); // nothing to destroy: the host was never reached
    cleanupByPrefix(PREFIX);
  });

  test('GIVEN libvirtd not at the URI WHEN planned THEN the plan succeeds with one warning naming the URI', () => {
    const r = tf.plan();
    expect({ code: r.code, out: r.out }).toEqual({
      code: 2,
      out: expect.stringContaining(`Warning: Plan not checked against libvirt at ${uri}`),
    });
    expect(r.out.match(/Warning: Plan not checked/g)).toHaveLength(1);
  });

  test('GIVEN libvirtd not at the URI WHEN applied THEN the error names the URI, the reason and what to check, never an RPC', () => {
    const r = tf.run(['apply', '-auto-approve', '-input=false']);
    const out = r.out.replace(/\s+/g, ' ');
    expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining(`Error: Cannot connect to libvirt at ${uri}`) });
    expect(out).toMatch(/\(step: connect\): socket \/nonexistent\/vstest-hp-libvirt-sock: connect ENOENT .*\. Fix: start libvirtd/);
    expect(out).not.toMatch(/ResourceChange|virtseed: /);
    expect(volumeNames(PREFIX)).toEqual([]);
  });
});
