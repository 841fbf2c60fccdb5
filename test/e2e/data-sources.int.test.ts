/**
 * The data sources through real Terraform against the real libvirtd: what virtseed_host, virtseed_pool,
 * virtseed_network, virtseed_volume and virtseed_domain read equals what virsh says (nodeinfo, version, hostname,
 * freecell, domcapabilities; pool-info; net-info; vol-info; dominfo), for objects the test makes with virsh (a dir
 * pool with a volume, an isolated network, a domain defined but never started) and for the host's own `default`
 * pool. A name the host does not have fails the plan on that attribute, listing what there is. Objects are named
 * `vstest-surface-ds-…`. Host memory can change while the test runs: memory figures are checked against virsh
 * readings taken before and after Terraform's.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cleanupByPrefix } from '../helpers/guest';
import { cleanupNetworksByPrefix } from '../helpers/network';
import { cleanupPoolsByPrefix, poolInfo, testPoolDir, virshOk } from '../helpers/pool';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(600_000);

const PREFIX = 'vstest-surface-ds';
const POOL = `${PREFIX}-pool`;
const VOL = `${PREFIX}-vol.qcow2`;
const NET = `${PREFIX}-net`;
const DOM = `${PREFIX}-dom`;
const MAC = '52:54:00:5d:50:01';

let tf: TfWorkdir | undefined;
/** Terraform's outputs: each data source's whole value. */
let outputs: Record<string, Record<string, unknown>> = {};
const before: Record<string, number> = {};
const after: Record<string, number> = {};
/** `virsh pool-info --bytes default` before and after Terraform's read (other tests write into that pool). */
const defaultPool: Record<string, string>[] = [];

/** `virsh CMD` output as key → value, from `Key: value` lines. */
function keyed(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([^:]+):\s*(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

/** The host's figures that can change from one moment to the next, as virsh reports them now: memory and free
 *  memory in MiB, and the CPU frequency in MHz (which the kernel may report differently at each read). */
function hostNow(): { total: number; free: number; mhz: number } {
  const node = keyed(virshOk('nodeinfo'));
  const total = Math.floor(Number(node['Memory size']!.replace(/ KiB$/, '')) / 1024);
  const free = Math.floor(Number(/Total:\s+(\d+) KiB/.exec(virshOk('freecell', '--all'))![1]) / 1024);
  return { total, free, mhz: Number(node['CPU frequency']!.replace(/ MHz$/, '')) };
}

function withTmpXml(name: string, xml: string, fn: (file: string) => void): void {
  const file = path.join(os.tmpdir(), `${name}.xml`);
  fs.writeFileSync(file, xml);
  try {
    fn(file);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function cleanup(): void {
  cleanupByPrefix(PREFIX);
  cleanupNetworksByPrefix(PREFIX);
  cleanupPoolsByPrefix(PREFIX);
}

const CONFIG = `
data "virtseed_host" "this" {}
data "virtseed_pool" "p" {
  name = "${POOL}"
}
data "virtseed_pool" "default" {
  name = "default"
}
data "virtseed_network" "n" {
  name = "${NET}"
}
data "virtseed_volume" "v" {
  pool = data.virtseed_pool.p.name
  name = "${VOL}"
}
data "virtseed_domain" "d" {
  name = "${DOM}"
}
output "host" { value = data.virtseed_host.this }
output "pool" { value = data.virtseed_pool.p }
output "default_pool" { value = data.virtseed_pool.default }
output "network" { value = data.virtseed_network.n }
output "volume" { value = data.virtseed_volume.v }
output "domain" { value = data.virtseed_domain.d }
`;

beforeAll(() => {
  cleanup();
  virshOk('pool-define-as', POOL, 'dir', '--target', testPoolDir(POOL));
  virshOk('pool-build', POOL);
  virshOk('pool-start', POOL);
  virshOk('vol-create-as', POOL, VOL, '2M', '--format', 'qcow2');
  withTmpXml(NET, `<network><name>${NET}</name><ip address='10.213.77.1' prefix='24'/></network>`, (f) => virshOk('net-define', f));
  virshOk('net-start', NET);
  const volPath = virshOk('vol-path', '--pool', POOL, VOL).trim();
  withTmpXml(
    DOM,
    `<domain type='qemu'>
  <name>${DOM}</name>
  <memory unit='MiB'>96</memory>
  <vcpu>2</vcpu>
  <os><type arch='x86_64'>hvm</type></os>
  <devices>
    <disk type='volume' device='disk'><driver name='qemu' type='qcow2'/><source pool='${POOL}' volume='${VOL}'/><target dev='vda' bus='virtio'/></disk>
    <disk type='file' device='disk'><driver name='qemu' type='qcow2'/><source file='${volPath}'/><target dev='vdb' bus='virtio'/><readonly/></disk>
    <disk type='file' device='cdrom'><target dev='sda' bus='sata'/><readonly/></disk>
    <interface type='network'><mac address='${MAC}'/><source network='${NET}'/></interface>
  </devices>
</domain>`,
    (f) => virshOk('define', f),
  );
  tf = new TfWorkdir('data-sources');
  tf.write(CONFIG);
  tf.init();
  Object.assign(before, hostNow());
  defaultPool.push(poolInfo('default'));
  tf.apply();
  defaultPool.push(poolInfo('default'));
  Object.assign(after, hostNow());
  outputs = Object.fromEntries(
    Object.entries(JSON.parse(tf.ok(['output', '-json']))).map(([k, v]) => [k, (v as { value: Record<string, unknown> }).value]),
  );
});

afterAll(() => {
  try {
    tf?.dispose();
  } finally {
    cleanup();
  }
});

describe('virtseed_host', () => {
  test('GIVEN the host WHEN read THEN CPUs and topology equal virsh nodeinfo; memory and MHz lie within virsh readings around the read', () => {
    const node = keyed(virshOk('nodeinfo'));
    const host = outputs.host;
    expect({
      arch: host.arch,
      cpus: host.cpus,
      sockets: host.cpu_sockets,
      cores: host.cpu_cores,
      threads: host.cpu_threads,
      cells: host.numa_cells,
    }).toEqual({
      arch: node['CPU model'],
      cpus: Number(node['CPU(s)']),
      sockets: Number(node['CPU socket(s)']),
      cores: Number(node['Core(s) per socket']),
      threads: Number(node['Thread(s) per core']),
      cells: Number(node['NUMA cell(s)']),
    });
    for (const [attr, key, slack] of [
      ['memory_total', 'total', 64],
      ['memory_free', 'free', 64],
      ['cpu_mhz', 'mhz', 0],
    ] as const) {
      const lo = Math.min(before[key]!, after[key]!) - slack;
      const hi = Math.max(before[key]!, after[key]!) + slack;
      const value = host![attr] as number;
      expect({ attr, value, lo, hi, inside: value >= lo && value <= hi }).toEqual({ attr, value, lo, hi, inside: true });
    }
  });

  test('GIVEN the host WHEN read THEN versions, hostname, UUID and CPU model equal virsh version, hostname and capabilities', () => {
    const version = keyed(virshOk('version'));
    const caps = virshOk('capabilities');
    expect(outputs.host).toMatchObject({
      libvirt_version: /libvirt (\S+)/.exec(version['Using library']!)![1],
      qemu_version: /QEMU (\S+)/.exec(version['Running hypervisor']!)![1],
      hostname: virshOk('hostname').trim(),
      id: /<host>\s*<uuid>([^<]+)<\/uuid>/.exec(caps)![1],
      cpu_model: /<host>[\s\S]*?<cpu>[\s\S]*?<model>([^<]+)<\/model>/.exec(caps)![1],
      uri: 'qemu:///system',
    });
  });

  test('GIVEN this host (TCG: nested KVM does not run guests here) WHEN read THEN kvm false, domain type qemu, and the firmware domcapabilities offers', () => {
    const q35 = virshOk('domcapabilities', '--virttype', 'qemu', '--machine', 'q35');
    const efi = /<enum name='firmware'>[\s\S]*?<value>efi<\/value>/.test(virshOk('domcapabilities', '--virttype', 'qemu'));
    expect(outputs.host).toMatchObject({
      kvm: false,
      domain_type: 'qemu',
      firmware: efi ? ['bios', 'efi'] : ['bios'],
      secure_boot: /<enum name='secure'>[\s\S]*?<value>yes<\/value>/.test(q35),
    });
  });
});

/** The pool attributes virsh pool-info --bytes shows, as the data source spells them. */
function poolFacts(name: string, info: Record<string, string>): Record<string, unknown> {
  return {
    name,
    id: info.UUID,
    uuid: info.UUID,
    type: 'dir',
    active: info.State === 'running',
    persistent: info.Persistent === 'yes',
    autostart: info.Autostart === 'yes',
    capacity: Number(info.Capacity),
  };
}

describe('virtseed_pool', () => {
  test('GIVEN the test pool WHEN compared with virsh pool-info --bytes THEN UUID, state, persistence, autostart and sizes agree', () => {
    const info = poolInfo(POOL);
    expect(outputs.pool).toMatchObject({
      ...poolFacts(POOL, info),
      allocation: Number(info.Allocation),
      available: Number(info.Available),
    });
  });

  test("GIVEN the host's default pool WHEN compared with virsh pool-info --bytes THEN they agree, its usage within the readings around the read", () => {
    const [b, a] = defaultPool as [Record<string, string>, Record<string, string>];
    expect(outputs.default_pool).toMatchObject(poolFacts('default', a));
    for (const key of ['Allocation', 'Available'] as const) {
      const value = outputs.default_pool![key.toLowerCase()] as number;
      const lo = Math.min(Number(b[key]), Number(a[key]));
      const hi = Math.max(Number(b[key]), Number(a[key]));
      expect({ key, value, lo, hi, inside: value >= lo && value <= hi }).toEqual({ key, value, lo, hi, inside: true });
    }
  });

  test('GIVEN the test pool WHEN read THEN its path and the one volume in it are listed', () => {
    expect(outputs.pool).toMatchObject({ path: testPoolDir(POOL), volumes: [VOL], source_format: null, source_devices: null });
  });
});

describe('virtseed_network', () => {
  test('GIVEN the isolated network WHEN compared with virsh net-info THEN UUID, state, persistence, autostart, bridge agree, and mode none', () => {
    const info = keyed(virshOk('net-info', NET));
    expect(outputs.network).toMatchObject({
      name: NET,
      id: info.UUID,
      active: info.Active === 'yes',
      persistent: info.Persistent === 'yes',
      autostart: info.Autostart === 'yes',
      bridge: info.Bridge,
      mode: 'none',
      addresses: ['10.213.77.1/24'],
    });
  });
});

describe('virtseed_volume', () => {
  test('GIVEN the volume WHEN compared with virsh vol-info --bytes and vol-path THEN type, sizes, path and format agree', () => {
    const info = keyed(virshOk('vol-info', '--pool', POOL, VOL, '--bytes'));
    const volPath = virshOk('vol-path', '--pool', POOL, VOL).trim();
    expect(outputs.volume).toEqual({
      pool: POOL,
      name: VOL,
      id: volPath,
      path: volPath,
      type: info.Type,
      capacity: Number(info.Capacity!.replace(/ bytes$/, '')),
      allocation: Number(info.Allocation!.replace(/ bytes$/, '')),
      format: 'qcow2',
      backing_volume: null,
      host: null, // read from the provider's default host
    });
  });
});

describe('virtseed_domain', () => {
  test('GIVEN the defined domain WHEN compared with virsh dominfo THEN UUID, state, vCPUs, memory, persistence and autostart agree', () => {
    const info = keyed(virshOk('dominfo', DOM));
    expect(outputs.domain).toMatchObject({
      name: DOM,
      id: info.UUID,
      uuid: info.UUID,
      state: info.State,
      running: false,
      vcpu: Number(info['CPU(s)']),
      memory: Math.floor(Number(info['Max memory']!.replace(/ KiB$/, '')) / 1024),
      persistent: info.Persistent === 'yes',
      autostart: info.Autostart === 'enable',
      type: 'qemu',
      firmware: 'bios',
      secure_boot: false,
      addresses: [],
      ip_address: null,
    });
  });

  test('GIVEN its disks and NIC WHEN read THEN the sources, the MAC and the network are listed in order', () => {
    expect(outputs.domain).toMatchObject({
      disks: [`${POOL}/${VOL}`, virshOk('vol-path', '--pool', POOL, VOL).trim(), ''],
      mac_addresses: [MAC],
      networks: [NET],
    });
  });
});

describe('unknown names', () => {
  test.each([
    ['virtseed_pool', `name = "${PREFIX}-nope"`, 'Storage pool not found', 'name'],
    ['virtseed_network', `name = "${PREFIX}-nope"`, 'Network not found', 'name'],
    ['virtseed_domain', `name = "${PREFIX}-nope"`, 'Domain not found', 'name'],
    ['virtseed_volume', `pool = "${POOL}"\n  name = "${PREFIX}-nope.qcow2"`, 'Volume not found', 'name'],
    ['virtseed_volume', `pool = "${PREFIX}-nope"\n  name = "x"`, 'Storage pool not found', 'pool'],
  ])('GIVEN %s with %s WHEN planned THEN the plan fails with "%s" on %s, listing what the host has', (type, args, summary, attr) => {
    const dir = new TfWorkdir('data-sources-unknown');
    try {
      dir.write(`data "${type}" "x" {\n  ${args}\n}\n`);
      dir.init();
      const r = dir.run(['plan', '-input=false']);
      expect({ code: r.code, summary: r.out.includes(`Error: ${summary}`) }).toEqual({ code: 1, summary: true });
      // Terraform shows the attribute the diagnostic points at: the line of the argument in the data block.
      expect(r.out).toMatch(new RegExp(`with data\\.${type}\\.x,[\\s\\S]*?\\d+:\\s+${attr} += "`));
      expect(r.out).toContain(`${PREFIX}-nope`);
      expect(r.out).toMatch(/There\s+are(:|\s+none\.)/);
    } finally {
      dir.dispose();
    }
  });
});
