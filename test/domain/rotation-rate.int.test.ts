/**
 * `disk[].rotation_rate` against the real libvirtd (define and dumpxml only, no guest boots): the rendered
 * `<target rotation_rate>` is accepted by libvirt, comes back in its XML, parses back to the spec, and the
 * provider's state of the read-back disk carries it (what drift detection compares). Domain `vstest-rotrate-<pid>`,
 * undefined afterwards.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDomainXml, renderDomainXml, type DomainSpec } from '../../src/domain';
import { diskOptionsState } from '../../provider/src/resources/private/domain-devices';

const URI = 'qemu:///system';
const NAME = `vstest-rotrate-${process.pid}`;
const dir = mkdtempSync(join(tmpdir(), 'vstest-rotrate-'));

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const spec: DomainSpec = {
  name: NAME,
  type: 'qemu',
  memoryMiB: 256,
  vcpu: 1,
  disks: [
    {
      source: { file: `/var/lib/libvirt/images/${NAME}-ssd.qcow2` },
      target: 'sda',
      bus: 'sata',
      device: 'disk',
      format: 'qcow2',
      rotationRate: 1,
    },
    {
      source: { file: `/var/lib/libvirt/images/${NAME}-hdd.qcow2` },
      target: 'sdb',
      bus: 'scsi',
      device: 'disk',
      format: 'qcow2',
      rotationRate: 7200,
    },
  ],
  interfaces: [],
};

afterAll(() => {
  spawnSync('virsh', ['-c', URI, 'undefine', NAME], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
});

describe('disk rotation_rate in libvirtd', () => {
  test('GIVEN a spec with an SSD (1) and a 7200 rpm disk WHEN defined and read back THEN libvirt keeps both and they parse back', () => {
    const file = join(dir, `${NAME}.xml`);
    writeFileSync(file, renderDomainXml(spec));
    virsh('define', file);
    const xml = virsh('dumpxml', NAME);
    expect(xml).toMatch(/<target dev='sda' bus='sata' rotation_rate='1'\/>/);
    expect(xml).toMatch(/<target dev='sdb' bus='scsi' rotation_rate='7200'\/>/);
    const parsed = parseDomainXml(xml);
    expect(parsed.disks.map((d) => d.rotationRate)).toEqual([1, 7200]);
    // What the provider's read puts in state for the disk: a changed rotation_rate outside Terraform is drift.
    expect(parsed.disks.map((d) => diskOptionsState(d).rotation_rate)).toEqual([1, 7200]);
  });
});
