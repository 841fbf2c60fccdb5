/** parsePoolXml (src/pool/parse.ts): reading back what libvirt stores (round trip through renderPoolXml). */
import { parsePoolXml, PoolXmlParseError, renderPoolXml, withLibvirtDefaults } from '../../src/pool';
import { DIR, LOGICAL, NETFS } from './fixtures/specs';

describe('parsePoolXml', () => {
  it.each([DIR, NETFS, LOGICAL])('GIVEN the XML of %o WHEN parsed THEN the spec comes back, completed as libvirt does', (spec) => {
    expect(parsePoolXml(renderPoolXml(spec))).toEqual(withLibvirtDefaults(spec));
  });

  it("GIVEN libvirt's stored XML of a logical pool WHEN parsed THEN uuid, volume group and /dev path are read and sizes ignored", () => {
    const xml = `<pool type='logical'>
  <name>vstest-l</name>
  <uuid>0926e3cd-f429-48a0-826b-d2afc8813ee1</uuid>
  <capacity unit='bytes'>0</capacity>
  <allocation unit='bytes'>0</allocation>
  <available unit='bytes'>0</available>
  <source>
    <device path='/dev/sdb'/>
    <name>vstest-l</name>
    <format type='lvm2'/>
  </source>
  <target>
    <path>/dev/vstest-l</path>
  </target>
</pool>`;
    expect(parsePoolXml(xml)).toEqual({
      name: 'vstest-l',
      uuid: '0926e3cd-f429-48a0-826b-d2afc8813ee1',
      type: 'logical',
      path: '/dev/vstest-l',
      source: { devices: ['/dev/sdb'], name: 'vstest-l', format: 'lvm2' },
    });
  });

  it('GIVEN an iscsi pool WHEN parsed THEN PoolXmlParseError names the type', () => {
    expect(() => parsePoolXml("<pool type='iscsi'><name>x</name></pool>")).toThrow(PoolXmlParseError);
    expect(() => parsePoolXml("<pool type='iscsi'><name>x</name></pool>")).toThrow(/"iscsi"/);
  });

  it('GIVEN a document that is not a pool WHEN parsed THEN PoolXmlParseError', () => {
    expect(() => parsePoolXml('<network/>')).toThrow(/not <pool>/);
  });
});
