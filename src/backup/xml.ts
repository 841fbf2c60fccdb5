/**
 * `<domainbackup>` (formatbackup, push mode) and `<domaincheckpoint>` (formatcheckpoint) XML for
 * virDomainBackupBegin, and the facts of a running domain's XML a backup needs. Pure.
 */
import { attr, child, children, newParser, text, type XmlNode } from '../xml';

/** XML text and attribute escaping. */
function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** One disk of a push backup: its target (`vda`) and the absolute path QEMU writes its copy to (qcow2). */
export interface BackupDiskTarget {
  readonly target: string;
  readonly file: string;
}

/**
 * The push-mode backup request: each listed disk copied (as qcow2) to its file; every other disk of the domain
 * (`others`) named with `backup='no'`. `incremental`: the checkpoint to copy the changes since.
 */
export function renderBackupXml(disks: readonly BackupDiskTarget[], others: readonly string[], incremental: string | null): string {
  const inc = incremental !== null ? `<incremental>${esc(incremental)}</incremental>` : '';
  const yes = disks.map(
    (d) => `<disk name='${esc(d.target)}' backup='yes' type='file'><target file='${esc(d.file)}'/><driver type='qcow2'/></disk>`,
  );
  const no = others.map((t) => `<disk name='${esc(t)}' backup='no'/>`);
  return `<domainbackup mode='push'>${inc}<disks>${[...yes, ...no].join('')}</disks></domainbackup>`;
}

/** The checkpoint created with a backup: a dirty bitmap on each backed-up disk, none on the others. */
export function renderCheckpointXml(name: string, disks: readonly string[], others: readonly string[], description?: string): string {
  const desc = description !== undefined ? `<description>${esc(description)}</description>` : '';
  const yes = disks.map((t) => `<disk name='${esc(t)}' checkpoint='bitmap'/>`);
  const no = others.map((t) => `<disk name='${esc(t)}' checkpoint='no'/>`);
  return `<domaincheckpoint><name>${esc(name)}</name>${desc}<disks>${[...yes, ...no].join('')}</disks></domaincheckpoint>`;
}

/** A disk of a domain as its live XML shows it. */
export interface LiveDisk {
  readonly target: string;
  readonly device: string;
  /** `<driver type>`, e.g. `qcow2`, `raw`; null when absent. */
  readonly format: string | null;
  readonly readonly: boolean;
  /** `<source file>` of a file disk. */
  readonly file: string | null;
  /** `<source pool volume>` of a volume disk. */
  readonly volume: { readonly pool: string; readonly volume: string } | null;
}

/**
 * What a backup needs to know of a domain's devices, from its XML (virDomainGetXMLDesc of the running domain). The
 * domain's instance-id is its metadata's, which src/domain reads (src/ops/backups.ts joins the two). Read here, not
 * with src/domain's parseDomainXml: a backup takes any domain, whose disks that model does not cover (a block or
 * network disk) are skipped with the reason rather than refused, and it needs the agent channel's live state.
 */
export interface BackupDomainFacts {
  readonly name: string;
  readonly uuid: string;
  readonly disks: readonly LiveDisk[];
  /** `<os><nvram>`: the per-domain NVRAM file, if any. */
  readonly nvram: string | null;
  /** The domain has the QEMU guest agent's channel (`org.qemu.guest_agent.0`). */
  readonly agentChannel: boolean;
  /** libvirt sees the agent connected (`<target state='connected'>`, live XML only). */
  readonly agentConnected: boolean;
}

/**
 * Reads the backup facts of a domain's XML.
 * @throws Error when the XML has no `<domain>` with a name and uuid.
 */
export function parseBackupDomainFacts(xml: string): BackupDomainFacts {
  const root = child(newParser().parse(xml) as XmlNode, 'domain');
  const name = text(child(root, 'name'));
  const uuid = text(child(root, 'uuid'));
  if (!root || !name || !uuid) throw new Error('not a <domain> with <name> and <uuid>');
  const devices = child(root, 'devices');
  const disks = children(devices, 'disk').map((d): LiveDisk => {
    const source = child(d, 'source');
    const pool = attr(source, 'pool');
    const volume = attr(source, 'volume');
    return {
      target: attr(child(d, 'target'), 'dev') ?? '',
      device: attr(d, 'device') ?? 'disk',
      format: attr(child(d, 'driver'), 'type') ?? null,
      readonly: child(d, 'readonly') !== undefined,
      file: attr(source, 'file') ?? null,
      volume: pool && volume ? { pool, volume } : null,
    };
  });
  const agent = children(devices, 'channel')
    .map((c) => child(c, 'target'))
    .find((t) => attr(t, 'name') === 'org.qemu.guest_agent.0');
  const nvram = text(child(child(root, 'os'), 'nvram')) || null;
  return { name, uuid, disks, nvram, agentChannel: agent !== undefined, agentConnected: attr(agent, 'state') === 'connected' };
}

/** Which disks a backup copies: writable qcow2 disks (checkpoints need qcow2); the rest with the reason. */
export function backupDisks(facts: BackupDomainFacts): { copy: LiveDisk[]; skip: { target: string; reason: string }[] } {
  const copy: LiveDisk[] = [];
  const skip: { target: string; reason: string }[] = [];
  for (const d of facts.disks) {
    if (d.device !== 'disk') skip.push({ target: d.target, reason: `a ${d.device} (seeds are saved as files)` });
    else if (d.readonly) skip.push({ target: d.target, reason: 'read-only' });
    else if (d.format !== 'qcow2')
      skip.push({ target: d.target, reason: `format ${d.format ?? 'raw'}: backups with checkpoints need qcow2` });
    else copy.push(d);
  }
  return { copy, skip };
}
