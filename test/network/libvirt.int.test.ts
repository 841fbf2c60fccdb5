/**
 * The network model against the real tools: every rendered table spec passes `virt-xml-validate … network`, and
 * libvirtd 9.0 defines it and `net-dumpxml` parses back to the spec (plus what libvirt adds: uuid, bridge name).
 * Networks are named `vstest-net-model-<pid>-<n>`, defined but never started, and undefined afterwards.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNetworkXml, renderNetworkXml, type NetworkSpec } from '../../src/network';
import { specTable } from './fixtures/specs';

const URI = 'qemu:///system';
const dir = mkdtempSync(join(tmpdir(), 'vstest-net-model-'));
const defined: string[] = [];

function writeXml(name: string, xml: string): string {
  const file = join(dir, `${name}.xml`);
  writeFileSync(file, xml);
  return file;
}

afterAll(() => {
  for (const name of defined) spawnSync('virsh', ['-c', URI, 'net-undefine', name], { encoding: 'utf8' });
  rmSync(dir, { recursive: true, force: true });
});

describe('virt-xml-validate', () => {
  test('GIVEN the validator WHEN looked up THEN xmllint is installed (libxml2-utils)', () => {
    expect(spawnSync('xmllint', ['--version']).status).toBe(0);
  });

  test.each(specTable)('GIVEN the rendered spec "%s" WHEN validated against the network schema THEN it is valid', (name, spec) => {
    const file = writeXml(`validate-${specTable.findIndex(([n]) => n === name)}`, renderNetworkXml(spec));
    const result = spawnSync('virt-xml-validate', [file, 'network'], { encoding: 'utf8' });
    expect({ status: result.status, output: result.stderr.trim() }).toEqual({ status: 0, output: `${file} validates` });
  });
});

describe('libvirtd net-define + net-dumpxml', () => {
  test.each(
    specTable.map(([name, spec], i): [string, NetworkSpec] => [
      name,
      { ...spec, name: `vstest-net-model-${process.pid}-${i}`, uuid: undefined },
    ]),
  )(
    'GIVEN the spec "%s" defined in libvirtd WHEN its net-dumpxml is parsed THEN the spec comes back with libvirt defaults',
    (_name, input) => {
      const { uuid: _drop, ...spec } = input;
      defined.push(spec.name);
      execFileSync('virsh', ['-c', URI, 'net-define', writeXml(spec.name, renderNetworkXml(spec))], { encoding: 'utf8' });
      const parsed = parseNetworkXml(execFileSync('virsh', ['-c', URI, 'net-dumpxml', '--inactive', spec.name], { encoding: 'utf8' }));
      expect(parsed).toStrictEqual({
        ...spec,
        uuid: parsed.uuid,
        ...(spec.bridge === undefined && parsed.bridge ? { bridge: parsed.bridge } : {}),
      });
    },
  );
});
