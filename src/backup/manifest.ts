/**
 * Backup ids, the manifest's JSON both ways, and checking a backup's files against it. Pure (the hashing of a
 * file is the caller's: src/ops/backups.ts).
 */
import { createHash } from 'node:crypto';
import type { BackupKind, BackupManifest } from './model';

/** The manifest's file name in a backup's folder. */
export const MANIFEST_FILE = 'manifest.json';

/** A backup's id (and folder name) from its sequence number (1-based) and kind: `0001-full`. */
export function backupId(sequence: number, kind: BackupKind): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 9999) throw new Error(`backup sequence ${sequence}: expected 1 to 9999`);
  return `${String(sequence).padStart(4, '0')}-${kind}`;
}

/** The sequence number and kind of a backup id, or null when `id` is not one (another folder). */
export function parseBackupId(id: string): { sequence: number; kind: BackupKind } | null {
  const m = /^(\d{4})-(full|incremental)$/.exec(id);
  if (!m || Number(m[1]) < 1) return null;
  return { sequence: Number(m[1]), kind: m[2] as BackupKind };
}

/**
 * The libvirt checkpoint name a backup creates: `virtseed-backup-<key>-0001`, `key` the first 8 hex digits of the
 * sha256 of `folder` (the absolute path of the folder of the domain's backups, `<root>/<domain>`). A domain's
 * checkpoints share one namespace and a domain may be backed up into several folders (two policies; a folder removed
 * and begun again from 0001): the key keeps each folder's names apart, so an incremental never starts from a
 * checkpoint another folder's backup created. Backups taken before the key (`virtseed-backup-0001`) keep theirs: the
 * manifest names it.
 */
export function checkpointName(sequence: number, folder: string): string {
  const key = createHash('sha256').update(folder).digest('hex').slice(0, 8);
  return `virtseed-backup-${key}-${String(sequence).padStart(4, '0')}`;
}

/** The manifest as its file holds it: keys in a fixed order, two-space indent, a final newline. */
export function renderManifest(m: BackupManifest): string {
  const ordered = {
    format: m.format,
    id: m.id,
    sequence: m.sequence,
    kind: m.kind,
    parent: m.parent,
    base: m.base,
    checkpoint: m.checkpoint,
    domain: { name: m.domain.name, uuid: m.domain.uuid, instanceId: m.domain.instanceId },
    consistency: m.consistency,
    ...(m.consistencyNote !== undefined ? { consistencyNote: m.consistencyNote } : {}),
    takenAt: m.takenAt,
    skipped: m.skipped.map((s) => ({ target: s.target, reason: s.reason })),
    files: m.files.map((f) => ({
      name: f.name,
      role: f.role,
      ...(f.target !== undefined ? { target: f.target } : {}),
      bytes: f.bytes,
      sha256: f.sha256,
    })),
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** A manifest that does not have the shape of BackupManifest: `path` names the field (`files[2].sha256`). */
export class ManifestError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`manifest ${path}: ${message}`);
    this.name = 'ManifestError';
  }
}

function need<T>(ok: boolean, path: string, expected: string, got: unknown, value: T): T {
  if (!ok) throw new ManifestError(path, `expected ${expected}, got ${JSON.stringify(got)}`);
  return value;
}
const isStr = (v: unknown): v is string => typeof v === 'string';
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Parses `manifest.json`'s text.
 * @throws ManifestError naming the first field that is missing or of the wrong shape; SyntaxError for bad JSON.
 */
export function parseManifest(text: string): BackupManifest {
  const j: unknown = JSON.parse(text);
  if (!isObj(j)) throw new ManifestError('(root)', 'expected an object');
  need(j.format === 1, 'format', '1', j.format, 0);
  const id = need(isStr(j.id) && parseBackupId(j.id) !== null, 'id', 'NNNN-full or NNNN-incremental', j.id, j.id as string);
  const parsed = parseBackupId(id)!;
  need(j.sequence === parsed.sequence, 'sequence', `${parsed.sequence} (from the id)`, j.sequence, 0);
  need(j.kind === parsed.kind, 'kind', `${parsed.kind} (from the id)`, j.kind, 0);
  const parent = need(
    parsed.kind === 'full' ? j.parent === null : isStr(j.parent) && parseBackupId(j.parent) !== null,
    'parent',
    parsed.kind === 'full' ? 'null for a full backup' : 'the id of the backup this one adds to',
    j.parent,
    j.parent as string | null,
  );
  const base = need(isStr(j.base) && parseBackupId(j.base)?.kind === 'full', 'base', 'the id of a full backup', j.base, j.base as string);
  const checkpoint = need(
    isStr(j.checkpoint) && j.checkpoint !== '',
    'checkpoint',
    'a checkpoint name',
    j.checkpoint,
    j.checkpoint as string,
  );
  const d = j.domain;
  need(isObj(d), 'domain', 'an object', d, 0);
  const dom = d as Record<string, unknown>;
  need(isStr(dom.name), 'domain.name', 'a string', dom.name, 0);
  need(isStr(dom.uuid), 'domain.uuid', 'a string', dom.uuid, 0);
  need(dom.instanceId === null || isStr(dom.instanceId), 'domain.instanceId', 'a string or null', dom.instanceId, 0);
  const consistency = need(
    j.consistency === 'filesystem' || j.consistency === 'crash',
    'consistency',
    '"filesystem" or "crash"',
    j.consistency,
    j.consistency as 'filesystem' | 'crash',
  );
  need(j.consistencyNote === undefined || isStr(j.consistencyNote), 'consistencyNote', 'a string', j.consistencyNote, 0);
  const takenAt = need(isStr(j.takenAt), 'takenAt', 'an ISO 8601 time', j.takenAt, j.takenAt as string);
  need(Array.isArray(j.skipped), 'skipped', 'an array', j.skipped, 0);
  const skipped = (j.skipped as unknown[]).map((s, i) => {
    need(isObj(s) && isStr(s.target) && isStr(s.reason), `skipped[${i}]`, '{ target, reason }', s, 0);
    const o = s as Record<string, string>;
    return { target: o.target, reason: o.reason };
  });
  need(Array.isArray(j.files), 'files', 'an array', j.files, 0);
  const files = (j.files as unknown[]).map((f, i) => {
    const at = `files[${i}]`;
    need(isObj(f), at, 'an object', f, 0);
    const o = f as Record<string, unknown>;
    need(isStr(o.name) && /^[A-Za-z0-9._-]+$/.test(o.name), `${at}.name`, 'a file name (letters, digits, . _ -)', o.name, 0);
    need(['disk', 'definition', 'seed', 'nvram'].includes(o.role as string), `${at}.role`, 'disk, definition, seed or nvram', o.role, 0);
    need(o.target === undefined || isStr(o.target), `${at}.target`, 'a disk target', o.target, 0);
    need(Number.isSafeInteger(o.bytes) && (o.bytes as number) >= 0, `${at}.bytes`, 'a byte count', o.bytes, 0);
    need(isStr(o.sha256) && /^[0-9a-f]{64}$/.test(o.sha256), `${at}.sha256`, '64 lower-case hex digits', o.sha256, 0);
    return {
      name: o.name as string,
      role: o.role as 'disk',
      ...(o.target !== undefined ? { target: o.target as string } : {}),
      bytes: o.bytes as number,
      sha256: o.sha256 as string,
    };
  });
  return {
    format: 1,
    id,
    sequence: parsed.sequence,
    kind: parsed.kind,
    parent,
    base,
    checkpoint,
    domain: { name: dom.name as string, uuid: dom.uuid as string, instanceId: (dom.instanceId as string | null) ?? null },
    consistency,
    ...(j.consistencyNote !== undefined ? { consistencyNote: j.consistencyNote as string } : {}),
    takenAt,
    skipped,
    files,
  };
}

/** One file that does not match its manifest entry. */
export interface FileMismatch {
  readonly backup: string;
  readonly name: string;
  /** `missing`: no such file; `size`: other byte count; `sha256`: same size, other content. */
  readonly problem: 'missing' | 'size' | 'sha256';
  readonly expected: string;
  readonly actual: string;
}

/** The mismatches between a manifest and what was measured of its files (null for a missing file). */
export function compareFiles(m: BackupManifest, measured: ReadonlyMap<string, { bytes: number; sha256: string } | null>): FileMismatch[] {
  const out: FileMismatch[] = [];
  for (const f of m.files) {
    const got = measured.get(f.name) ?? null;
    if (!got) out.push({ backup: m.id, name: f.name, problem: 'missing', expected: `${f.bytes} bytes`, actual: 'no file' });
    else if (got.bytes !== f.bytes)
      out.push({ backup: m.id, name: f.name, problem: 'size', expected: `${f.bytes} bytes`, actual: `${got.bytes} bytes` });
    else if (got.sha256 !== f.sha256) out.push({ backup: m.id, name: f.name, problem: 'sha256', expected: f.sha256, actual: got.sha256 });
  }
  return out;
}
