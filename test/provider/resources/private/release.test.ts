import { releaseMarkName, usedSources } from '../../../../provider/src/resources/private/release';

describe('usedSources', () => {
  test('GIVEN a running domain XML WHEN read THEN every file (disk, backing store, fw_cfg) and pool/volume source is found, unescaped', () => {
    const xml = `<domain type='qemu'><name>web</name><devices>
      <disk type='volume' device='disk'><source pool='fleet' volume='web-root.qcow2'/>
        <backingStore type='file'><format type='qcow2'/><source file='/pool/base&apos;s.qcow2'/></backingStore></disk>
      <disk type='file' device='cdrom'><source file="/pool/web-seed.iso"/></disk></devices>
      <sysinfo type='fwcfg'><entry name='opt/com.coreos/config' file='/pool/web.ign'/></sysinfo></domain>`;
    const used = usedSources(xml);
    expect([...used.files].sort()).toEqual(["/pool/base's.qcow2", '/pool/web-seed.iso', '/pool/web.ign']);
    expect([...used.volumes]).toEqual(['fleet/web-root.qcow2']);
  });

  test('GIVEN a console and a serial port logging to files WHEN read THEN their log files are not sources (no volume lookup)', () => {
    const xml = `<domain type='qemu'><devices><disk type='file' device='disk'><source file='/pool/root.qcow2'/></disk>
      <serial type='pty'><log file='/var/log/libvirt/qemu/web-console.log' append='on'/></serial>
      <console type='pty'><log file='/var/log/libvirt/qemu/web-console.log' append='on'/></console></devices></domain>`;
    expect([...usedSources(xml).files]).toEqual(['/pool/root.qcow2']);
  });

  test('GIVEN a volume name WHEN its release mark is named THEN it sits beside it in the pool', () => {
    expect(releaseMarkName('web-root.qcow2')).toBe('web-root.qcow2.virtseed-release');
  });
});
