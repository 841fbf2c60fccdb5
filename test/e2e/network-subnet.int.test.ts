/**
 * A network whose subnet the libvirt host already uses is refused at plan (issue 31 defect 14), with real Terraform
 * and the shared libvirtd (a local URI): the subnet of the host's own first non-loopback IPv4 interface, and the
 * subnet of an active libvirt network (a transient isolated one this test starts with virsh). Nothing is created.
 * Objects are named `vstest-netclash-…`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { TfWorkdir } from '../helpers/terraform';
import { cleanupNetworksByPrefix, networkNames } from '../helpers/network';
import { teardown } from '../helpers/teardown';

jest.setTimeout(300_000);

const PREFIX = 'vstest-netclash';
const OTHER = `${PREFIX}-other`;
let tf: TfWorkdir;

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

function networkHcl(address: string): string {
  return `
resource "virtseed_network" "lab" {
  name = "${PREFIX}-lab"
  mode = "none"
  ip {
    address = "${address}"
  }
}
`;
}

beforeAll(() => {
  cleanupNetworksByPrefix(PREFIX);
  tf = new TfWorkdir('netclash');
  tf.write(networkHcl('10.231.78.1/24'));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, networks: true }));

test("GIVEN a network in the subnet of the host's own interface WHEN planned THEN an error on ip[0].address names the interface and nothing is created", () => {
  const iface = Object.entries(os.networkInterfaces())
    .flatMap(([name, list]) =>
      (list ?? []).filter((a) => a.family === 'IPv4' && !a.internal && !name.startsWith('virbr')).map((a) => ({ name, a })),
    )
    .find(() => true);
  if (!iface) throw new Error('this host has no non-loopback IPv4 interface to test with');
  const prefix = Number(iface.a.cidr?.split('/')[1]);
  tf.write(networkHcl(`${iface.a.address}/${prefix}`));
  const plan = tf.plan();
  const out = plan.out.replace(/\s+/g, ' ');
  expect({ code: plan.code, out }).toEqual({ code: 1, out: expect.stringContaining('Error: Subnet already in use on the host') });
  expect(out).toContain(`of interface ${iface.name} on the libvirt host`);
  expect(out).toMatch(/with virtseed_network\.lab/);
  expect(networkNames(PREFIX)).toEqual([]);
});

test('GIVEN a network inside the subnet of an active libvirt network WHEN planned THEN the error names that network; a free subnet plans', () => {
  const file = path.join(tf.dir, 'other.xml');
  fs.writeFileSync(file, `<network><name>${OTHER}</name><ip address='10.231.77.1' prefix='24'/></network>`);
  virsh('net-create', file);
  tf.write(networkHcl('10.231.77.129/25'));
  const plan = tf.plan();
  const out = plan.out.replace(/\s+/g, ' ');
  expect({ code: plan.code, out }).toEqual({
    code: 1,
    out: expect.stringContaining(`10.231.77.129/25 overlaps 10.231.77.1/24 of libvirt network ${OTHER}`),
  });
  tf.write(networkHcl('10.231.78.1/24'));
  const free = tf.plan();
  expect({ code: free.code, out: free.out }).toEqual({ code: 2, out: expect.stringContaining('Plan: 1 to add') });
});
