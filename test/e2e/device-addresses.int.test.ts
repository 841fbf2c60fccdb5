/**
 * Issue 31 defect 11 through Terraform, without a guest OS: a running domain (no bootable disk: SeaBIOS only) gets
 * a second NIC and a second disk by an apply, attached live at the PCI slots libvirt found free; the domain is then
 * restarted and every NIC (by MAC) and disk (by target) must sit where it sat before (before the fix the new
 * persistent definition had no addresses, so the NIC moved, e.g. 0000:00:08.0 → 0000:00:03.0, and a guest with
 * predictable interface names lost its configuration). Objects are named `vstest-devaddr-…`.
 */
import { spawnSync } from 'node:child_process';
import { cleanupNetworksByPrefix, isolatedNetworkHcl } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(900_000);

const PREFIX = 'vstest-devaddr';
const NAME = `${PREFIX}-vm`;

let tf: TfWorkdir;

function config(second: boolean): string {
  const vol = (n: number) => `
resource "virtseed_volume" "data${n}" {
  pool     = "default"
  name     = "${PREFIX}-data${n}.qcow2"
  capacity = 16777216
}`;
  return `
${isolatedNetworkHcl('net', `${PREFIX}-net`)}
${vol(1)}
${vol(2)}
resource "virtseed_domain" "vm" {
  name             = "${NAME}"
  memory           = 64
  type             = "qemu"
  shutdown_timeout = 0
  disk { volume_id = virtseed_volume.data1.id }
${second ? '  disk { volume_id = virtseed_volume.data2.id }\n' : ''}  network_interface { network = virtseed_network.net.id }
${second ? '  network_interface { network = virtseed_network.net.id }\n' : ''}}
`;
}

/** `virsh` output, failing with it on a non-zero exit. */
function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Each NIC (`mac …`) and disk (`disk vda`) of the domain's XML with its `<address …/>` as libvirt writes it. */
function addresses(xml: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of xml.matchAll(/<(interface|disk)\b[\s\S]*?<\/\1>/g)) {
    const el = m[0];
    const key = m[1] === 'interface' ? `mac ${/<mac address='([^']+)'/.exec(el)?.[1]}` : `disk ${/<target dev='([^']+)'/.exec(el)?.[1]}`;
    out[key] = /<address [^>]*\/>/.exec(el)?.[0] ?? '(none)';
  }
  return out;
}

beforeAll(() => {
  teardown({ tf: undefined, prefix: PREFIX });
  cleanupNetworksByPrefix(PREFIX);
  tf = new TfWorkdir('device-addresses');
  tf.write(config(false));
  tf.init();
});

afterAll(() => {
  teardown({ tf, prefix: PREFIX, destroy: true, also: () => cleanupNetworksByPrefix(PREFIX) });
});

test('GIVEN a NIC and a disk attached live WHEN the domain restarts THEN no NIC or disk changes its address', () => {
  tf.apply();
  const id = virsh('domid', NAME).trim();
  tf.write(config(true));
  const out = tf.apply();
  // Attached live: the same QEMU process (its domain id) runs on.
  expect({ id: virsh('domid', NAME).trim(), out }).toEqual({ id, out: expect.stringMatching(/Modifications complete/) });
  const live = addresses(virsh('dumpxml', NAME));
  expect(Object.keys(live).sort()).toEqual(['disk vda', 'disk vdb', expect.stringMatching(/^mac /), expect.stringMatching(/^mac /)]);
  expect(addresses(virsh('dumpxml', '--inactive', NAME))).toEqual(live);
  virsh('destroy', NAME);
  virsh('start', NAME);
  expect(addresses(virsh('dumpxml', NAME))).toEqual(live);
  // Terraform sees nothing to change after the restart.
  const plan = tf.plan();
  expect({ code: plan.code, out: plan.code === 0 ? '' : plan.out }).toEqual({ code: 0, out: '' });
});
