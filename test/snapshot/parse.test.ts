import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseDomainXml } from '../../src/domain';
import { hasMemory, parseSnapshotXml, SnapshotXmlParseError } from '../../src/snapshot';

/** Written by libvirt 9.0 (virsh snapshot-dumpxml --security-info) for a shut-off and a running domain. */
const fixture = (name: string): string => fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

describe('parseSnapshotXml', () => {
  it('GIVEN a snapshot of a shut-off domain WHEN parsed THEN it has its name, description, state, time and disks but no memory', () => {
    const info = parseSnapshotXml(fixture('shutoff.xml'));
    expect(info).toMatchObject({
      name: 'off',
      description: 'before <upgrade> & "more"',
      state: 'shutoff',
      creationTime: 1795615015,
      memory: 'no',
      disks: [{ name: 'vda', snapshot: 'internal' }],
    });
    expect(info.parent).toBeUndefined();
    expect(hasMemory(info)).toBe(false);
  });

  it('GIVEN a snapshot of a running domain WHEN parsed THEN it holds the memory and names its parent', () => {
    const info = parseSnapshotXml(fixture('running.xml'));
    expect(info).toMatchObject({ name: 'run', state: 'running', parent: 'off', memory: 'internal' });
    expect(info.description).toBeUndefined();
    expect(hasMemory(info)).toBe(true);
  });

  it('GIVEN the saved domain WHEN read with parseDomainXml THEN its metadata gives the instance-id at snapshot time', () => {
    const domainXml = parseSnapshotXml(fixture('running.xml')).domainXml ?? '';
    expect(parseDomainXml(domainXml).metadata).toEqual({ 'instance-id': 'iid-0123456789abcdef' });
  });

  it('GIVEN a running snapshot with a live and an inactive definition WHEN parsed THEN domainXml is the <domain> element only', () => {
    const domainXml = parseSnapshotXml(fixture('running.xml')).domainXml ?? '';
    expect(domainXml.startsWith('<domain ')).toBe(true);
    expect(domainXml).not.toContain('inactiveDomain');
  });

  it('GIVEN a domain XML WHEN parsed as a snapshot THEN SnapshotXmlParseError names the root', () => {
    expect(() => parseSnapshotXml('<domain type="qemu"><name>x</name></domain>')).toThrow(
      new SnapshotXmlParseError('the root element is not <domainsnapshot>'),
    );
  });

  it('GIVEN an unknown state WHEN parsed THEN SnapshotXmlParseError names the value', () => {
    expect(() =>
      parseSnapshotXml('<domainsnapshot><name>a</name><state>sleeping</state><creationTime>1</creationTime></domainsnapshot>'),
    ).toThrow("<state> is 'sleeping'");
  });
});
