/** renderPoolXml (src/pool/render.ts): the XML libvirt defines. */
import { ValidationError } from '../../src/diagnostics';
import { renderPoolXml } from '../../src/pool';
import { DIR, LOGICAL, NETFS } from './fixtures/specs';

describe('renderPoolXml', () => {
  it('GIVEN a dir pool WHEN rendered THEN the XML has its type, name and target path and no source', () => {
    expect(renderPoolXml(DIR)).toBe(
      '<pool type="dir">\n  <name>web-images</name>\n  <target>\n    <path>/var/lib/libvirt/images/web-images</path>\n  </target>\n</pool>\n',
    );
  });

  it('GIVEN a netfs pool WHEN rendered THEN the source holds host, dir and format', () => {
    expect(renderPoolXml(NETFS)).toContain(
      '<source>\n    <host name="nfs.example.net"/>\n    <dir path="/srv/images"/>\n    <format type="nfs"/>\n  </source>',
    );
  });

  it('GIVEN a logical pool WHEN rendered THEN each device is a <device> and the volume group is <name>', () => {
    expect(renderPoolXml(LOGICAL)).toContain('<device path="/dev/sdb"/>\n    <device path="/dev/sdc"/>\n    <name>guests</name>');
  });

  it("GIVEN a logical pool with devices only WHEN rendered THEN libvirt's volume group, format and /dev target are written out", () => {
    expect(renderPoolXml({ name: 'vg1', type: 'logical', source: { devices: ['/dev/sdb'] } })).toBe(
      '<pool type="logical">\n  <name>vg1</name>\n  <source>\n    <device path="/dev/sdb"/>\n    <name>vg1</name>\n    <format type="lvm2"/>\n  </source>\n  <target>\n    <path>/dev/vg1</path>\n  </target>\n</pool>\n',
    );
  });

  it('GIVEN a name with XML characters in a path WHEN rendered THEN they are escaped', () => {
    expect(renderPoolXml({ name: 'a', type: 'dir', path: '/srv/a&b<c' })).toContain('<path>/srv/a&amp;b&lt;c</path>');
  });

  it('GIVEN an invalid spec WHEN rendered THEN it throws ValidationError', () => {
    expect(() => renderPoolXml({ name: 'a', type: 'dir' })).toThrow(ValidationError);
  });
});
