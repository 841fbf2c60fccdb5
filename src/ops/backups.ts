/**
 * Backups of a running domain to a directory on its libvirt host, and what is done with them: list, verify,
 * prune, restore a disk (docs/backups.md). Composed from src/libvirt (virDomainBackupBegin in push mode,
 * checkpoints, the guest agent's freeze, job statistics, volume downloads) and src/backup (ids, chains,
 * manifests, the backup and checkpoint XML), which stay pure.
 *
 * Layout: `<root>/<domain name>/<NNNN-kind>/` holds `disk-<target>.qcow2` per backed-up disk (written by QEMU),
 * `domain.xml` (the inactive definition), `seed-<target>.iso` per cdrom with a source, `nvram.fd` when the domain
 * has one, and `manifest.json` written last (a folder without it is an unfinished backup and is ignored).
 *
 * The files are read and written through the local file system: the CLI runs on the libvirt host whose directory
 * it names (QEMU writes the disk copies there).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import {
  backupDisks,
  chainImageSpec,
  compareFiles,
  MANIFEST_FILE,
  nextBackup,
  parseBackupDomainFacts,
  parseBackupId,
  parseManifest,
  pruneSelection,
  renderBackupXml,
  renderCheckpointXml,
  renderManifest,
  restoreChain,
  type BackupConsistency,
  type BackupFile,
  type BackupManifest,
  type FileMismatch,
  type NextBackup,
} from '../backup';
import { METADATA_KEYS, parseDomainFootprint } from '../domain';
import {
  LibvirtError,
  VIR_DOMAIN_JOB_COMPLETED,
  VIR_DOMAIN_JOB_NONE,
  VIR_DOMAIN_JOB_STATS_COMPLETED,
  VIR_DOMAIN_XML_INACTIVE,
  VIR_ERR_NO_DOMAIN_CHECKPOINT,
  type CallOptions,
  type DomRef,
  type LibvirtClient,
  type VolRef,
} from '../libvirt';

const run = promisify(execFile);

/** A backup virtseed cannot take (the domain is not running, has no qcow2 disk, …): `fix` says what to do. */
export class BackupRefusedError extends Error {
  constructor(
    readonly domain: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`Cannot back up domain ${domain}: ${problem}. ${fix}`);
    this.name = 'BackupRefusedError';
  }
}

/** sha256 (hex) and size of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const h = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    h.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: h.digest('hex') };
}

/** The folder of a domain's backups under `root`. */
export function domainBackupDir(root: string, domain: string): string {
  if (!/^[A-Za-z0-9._+-]+$/.test(domain) || domain.startsWith('.'))
    throw new Error(`domain name ${JSON.stringify(domain)}: not usable as a folder name`);
  return path.join(root, domain);
}

/** The domain's finished backups (those with a manifest), in sequence order. Ignores other folders. */
export async function readBackups(root: string, domain: string): Promise<BackupManifest[]> {
  const dir = domainBackupDir(root, domain);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: BackupManifest[] = [];
  for (const name of names.filter((n) => parseBackupId(n) !== null)) {
    let text: string;
    try {
      text = await fsp.readFile(path.join(dir, name, MANIFEST_FILE), 'utf8');
    } catch {
      continue; // unfinished
    }
    out.push(parseManifest(text));
  }
  return out.sort((a, b) => a.sequence - b.sequence);
}

/** What createBackup did. `seconds` is the wall time of the backup job alone (QEMU copying). */
export interface BackupResult {
  readonly manifest: BackupManifest;
  readonly dir: string;
  readonly decision: NextBackup;
  readonly jobSeconds: number;
}

export interface BackupOptions extends CallOptions {
  /** Take a full backup even when an incremental could be taken. */
  readonly full?: boolean;
  /** The backup's time for the manifest (the caller's clock). */
  readonly now: () => Date;
  /** How often the job is polled, ms. @default 250 */
  readonly pollMs?: number;
  readonly log?: (line: string) => void;
}

async function checkpointPresent(client: LibvirtClient, dom: DomRef, name: string, options: CallOptions): Promise<boolean> {
  try {
    await client.domainCheckpointLookupByName(dom, name, options);
    return true;
  } catch (err) {
    if (err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN_CHECKPOINT) return false;
    throw err;
  }
}

/** Deletes the domain's checkpoint `name` if libvirt has it; false when there was none. */
async function deleteCheckpointIfPresent(client: LibvirtClient, dom: DomRef, name: string, options: CallOptions): Promise<boolean> {
  try {
    await client.domainCheckpointDelete(await client.domainCheckpointLookupByName(dom, name, options), 0, options);
    return true;
  } catch (err) {
    if (err instanceof LibvirtError && err.code === VIR_ERR_NO_DOMAIN_CHECKPOINT) return false;
    throw err;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits for the domain's backup job to end; throws with libvirt's message when it failed. */
async function waitForJob(client: LibvirtClient, dom: DomRef, pollMs: number, options: CallOptions): Promise<void> {
  for (;;) {
    options.signal?.throwIfAborted();
    const now = await client.domainGetJobStats(dom, 0, options);
    if (now.type === VIR_DOMAIN_JOB_NONE) break;
    await sleep(pollMs);
  }
  const done = await client.domainGetJobStats(dom, VIR_DOMAIN_JOB_STATS_COMPLETED, options);
  if (done.type !== VIR_DOMAIN_JOB_COMPLETED) {
    const msg = done.params.find((p) => p.field === 'errmsg')?.value;
    throw new Error(`the backup job of domain ${dom.name} ended with job type ${done.type}${msg ? `: ${String(msg)}` : ''}`);
  }
}

async function download(client: LibvirtClient, vol: VolRef, file: string, options: CallOptions): Promise<void> {
  const out = await fsp.open(file, 'w', 0o600);
  try {
    for await (const chunk of client.storageVolDownloadStream(vol, 0, 0, options)) await out.write(chunk);
  } finally {
    await out.close();
  }
}

/** Copies a host file that may be a storage volume (download through libvirt) or a plain file. */
async function saveHostFile(
  client: LibvirtClient,
  source: { file: string | null; volume: { pool: string; volume: string } | null },
  to: string,
  options: CallOptions,
): Promise<void> {
  let vol: VolRef | null = null;
  if (source.volume) {
    const pool = await client.storagePoolLookupByName(source.volume.pool, options);
    vol = await client.storageVolLookupByName(pool, source.volume.volume, options);
  } else if (source.file) {
    try {
      vol = await client.storageVolLookupByPath(source.file, options);
    } catch {
      vol = null;
    }
  }
  if (vol) await download(client, vol, to, options);
  else if (source.file) await fsp.copyFile(source.file, to);
}

/**
 * Takes the next backup of a running domain into `<root>/<domain>/<id>/`: incremental when the latest backup's
 * checkpoint is still on the domain and the disks are the same, else full (see src/backup nextBackup). Freezes the
 * guest's file systems through qemu-guest-agent around the backup's start when libvirt sees the agent connected
 * (`consistency: "filesystem"`), else takes it crash-consistent. Backups of one domain in this process run one at a
 * time (libvirt runs one backup job per domain).
 * @throws BackupRefusedError when the domain is not running or has no writable qcow2 disk; LibvirtError when
 *   libvirt refuses; Error when the job fails (its folder is removed then).
 */
export async function createBackup(client: LibvirtClient, dom: DomRef, root: string, options: BackupOptions): Promise<BackupResult> {
  return oneAtATime(`${dom.uuid.toString('hex')}/${dom.name}`, () => takeBackup(client, dom, root, options));
}

/** The backups of each domain (by UUID and name) under way in this process. */
const underWay = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` once the work under way for `key` in this process has ended (failed or not). libvirt runs one backup job
 * per domain: a second virDomainBackupBegin waits for the job lock for 30 s and then fails; two policies of one
 * domain in one apply take their backups one after the other instead. (Another process, a timer's CLI, is not
 * seen: libvirt's error tells.)
 */
async function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const mine = (underWay.get(key) ?? Promise.resolve()).catch(() => undefined).then(fn);
  underWay.set(key, mine);
  try {
    return await mine;
  } finally {
    if (underWay.get(key) === mine) underWay.delete(key);
  }
}

async function takeBackup(client: LibvirtClient, dom: DomRef, root: string, options: BackupOptions): Promise<BackupResult> {
  const call: CallOptions = options.signal ? { signal: options.signal } : {};
  const log = options.log ?? (() => undefined);
  if (!(await client.domainIsActive(dom, call)))
    throw new BackupRefusedError(
      dom.name,
      'it is not running (libvirt backs up the disks of a running guest)',
      `Start it (virsh start ${dom.name}) and back it up again.`,
    );
  const xml = await client.domainGetXmlDesc(dom, 0, call);
  const facts = parseBackupDomainFacts(xml);
  const { copy, skip } = backupDisks(facts);
  if (!copy.length)
    throw new BackupRefusedError(
      dom.name,
      `it has no writable qcow2 disk (${skip.map((s) => `${s.target}: ${s.reason}`).join('; ')})`,
      'Give it a qcow2 disk.',
    );
  const existing = await readBackups(root, facts.name);
  const latest = existing.at(-1);
  const decision = nextBackup(existing, {
    forceFull: !!options.full,
    latestCheckpointPresent: latest ? await checkpointPresent(client, dom, latest.checkpoint, call) : false,
    disks: copy.map((d) => d.target),
    folder: path.resolve(domainBackupDir(root, facts.name)),
  });
  log(`domain ${facts.name}: backup ${decision.id} (${decision.reason})`);
  // A checkpoint of this name is left from a backup of this folder that is gone (removed by hand, or a job that
  // failed after libvirt created it): nothing here needs it, and libvirt refuses to create a second one.
  if (await deleteCheckpointIfPresent(client, dom, decision.checkpoint, call))
    log(`domain ${facts.name}: removed checkpoint ${decision.checkpoint}, left from a backup no longer in ${root}`);
  const dir = path.join(domainBackupDir(root, facts.name), decision.id);
  await fsp.mkdir(dir, { recursive: true, mode: 0o755 });
  try {
    const targets = copy.map((d) => ({ target: d.target, file: path.join(dir, `disk-${d.target}.qcow2`) }));
    const others = facts.disks.filter((d) => !copy.includes(d)).map((d) => d.target);
    const backupXml = renderBackupXml(targets, others, decision.since);
    const checkpointXml = renderCheckpointXml(
      decision.checkpoint,
      copy.map((d) => d.target),
      others,
      `virtseed backup ${decision.id}`,
    );

    let consistency: BackupConsistency = 'crash';
    let consistencyNote: string | undefined = facts.agentChannel
      ? 'the guest agent is not connected'
      : 'the domain has no guest agent channel';
    let frozen = false;
    if (facts.agentConnected) {
      try {
        await client.domainFsFreeze(dom, [], 0, call);
        frozen = true;
        consistency = 'filesystem';
        consistencyNote = undefined;
      } catch (err) {
        consistencyNote = `the guest agent did not freeze the file systems: ${(err as Error).message}`;
      }
    }
    const takenAt = options.now().toISOString();
    const started = process.hrtime.bigint();
    try {
      await client.domainBackupBegin(dom, backupXml, checkpointXml, 0, call);
    } finally {
      if (frozen) await client.domainFsThaw(dom, [], 0, call);
    }
    await waitForJob(client, dom, options.pollMs ?? 250, call);
    const jobSeconds = Number(process.hrtime.bigint() - started) / 1e9;

    await fsp.writeFile(path.join(dir, 'domain.xml'), await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE, call), { mode: 0o600 });
    const extra: { name: string; role: 'seed' | 'nvram'; target?: string }[] = [];
    for (const d of facts.disks.filter((x) => x.device === 'cdrom' && (x.file || x.volume))) {
      const name = `seed-${d.target}.iso`;
      await saveHostFile(client, d, path.join(dir, name), call);
      extra.push({ name, role: 'seed', target: d.target });
    }
    if (facts.nvram) {
      await saveHostFile(client, { file: facts.nvram, volume: null }, path.join(dir, 'nvram.fd'), call);
      extra.push({ name: 'nvram.fd', role: 'nvram' });
    }
    const entries: { name: string; role: BackupFile['role']; target?: string }[] = [
      ...targets.map((t) => ({ name: path.basename(t.file), role: 'disk' as const, target: t.target })),
      { name: 'domain.xml', role: 'definition' },
      ...extra,
    ];
    const files: BackupFile[] = [];
    for (const e of entries) files.push({ ...e, ...(await hashFile(path.join(dir, e.name))) });
    const manifest: BackupManifest = {
      format: 1,
      id: decision.id,
      sequence: decision.sequence,
      kind: decision.kind,
      parent: decision.parent,
      base: decision.base,
      checkpoint: decision.checkpoint,
      domain: { name: facts.name, uuid: facts.uuid, instanceId: parseDomainFootprint(xml).metadata?.[METADATA_KEYS.instanceId] ?? null },
      consistency,
      ...(consistencyNote !== undefined ? { consistencyNote } : {}),
      takenAt,
      skipped: skip,
      files,
    };
    await fsp.writeFile(path.join(dir, MANIFEST_FILE), renderManifest(manifest), { mode: 0o644 });
    return { manifest, dir, decision, jobSeconds };
  } catch (err) {
    await fsp.rm(dir, { recursive: true, force: true });
    throw err;
  }
}

/** What verifyBackups found: each backup checked, and every file that does not match its manifest. */
export interface VerifyResult {
  readonly checked: readonly string[];
  readonly mismatches: readonly FileMismatch[];
  /** Incrementals whose chain is missing a backup. */
  readonly broken: readonly { readonly backup: string; readonly problem: string }[];
}

/** Re-reads every file of the domain's backups (or of `only`) and compares size and sha256 with the manifests. */
export async function verifyBackups(root: string, domain: string, only?: string): Promise<VerifyResult> {
  const all = await readBackups(root, domain);
  const subject = only ? all.filter((m) => m.id === only) : all;
  if (only && !subject.length) throw new Error(`domain ${domain} has no backup ${only} under ${root}`);
  const mismatches: FileMismatch[] = [];
  const broken: { backup: string; problem: string }[] = [];
  for (const m of subject) {
    const measured = new Map<string, { bytes: number; sha256: string } | null>();
    for (const f of m.files) {
      try {
        measured.set(f.name, await hashFile(path.join(domainBackupDir(root, domain), m.id, f.name)));
      } catch {
        measured.set(f.name, null);
      }
    }
    mismatches.push(...compareFiles(m, measured));
    try {
      restoreChain(all, m.id);
    } catch (err) {
      broken.push({ backup: m.id, problem: (err as Error).message });
    }
  }
  return { checked: subject.map((m) => m.id), mismatches, broken };
}

/**
 * Removes every backup of the domain but the `keep` most recent and the ones they need (src/backup
 * pruneSelection), and, when `dom` is given, the removed backups' checkpoints on the domain.
 */
export async function pruneBackups(
  root: string,
  domain: string,
  keep: number,
  libvirt?: { client: LibvirtClient; dom: DomRef },
): Promise<{ keep: string[]; remove: string[] }> {
  const all = await readBackups(root, domain);
  const sel = pruneSelection(all, keep);
  for (const id of sel.remove) {
    const m = all.find((x) => x.id === id)!;
    if (libvirt) await deleteCheckpointIfPresent(libvirt.client, libvirt.dom, m.checkpoint, {});
    await fsp.rm(path.join(domainBackupDir(root, domain), id), { recursive: true, force: true });
  }
  return sel;
}

/** What restoreDisk did: the backups read, their bytes, and the image written. */
export interface RestoreResult {
  readonly chain: readonly string[];
  /** Bytes of the chain's files for this disk (what was read). */
  readonly readBytes: number;
  /** Bytes of the restored image file. */
  readonly writtenBytes: number;
  readonly seconds: number;
}

async function qemuImg(args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await run('qemu-img', [...args], { maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; stdout?: string; message: string };
    throw new Error(`qemu-img ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`);
  }
}

/**
 * Writes the disk `target` as it was at backup `id` to the qcow2 file `out` (a new file): the chain's files are
 * first checked against their manifests (size and sha256), then `qemu-img convert` reads the full backup with each
 * incremental over it, and `qemu-img compare` checks the result against that chain. The backups are not modified.
 * @throws BrokenChainError when a backup of the chain is missing; Error naming the file when one does not match
 *   its manifest, and with qemu-img's output when it fails.
 */
export async function restoreDisk(root: string, domain: string, id: string, target: string, out: string): Promise<RestoreResult> {
  const started = process.hrtime.bigint();
  const chain = restoreChain(await readBackups(root, domain), id);
  const files: string[] = [];
  let readBytes = 0;
  for (const m of chain) {
    const f = m.files.find((x) => x.role === 'disk' && x.target === target);
    if (!f) throw new Error(`backup ${m.id} of domain ${domain} has no disk ${target}`);
    const file = path.join(domainBackupDir(root, domain), m.id, f.name);
    const got = await hashFile(file);
    const bad = compareFiles({ ...m, files: [f] }, new Map([[f.name, got]]));
    if (bad.length)
      throw new Error(
        `backup ${m.id} file ${f.name} does not match its manifest: ${bad[0].problem} (expected ${bad[0].expected}, found ${bad[0].actual})`,
      );
    files.push(file);
    readBytes += f.bytes;
  }
  const image = chainImageSpec(files);
  await qemuImg(['convert', '-O', 'qcow2', image, out]);
  await qemuImg(['compare', image, out]);
  const writtenBytes = (await fsp.stat(out)).size;
  return { chain: chain.map((m) => m.id), readBytes, writtenBytes, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}
