/**
 * virtseed_network with real Terraform and libvirtd (no guests): create, in-place static DHCP/DNS host changes
 * through virNetworkUpdate (same UUID, live and persistent), replacement on a mode change (the plan says which
 * attribute forces it), drift made with virsh, deletion outside Terraform, import by name and by UUID, and
 * nat/route/open/bridge networks defined and started. Networks are named `vstest-net-tf-…`.
 */
import { spawnSync } from 'node:child_process';
import { plannedChange, stringValue, TfWorkdir } from '../helpers/terraform';
import { expectPlanEmpty } from '../helpers/steps';
import { cleanupNetworksByPrefix, networkNames } from '../helpers/network';
import { teardown } from '../helpers/teardown';

jest.setTimeout(600_000);

const PREFIX = 'vstest-net-tf';
const NAME = `${PREFIX}-lan`;

let tf: TfWorkdir;

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

function config(opts: { mode?: string; hosts?: string[]; dns?: boolean } = {}): string {
  const hosts = (opts.hosts ?? ['52:54:00:21:30:01'])
    .map(
      (mac, i) => `
  dhcp_host {
    mac      = "${mac}"
    hostname = "vm${i + 1}"
    ip       = "10.213.30.${10 + i}"
  }`,
    )
    .join('');
  return `
resource "virtseed_network" "lan" {
  name   = "${NAME}"
  ${opts.mode ? `mode = "${opts.mode}"` : ''}
  domain = "lan.test"
  ip {
    address = "10.213.30.1/24"
    dhcp_range {
      start = "10.213.30.100"
      end   = "10.213.30.150"
    }
  }
  ip {
    address = "fd00:213:30::1/64"
  }${hosts}
${
  opts.dns === false
    ? ''
    : `  dns_host {
    ip        = "10.213.30.20"
    hostnames = ["db"]
  }`
}
}
output "bridge" { value = virtseed_network.lan.bridge }
`;
}

beforeAll(() => {
  cleanupNetworksByPrefix(PREFIX);
  tf = new TfWorkdir('network');
  tf.write(config());
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, networks: true }));

let uuid: string;

test('GIVEN an isolated network with DHCP, a static host and a DNS host WHEN applied THEN libvirt runs it as written, autostarted, and a second plan is empty', () => {
  tf.apply();
  const state = tf.resource('virtseed_network.lan');
  uuid = stringValue(state, 'id');
  expect(virsh('net-uuid', NAME).trim()).toBe(uuid);
  expect(state.mode).toBe('none');
  expect(state.bridge).toMatch(/^virbr\d+$/);
  const info = virsh('net-info', NAME);
  expect(info).toMatch(/Active:\s+yes/);
  expect(info).toMatch(/Autostart:\s+yes/);
  const xml = virsh('net-dumpxml', NAME);
  expect(xml).not.toContain('<forward');
  expect(xml).toContain("<host mac='52:54:00:21:30:01' name='vm1' ip='10.213.30.10'/>");
  expect(xml).toContain('<hostname>db</hostname>');
  expect(xml).toContain("<domain name='lan.test' localOnly='yes'/>");
  expectPlanEmpty(tf);
});

test('GIVEN a second static DHCP host and no DNS host WHEN planned and applied THEN it is an in-place update of the running network (same UUID)', () => {
  tf.write(config({ hosts: ['52:54:00:21:30:01', '52:54:00:21:30:02'], dns: false }));
  const plan = tf.planJson();
  const c = plannedChange(plan, 'virtseed_network.lan');
  expect(c.actions).toEqual(['update']);
  tf.apply();
  expect(virsh('net-uuid', NAME).trim()).toBe(uuid);
  for (const xml of [virsh('net-dumpxml', NAME), virsh('net-dumpxml', '--inactive', NAME)]) {
    expect(xml).toContain("<host mac='52:54:00:21:30:02' name='vm2' ip='10.213.30.11'/>");
    expect(xml).not.toContain('<hostname>db</hostname>');
  }
  expectPlanEmpty(tf);
});

test('GIVEN a static host added with virsh WHEN planned THEN the drift shows as an in-place update that removes it', () => {
  virsh('net-update', NAME, 'add', 'ip-dhcp-host', "<host mac='52:54:00:21:30:99' ip='10.213.30.99'/>", '--live', '--config');
  const r = tf.plan();
  expect(r.code).toBe(2);
  expect(r.out).toContain('update in-place');
  expect(r.out).toContain('10.213.30.99');
  tf.apply();
  expect(virsh('net-dumpxml', '--inactive', NAME)).not.toContain('10.213.30.99');
  expectPlanEmpty(tf);
});

test('GIVEN mode nat WHEN planned THEN mode forces replacement; applied THEN a new network forwards with NAT', () => {
  tf.write(config({ mode: 'nat', hosts: ['52:54:00:21:30:01', '52:54:00:21:30:02'], dns: false }));
  const plan = tf.planJson();
  const c = plannedChange(plan, 'virtseed_network.lan');
  expect(c.actions).toEqual(['delete', 'create']);
  expect(c.replace_paths).toEqual([['mode']]);
  tf.apply();
  const newUuid = virsh('net-uuid', NAME).trim();
  expect(newUuid).not.toBe(uuid);
  expect(virsh('net-dumpxml', NAME)).toContain("<forward mode='nat'");
  uuid = newUuid;
  expectPlanEmpty(tf);
});

test('GIVEN the network removed with virsh WHEN planned THEN it is created again', () => {
  virsh('net-destroy', NAME);
  virsh('net-undefine', NAME);
  const plan = tf.planJson();
  expect(plannedChange(plan, 'virtseed_network.lan').actions).toEqual(['create']);
  tf.apply();
  expect(networkNames(NAME)).toEqual([NAME]);
  expectPlanEmpty(tf);
});

test('GIVEN the network WHEN imported by name and by UUID into new state THEN a plan with the same config is empty', () => {
  const id = virsh('net-uuid', NAME).trim();
  for (const ref of [NAME, id]) {
    const other = new TfWorkdir('network-import');
    try {
      other.write(config({ mode: 'nat', hosts: ['52:54:00:21:30:01', '52:54:00:21:30:02'], dns: false }));
      other.init();
      other.ok(['import', '-input=false', 'virtseed_network.lan', ref]);
      expect(other.resource('virtseed_network.lan').id).toBe(id);
      expectPlanEmpty(other);
    } finally {
      other.ok(['state', 'rm', 'virtseed_network.lan']);
      other.dispose();
    }
  }
});

test('GIVEN route, open and bridge networks WHEN applied THEN each is defined and started with its forward mode (no guests on them)', () => {
  const other = new TfWorkdir('network-modes');
  try {
    other.write(`
resource "virtseed_network" "route" {
  name        = "${PREFIX}-route"
  mode        = "route"
  forward_dev = "lo"
  autostart   = false
  ip { address = "10.213.31.1/24" }
}
resource "virtseed_network" "open" {
  name      = "${PREFIX}-open"
  mode      = "open"
  bridge    = "vsbr-tf-open"
  autostart = false
  ip { address = "10.213.32.1/24" }
}
resource "virtseed_network" "bridge" {
  name      = "${PREFIX}-bridge"
  mode      = "bridge"
  bridge    = "vsbr-tf-none0"
  autostart = false
}
`);
    other.init();
    other.apply();
    expect(virsh('net-dumpxml', `${PREFIX}-route`)).toContain("<forward dev='lo' mode='route'");
    expect(virsh('net-dumpxml', `${PREFIX}-open`)).toContain("<forward mode='open'/>");
    expect(virsh('net-dumpxml', `${PREFIX}-bridge`)).toContain("<forward mode='bridge'/>");
    expect(virsh('net-info', `${PREFIX}-bridge`)).toMatch(/Autostart:\s+no/);
    expectPlanEmpty(other);
    other.destroy();
    expect(networkNames(`${PREFIX}-`).filter((n) => n !== NAME)).toEqual([]);
  } finally {
    other.dispose();
  }
});

test('GIVEN a new network named like an existing one WHEN planned THEN the plan fails on name and nothing is created', () => {
  const other = new TfWorkdir('network-clash');
  try {
    other.write(`resource "virtseed_network" "dup" {\n  name = "${NAME}"\n}\n`);
    other.init();
    const r = other.plan();
    expect(r.code).toBe(1);
    expect(r.out).toContain('Network exists already');
    expect(r.out.replace(/\s+/g, ' ')).toContain(`terraform import <address> ${NAME}`);
    expect(r.out).toMatch(/with virtseed_network\.dup,[\s\S]*name = /);
  } finally {
    other.dispose();
  }
});

test('GIVEN the network WHEN destroyed THEN libvirt has no such network', () => {
  tf.destroy();
  expect(networkNames(NAME)).toEqual([]);
});
