/**
 * `virtseed snapshot list|revert` run as a process (bin/virtseed, the built bundle) against qemu:///system, on a
 * domain that boots nothing (an empty qcow2 disk and a 4 KiB stand-in seed): list as text and JSON, a revert that
 * writes the seed copy back and starts the domain, and the exit codes of a missing domain or snapshot.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { connect, type DomRef, type RemoteLibvirtClient, type VolRef } from '../../src/libvirt';
import { takeSnapshot } from '../../src/ops/snapshots';
import { cleanupByPrefix } from '../helpers/guest';

jest.setTimeout(120_000);

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'virtseed');
const PREFIX = 'vstest-snap-cli';
const DOMAIN = `${PREFIX}-vm`;

function virtseed(...args: string[]): { code: number | null; stdout: string; stderr: string; text: string } {
  const r = spawnSync(BIN, args, { encoding: 'utf8', timeout: 60_000 });
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    text: `\`virtseed ${args.join(' ')}\` exited ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
  };
}

let client: RemoteLibvirtClient;
let dom: DomRef;
let seed: VolRef;

const seedText = async (): Promise<string> =>
  Buffer.from(await client.storageVolDownload(seed))
    .toString()
    .replace(/\0+$/, '');
const writeSeed = (text: string): Promise<void> => client.storageVolUpload(seed, Buffer.from(text.padEnd(4096, '\0')), 0, 4096);

beforeAll(async () => {
  cleanupByPrefix(PREFIX);
  client = await connect('qemu:///system');
  const pool = await client.storagePoolLookupByName('default');
  await client.storageVolCreateXml(
    pool,
    `<volume><name>${DOMAIN}.qcow2</name><capacity unit='MiB'>16</capacity><target><format type='qcow2'/></target></volume>`,
  );
  seed = await client.storageVolCreateXml(
    pool,
    `<volume><name>${PREFIX}-seed.iso</name><capacity unit='bytes'>4096</capacity><target><format type='raw'/></target></volume>`,
  );
  await writeSeed('seed of iid-one');
  dom = await client.domainDefineXml(`<domain type='qemu'><name>${DOMAIN}</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
  <metadata><virtseed:instance xmlns:virtseed="https://virtseed.dev/xmlns/domain/1"><virtseed:entry key="instance-id">iid-one</virtseed:entry></virtseed:instance></metadata>
  <os><type arch='x86_64' machine='pc'>hvm</type><boot dev='hd'/></os><devices>
  <disk type='volume' device='disk'><driver name='qemu' type='qcow2'/><source pool='default' volume='${DOMAIN}.qcow2'/><target dev='vda' bus='virtio'/></disk>
  <disk type='volume' device='cdrom'><driver name='qemu' type='raw'/><source pool='default' volume='${PREFIX}-seed.iso'/><target dev='sda' bus='sata'/><readonly/></disk>
  </devices></domain>`);
  await takeSnapshot(client, dom, { name: 'before', description: 'before the change' });
});

afterAll(async () => {
  await client?.close();
  cleanupByPrefix(PREFIX);
});

test('GIVEN a domain with a snapshot WHEN listed THEN a line names it, its state, instance-id and description', () => {
  const r = virtseed('snapshot', 'list', DOMAIN);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^before\t\d{4}-\d\d-\d\dT[\d:.]+Z\tshutoff\tiid-one\tbefore the change\n$/);
});

test('GIVEN a domain with a snapshot WHEN listed with --json THEN the array holds its fields', () => {
  const r = virtseed('snapshot', 'list', '--json', '--uri', 'qemu:///system', DOMAIN);
  expect(JSON.parse(r.stdout)).toEqual([
    expect.objectContaining({ name: 'before', state: 'shutoff', memory: false, instance_id: 'iid-one', parent: null }),
  ]);
});

test('GIVEN the seed rewritten since the snapshot WHEN reverted with --start THEN the seed is restored and the domain runs', async () => {
  await writeSeed('seed of iid-two');
  const r = virtseed('snapshot', 'revert', '--start', DOMAIN, 'before');
  if (r.code !== 0) throw new Error(r.text);
  expect(r.stdout).toContain(`domain ${DOMAIN}: reverted to snapshot before (shutoff, instance-id iid-one)`);
  expect(r.stdout).toContain(`seed volume default/${PREFIX}-seed.iso: its content at the snapshot written back`);
  expect(r.stdout).toContain(`domain ${DOMAIN} is running`);
  expect(await seedText()).toBe('seed of iid-one');
  expect(await client.domainIsActive(dom)).toBe(true);
});

test('GIVEN no such snapshot WHEN reverted THEN it exits 2 naming the list command', () => {
  const r = virtseed('snapshot', 'revert', DOMAIN, 'never');
  expect([r.code, r.stderr]).toEqual([2, expect.stringContaining(`has no snapshot never (virtseed snapshot list ${DOMAIN})`)]);
});

test('GIVEN no such domain WHEN listed THEN it exits 2 naming the URI', () => {
  const r = virtseed('snapshot', 'list', `${PREFIX}-missing`);
  expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('libvirt at qemu:///system has no domain')]);
});
