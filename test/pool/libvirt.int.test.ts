/**
 * The pool model against the real tools: every rendered spec passes `virt-xml-validate … storagepool`, and
 * libvirtd 9.0 defines it and `pool-dumpxml --inactive` parses back to the spec completed by withLibvirtDefaults
 * (plus the uuid libvirt assigns). dir, logical and netfs pools are defined, never built or started (no LVM or
 * NFS is needed), and undefined afterwards. Pools are named `vstest-surface-model-<pid>-<n>`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePoolXml, renderPoolXml, withLibvirtDefaults, type PoolSpec } from '../../src/pool';

const URI = 'qemu:///system';
const dir = mkdtempSync(join(tmpdir(), 'vstest-surface-pool-model-'));
const defined: string[] = [];

const SPECS: [string, Omit<PoolSpec, 'name'>][] = [
  ['dir', { type: 'dir', path: '/var/lib/libvirt/images/vstest-surface-model' }],
  ['netfs nfs', { type: 'netfs', path: '/mnt/vstest-surface-nfs', source: { host: 'nfs.example.net', dir: '/srv/images', format: 'nfs' } }],
  ['netfs auto', { type: 'netfs', path: '/mnt/vstest-surface-auto', source: { host: '192.0.2.10', dir: '/export' } }],
  ['netfs cifs', { type: 'netfs', path: '/mnt/vstest-surface-cifs', source: { host: 'smb.example.net', dir: 'images', format: 'cifs' } }],
  ['logical with devices', { type: 'logical', source: { devices: ['/dev/vstest-surface-pv1', '/dev/vstest-surface-pv2'] } }],
  ['logical by volume group', { type: 'logical', source: { name: 'vstest-surface-vg', format: 'lvm2' }, path: '/dev/vstest-surface-vg' }],
];

function spec(i: number): PoolSpec {
  return { name: `vstest-surface-model-${process.pid}-${i}`, ...SPECS[i]![1] };
}

function writeXml(name: string, xml: string): string {
  const file = join(dir, `${name}.xml`);
  writeFileSync(file, xml);
  return file;
}

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

afterAll(() => {
  for (const name of defined) spawnSync('virsh', ['-c', URI, 'pool-undefine', name], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
});

describe('virt-xml-validate storagepool', () => {
  test.each(SPECS.map(([label], i) => [label, i] as const))('GIVEN the %s pool WHEN validated THEN it is valid', (_label, i) => {
    const file = writeXml(`validate-${i}`, renderPoolXml(spec(i)));
    const result = spawnSync('virt-xml-validate', [file, 'storagepool'], { encoding: 'utf8' });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}`.trim() }).toEqual({
      status: 0,
      output: `${file} validates`,
    });
  });
});

describe('libvirtd pool-define + pool-dumpxml', () => {
  test.each(SPECS.map(([label], i) => [label, i] as const))(
    'GIVEN the %s pool defined in libvirtd WHEN its stored XML is parsed THEN the spec comes back as libvirt completes it, not started',
    (_label, i) => {
      const s = spec(i);
      defined.push(s.name);
      execFileSync('virsh', ['-c', URI, 'pool-define', writeXml(s.name, renderPoolXml(s))], { encoding: 'utf8' });
      const parsed = parsePoolXml(virsh('pool-dumpxml', '--inactive', s.name));
      expect(parsed).toStrictEqual({ ...withLibvirtDefaults(s), uuid: parsed.uuid });
      expect(virsh('pool-info', s.name)).toMatch(/State:\s+inactive/);
    },
  );
});
