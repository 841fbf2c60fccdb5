/**
 * Ignition's fw_cfg wiring on libvirt versions with and without `<sysinfo type='fwcfg'>` (6.5.0): the domain XML
 * carries the file either as a sysinfo entry or as QEMU's `-fw_cfg`, and reading the XML back finds it either way.
 */
import { parseDomainXml, renderDomainXml } from '../../../src/domain';
import { ignitionFileFromArgs, IGNITION_FW_CFG_KEY, toDomainSpec } from '../../../provider/src/resources/private/domain-state';
import { domainState } from '../fixtures/domain';

const state = domainState({ name: 'vstest-ign', memory: 512, vcpu: 1, type: 'qemu', reprovision: 'reboot' });
const FILE = '/var/lib/libvirt/images/node.ign';

describe('Ignition fw_cfg wiring', () => {
  test('GIVEN libvirt ≥ 6.5 WHEN rendered THEN the config is a sysinfo fwcfg entry', () => {
    const xml = renderDomainXml(toDomainSpec(state, { disks: [], ignitionFile: FILE, fwCfgViaCommandline: false }));
    expect(xml).toMatch(
      /<sysinfo type="fwcfg">\s*<entry name="opt\/com\.coreos\/config" file="\/var\/lib\/libvirt\/images\/node\.ign"\s*\/>/,
    );
    expect(xml).not.toContain('-fw_cfg');
  });

  test('GIVEN libvirt < 6.5 WHEN rendered and parsed back THEN QEMU gets -fw_cfg with the file and the parser finds it', () => {
    const xml = renderDomainXml(toDomainSpec(state, { disks: [], ignitionFile: FILE, fwCfgViaCommandline: true }));
    expect(xml).not.toContain('<sysinfo');
    const args = parseDomainXml(xml).qemuCommandline;
    expect(args).toEqual(['-fw_cfg', `name=${IGNITION_FW_CFG_KEY},file=${FILE}`]);
    expect(ignitionFileFromArgs(args)).toBe(FILE);
  });
});
