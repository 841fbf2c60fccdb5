import * as fs from 'node:fs';
import * as path from 'node:path';
import { backupDisks, parseBackupDomainFacts, renderBackupXml, renderCheckpointXml } from '../../src/backup';
import { METADATA_KEYS, parseDomainFootprint } from '../../src/domain';

const fixture = (name: string): string => fs.readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

describe('renderBackupXml', () => {
  it('GIVEN one disk to copy and one to leave WHEN a full backup is rendered THEN push mode, a qcow2 target file and backup=no', () => {
    expect(renderBackupXml([{ target: 'vda', file: '/b/web-1/0001-full/disk-vda.qcow2' }], ['sda'], null)).toBe(
      "<domainbackup mode='push'><disks><disk name='vda' backup='yes' type='file'><target file='/b/web-1/0001-full/disk-vda.qcow2'/><driver type='qcow2'/></disk><disk name='sda' backup='no'/></disks></domainbackup>",
    );
  });

  it('GIVEN a checkpoint WHEN an incremental is rendered THEN it names it, and markup in paths is escaped', () => {
    const xml = renderBackupXml([{ target: 'vda', file: "/b/a'b&c.qcow2" }], [], 'virtseed-backup-0001');
    expect(xml).toContain('<incremental>virtseed-backup-0001</incremental>');
    expect(xml).toContain("file='/b/a&apos;b&amp;c.qcow2'");
  });
});

describe('renderCheckpointXml', () => {
  it('GIVEN backed-up and other disks WHEN rendered THEN a bitmap on each backed-up disk and none on the others', () => {
    expect(renderCheckpointXml('virtseed-backup-0002', ['vda'], ['vdb', 'sda'], 'virtseed backup 0002-incremental')).toBe(
      "<domaincheckpoint><name>virtseed-backup-0002</name><description>virtseed backup 0002-incremental</description><disks><disk name='vda' checkpoint='bitmap'/><disk name='vdb' checkpoint='no'/><disk name='sda' checkpoint='no'/></disks></domaincheckpoint>",
    );
  });
});

describe('parseBackupDomainFacts', () => {
  it('GIVEN a running domain with an agent, a raw disk, a seed and NVRAM WHEN read THEN every fact a backup needs', () => {
    const f = parseBackupDomainFacts(fixture('live-agent.xml'));
    expect(f).toEqual({
      name: 'web-1',
      uuid: '5d3c2e0a-9b1f-4c65-8f35-0c1a3e6b2d11',
      nvram: '/var/lib/libvirt/qemu/nvram/web-1_VARS.fd',
      agentChannel: true,
      agentConnected: true,
      disks: [
        { target: 'vda', device: 'disk', format: 'qcow2', readonly: false, file: null, volume: { pool: 'default', volume: 'web-1.qcow2' } },
        { target: 'vdb', device: 'disk', format: 'raw', readonly: false, file: '/var/lib/libvirt/images/web-1-scratch.raw', volume: null },
        {
          target: 'sda',
          device: 'cdrom',
          format: 'raw',
          readonly: true,
          file: null,
          volume: { pool: 'default', volume: 'web-1-seed.iso' },
        },
      ],
    });
  });

  it("GIVEN the same XML WHEN src/domain reads its metadata (what src/ops/backups puts in the manifest) THEN virtseed's instance-id", () => {
    expect(parseDomainFootprint(fixture('live-agent.xml')).metadata?.[METADATA_KEYS.instanceId]).toBe('iid-web-1');
  });

  it('GIVEN the agent channel disconnected WHEN read THEN the channel is there and the agent is not connected', () => {
    const f = parseBackupDomainFacts(fixture('live-agent.xml').replace("state='connected'", "state='disconnected'"));
    expect([f.agentChannel, f.agentConnected]).toEqual([true, false]);
  });

  it('GIVEN no <domain> WHEN read THEN it throws', () => {
    expect(() => parseBackupDomainFacts('<network><name>x</name></network>')).toThrow(/not a <domain>/);
  });
});

describe('backupDisks', () => {
  it('GIVEN qcow2, raw and cdrom disks WHEN chosen THEN only the qcow2 disk is copied and the others say why not', () => {
    const { copy, skip } = backupDisks(parseBackupDomainFacts(fixture('live-agent.xml')));
    expect(copy.map((d) => d.target)).toEqual(['vda']);
    expect(skip).toEqual([
      { target: 'vdb', reason: 'format raw: backups with checkpoints need qcow2' },
      { target: 'sda', reason: 'a cdrom (seeds are saved as files)' },
    ]);
  });
});
