/**
 * `<domainbackup>` (formatbackup, push mode) and `<domaincheckpoint>` (formatcheckpoint) XML for
 * virDomainBackupBegin, and the facts of a running domain's XML a backup needs. Pure.
 */
import { ATTR, newParser, TEXT, type XmlNode } from '../xml';

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

/** What a backup needs to know of a domain, from its XML (virDomainGetXMLDesc of the running domain). */
export interface BackupDomainFacts {
  readonly name: string;
  readonly uuid: string;
  readonly instanceId: string | null;
  readonly disks: readonly LiveDisk[];
  /** `<os><nvram>`: the per-domain NVRAM file, if any. */
  readonly nvram: string | null;
  /** The domain has the QEMU guest agent's channel (`org.qemu.guest_agent.0`). */
  readonly agentChannel: boolean;
  /** libvirt sees the agent connected (`<target state='connected'>`, live XML only). */
  readonly agentConnected: boolean;
}

const list = (v: unknown): XmlNode[] => (v === undefined ? [] : Array.isArray(v) ? (v as XmlNode[]) : [v as XmlNode]);
const attr = (n: XmlNode | undefined, name: string): string | null => {
  const v = n?.[ATTR + name];
  return typeof v === 'string' ? v : null;
};
const text = (n: unknown): string | null => {
  if (typeof n === 'string') return n.trim();
  if (n && typeof n === 'object' && typeof (n as XmlNode)[TEXT] === 'string') return ((n as XmlNode)[TEXT] as string).trim();
  return null;
};

/**
 * Reads the backup facts of a domain's XML; virtseed's instance-id is the `<virtseed:entry key='instance-id'>` of
 * its metadata (src/domain/render.ts).
 * @throws Error when the XML has no `<domain>` with a name and uuid.
 */
export function parseBackupDomainFacts(xml: string): BackupDomainFacts {
  const root = (newParser().parse(xml) as XmlNode).domain as XmlNode | undefined;
  const name = text(root?.name);
  const uuid = text(root?.uuid);
  if (!root || !name || !uuid) throw new Error('not a <domain> with <name> and <uuid>');
  const devices = (list(root.devices)[0] ?? {}) as XmlNode;
  const disks = list(devices.disk).map((d): LiveDisk => {
    const source = list(d.source)[0];
    const pool = attr(source, 'pool');
    const volume = attr(source, 'volume');
    return {
      target: attr(list(d.target)[0], 'dev') ?? '',
      device: attr(d, 'device') ?? 'disk',
      format: attr(list(d.driver)[0], 'type'),
      readonly: d.readonly !== undefined,
      file: attr(source, 'file'),
      volume: pool && volume ? { pool, volume } : null,
    };
  });
  let agentChannel = false;
  let agentConnected = false;
  for (const c of list(devices.channel)) {
    const t = list(c.target)[0];
    if (attr(t, 'name') === 'org.qemu.guest_agent.0') {
      agentChannel = true;
      agentConnected = attr(t, 'state') === 'connected';
    }
  }
  const os = list(root.os)[0];
  const nvram = text(list(os?.nvram)[0]) || null;
  let instanceId: string | null = null;
  const meta = list(root.metadata)[0];
  for (const [key, value] of Object.entries(meta ?? {})) {
    if (key !== 'instance' && !key.endsWith(':instance')) continue;
    const instance = list(value)[0] ?? {};
    const entryKey = Object.keys(instance).find((k) => k === 'entry' || k.endsWith(':entry'));
    for (const entry of list(entryKey ? instance[entryKey] : undefined)) {
      if (attr(entry, 'key') === 'instance-id') instanceId = text(entry);
    }
  }
  return { name, uuid, instanceId, disks, nvram, agentChannel, agentConnected };
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
