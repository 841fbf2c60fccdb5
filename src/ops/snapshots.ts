/**
 * Domain snapshots on a libvirt host, over the libvirt client: take, describe, list, revert, delete (libvirt
 * formatsnapshot; `virDomainSnapshot*`), composed from src/libvirt, src/domain and src/snapshot (which stay pure
 * and apart). The provider's `virtseed_snapshot`, `virtseed_domain.snapshot_before` and the CLI's
 * `virtseed snapshot revert` share it.
 *
 * The cloud-init seed: a seed is a read-only cdrom, so it is in no snapshot, and `virtseed_cloudinit_seed` rewrites
 * it in place when its content changes. A guest reverted to a snapshot of its shut-off disks boots and reads the
 * seed again; to boot on the instance-id it had, it must read the seed it had. So a `disk` snapshot of a domain with
 * a seed volume gets a copy of that seed: the raw volume `<domain>.<snapshot>.seed` in the seed's pool (see
 * seedCopyName), written back into the seed volume (./volume-bytes.ts) by a revert and deleted with the snapshot. A `memory`
 * snapshot needs none: its revert resumes the guest, which read its seed long before (docs/FACTS.md "Snapshots:
 * cloud-init reads the seed at boot, and per-instance modules follow the instance-id").
 */
import { parseDomainXml, type DomainDisk, type DomainSpec } from '../domain';
import {
  LibvirtError,
  VIR_DOMAIN_BLOCKED,
  VIR_DOMAIN_PAUSED,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_SNAPSHOT_CREATE_CURRENT,
  VIR_DOMAIN_SNAPSHOT_CREATE_REDEFINE,
  VIR_DOMAIN_SNAPSHOT_LIST_TOPOLOGICAL,
  VIR_DOMAIN_SNAPSHOT_XML_SECURE,
  VIR_DOMAIN_XML_INACTIVE,
  VIR_ERR_NO_DOMAIN_SNAPSHOT,
  VIR_ERR_NO_STORAGE_POOL,
  VIR_ERR_NO_STORAGE_VOL,
  type CallOptions,
  type DomRef,
  type LibvirtClient,
  type PoolRef,
  type SnapRef,
  type VolRef,
} from '../libvirt';
import {
  escapeXml,
  hasMemory,
  parseQcow2Header,
  parseQcow2Snapshots,
  parseSnapshotXml,
  QCOW2_HEADER_BYTES,
  renderSnapshotRequest,
  sameL1Table,
  snapshotDeletion,
  snapshotKind,
  type Qcow2Header,
  type Qcow2Snapshot,
  withSnapshotDescription,
  type SnapshotInfo,
  type SnapshotKind,
  type SnapshotSubject,
} from '../snapshot';
import { writeVolumeBytes } from './volume-bytes';

/**
 * A snapshot virtseed will not or cannot take (see snapshotKind) or delete now (snapshotDeletion): `problem` says
 * why, `fix` what to do; `doing` what was refused (default: `snapshot domain <domain>`).
 */
export class SnapshotRefusedError extends Error {
  constructor(
    readonly domain: string,
    readonly problem: string,
    readonly fix: string,
    doing = `snapshot domain ${domain}`,
  ) {
    super(`Cannot ${doing}: ${problem}. ${fix[0].toUpperCase()}${fix.slice(1)}.`);
    this.name = 'SnapshotRefusedError';
  }
}

/** The volume name of the seed copy kept with snapshot `snapshot` of domain `domain` (in the seed volume's pool). */
export function seedCopyName(domain: string, snapshot: string): string {
  return `${domain}.${snapshot}.seed`;
}

function isActiveState(state: number): boolean {
  return state === VIR_DOMAIN_RUNNING || state === VIR_DOMAIN_PAUSED || state === VIR_DOMAIN_BLOCKED;
}

function isMissing(err: unknown, ...codes: number[]): boolean {
  return err instanceof LibvirtError && codes.includes(err.code);
}

/** The domain's persistent definition, or null when virtseed's domain model cannot read it. */
async function definition(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<DomainSpec | null> {
  return parsedOrNull(await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE, options));
}

/** A definition's XML parsed, or null when virtseed's domain model cannot read it. */
function parsedOrNull(xml: string): DomainSpec | null {
  try {
    return parseDomainXml(xml);
  } catch {
    return null;
  }
}

/** What snapshotKind needs to know about a domain (its state, firmware, disks and virtiofs shares). */
export async function snapshotSubject(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<SnapshotSubject> {
  const [spec, info] = await Promise.all([definition(client, dom, options), client.domainGetState(dom, options)]);
  return {
    running: isActiveState(info.state),
    firmware: spec?.firmware === 'efi' ? 'efi' : 'bios',
    disks: (spec?.disks ?? []).map((d) => ({ target: d.target, format: d.format, readonly: d.readonly === true, device: d.device })),
    virtiofs: (spec?.filesystems ?? []).some((f) => f.driver === 'virtiofs'),
  };
}

/**
 * The disks of a snapshot (or a definition) disagree with what libvirt says: a snapshot libvirt deleted still in a
 * qcow2, a name a disk holds twice or not at all, a revert that did not restore the snapshot's table. `disk`: the
 * target (`vda`).
 */
export class SnapshotDiskError extends Error {
  constructor(
    readonly domain: string,
    readonly disk: string,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotDiskError';
  }
}

/** The pool volume a definition's cdrom (the cloud-init seed) is, if it has one. */
function seedDisk(spec: DomainSpec | null): (DomainDisk & { source: { pool: string; volume: string } }) | undefined {
  return spec?.disks.find(
    (d): d is DomainDisk & { source: { pool: string; volume: string } } => d.device === 'cdrom' && 'pool' in d.source,
  );
}

async function poolVolume(
  client: LibvirtClient,
  pool: string,
  name: string,
  options?: CallOptions,
): Promise<{ pool: PoolRef; vol: VolRef | null } | null> {
  let p: PoolRef;
  try {
    p = await client.storagePoolLookupByName(pool, options);
  } catch (err) {
    if (isMissing(err, VIR_ERR_NO_STORAGE_POOL)) return null;
    throw err;
  }
  try {
    return { pool: p, vol: await client.storageVolLookupByName(p, name, options) };
  } catch (err) {
    if (isMissing(err, VIR_ERR_NO_STORAGE_VOL)) return { pool: p, vol: null };
    throw err;
  }
}

/** The writable qcow2 disks of a definition, each with its volume (a file source by its path), in order. */
async function qcow2Disks(
  client: LibvirtClient,
  spec: DomainSpec | null,
  options?: CallOptions,
): Promise<{ target: string; vol: VolRef }[]> {
  const out: { target: string; vol: VolRef }[] = [];
  for (const d of spec?.disks ?? []) {
    if (d.device !== 'disk' || d.readonly || d.format !== 'qcow2') continue;
    const vol =
      'pool' in d.source
        ? ((await poolVolume(client, d.source.pool, d.source.volume, options))?.vol ?? null)
        : await client.storageVolLookupByPath(d.source.file, options).catch((err) => {
            if (isMissing(err, VIR_ERR_NO_STORAGE_VOL)) return null;
            throw err;
          });
    if (vol) out.push({ target: d.target, vol });
  }
  return out;
}

/** The header and snapshot table of a qcow2 volume, read from its bytes (src/snapshot/qcow2). */
async function readQcow2(
  client: LibvirtClient,
  vol: VolRef,
  options?: CallOptions,
): Promise<{ header: Qcow2Header; snapshots: Qcow2Snapshot[] }> {
  const header = parseQcow2Header(await client.storageVolDownload(vol, 0, QCOW2_HEADER_BYTES, options));
  if (header.nbSnapshots === 0) return { header, snapshots: [] };
  for (let length = Math.max(4096, header.nbSnapshots * 128); ; length *= 2) {
    const snapshots = parseQcow2Snapshots(
      await client.storageVolDownload(vol, header.snapshotsOffset, length, options),
      header.nbSnapshots,
    );
    if (snapshots) return { header, snapshots };
    if (length > 64 * 2 ** 20) throw new Error(`the snapshot table of volume ${vol.name} is not readable (over 64 MiB)`);
  }
}

/**
 * The internal snapshots each writable qcow2 disk of the domain's persistent definition holds on disk (its qcow2
 * snapshot table, not libvirt's record), by target.
 */
export async function diskSnapshots(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<Map<string, Qcow2Snapshot[]>> {
  const out = new Map<string, Qcow2Snapshot[]>();
  for (const d of await qcow2Disks(client, await definition(client, dom, options), options))
    out.set(d.target, (await readQcow2(client, d.vol, options)).snapshots);
  return out;
}

/** Every snapshot name a disk of the domain holds (libvirt's record aside), each once. */
export async function diskSnapshotNames(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<string[]> {
  return [...new Set([...(await diskSnapshots(client, dom, options)).values()].flat().map((s) => s.name))];
}

/** Writes the bytes of `from` into `to` (./volume-bytes.ts writeVolumeBytes); returns the volume written. */
export async function copyVolumeContent(client: LibvirtClient, from: VolRef, to: VolRef, options?: CallOptions): Promise<VolRef> {
  return writeVolumeBytes(client, to, await client.storageVolDownload(from, 0, 0, options), options);
}

/** Copies volume `from` into a new raw volume `name` of `pool` (one left from before is replaced). */
async function cloneVolume(client: LibvirtClient, pool: PoolRef, name: string, from: VolRef, options?: CallOptions): Promise<VolRef> {
  const old = await poolVolume(client, pool.name, name, options);
  if (old?.vol) await client.storageVolDelete(old.vol, 0, options);
  const { capacity } = await client.storageVolGetInfo(from, options);
  const xml = `<volume><name>${escapeXml(name)}</name><capacity unit='bytes'>${capacity}</capacity><target><format type='raw'/></target></volume>`;
  return client.storageVolCreateXmlFrom(pool, xml, from, 0, options);
}

/**
 * The name of the copy of the seed a domain's guest last booted with (`<domain>.booted-seed`, in the seed's pool):
 * kept while `snapshot_before` is on, because an apply that re-provisions has rewritten the seed before it takes its
 * snapshot, so that snapshot's seed copy must come from here. No snapshot's seed copy (`<domain>.<snapshot>.seed`)
 * can have this name.
 */
function bootedSeedName(domain: string): string {
  return `${domain}.booted-seed`;
}

/**
 * The domain's seed volume (its cdrom's pool volume) and its pool, if it has one that exists. `definitionXml`: the
 * domain's persistent definition when the caller has just read it (else it is asked for). A definition without any
 * pool source has no seed and is not parsed.
 */
export async function domainSeedVolume(
  client: LibvirtClient,
  dom: DomRef,
  options?: CallOptions,
  definitionXml?: string,
): Promise<{ pool: PoolRef; vol: VolRef } | null> {
  const xml = definitionXml ?? (await client.domainGetXmlDesc(dom, VIR_DOMAIN_XML_INACTIVE, options));
  const seed = /<source\b[^>]*\bpool=/.test(xml) ? seedDisk(parsedOrNull(xml)) : undefined;
  const found = seed ? await poolVolume(client, seed.source.pool, seed.source.volume, options) : null;
  return found?.vol ? { pool: found.pool, vol: found.vol } : null;
}

/** The copy of the seed the guest last booted with (bootedSeedName), or null when there is none. `definitionXml`:
 *  as for domainSeedVolume. */
export async function bootedSeed(
  client: LibvirtClient,
  dom: DomRef,
  options?: CallOptions,
  definitionXml?: string,
): Promise<VolRef | null> {
  const seed = await domainSeedVolume(client, dom, options, definitionXml);
  return seed ? ((await poolVolume(client, seed.pool.name, bootedSeedName(dom.name), options))?.vol ?? null) : null;
}

/** Copies the domain's seed volume now to bootedSeedName (replacing an older copy); false when it has no seed volume. */
export async function keepBootedSeed(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<boolean> {
  const seed = await domainSeedVolume(client, dom, options);
  if (!seed) return false;
  await cloneVolume(client, seed.pool, bootedSeedName(dom.name), seed.vol, options);
  return true;
}

/** Deletes the copy of the booted seed, if there is one. `definitionXml`: as for domainSeedVolume. */
export async function dropBootedSeed(client: LibvirtClient, dom: DomRef, options?: CallOptions, definitionXml?: string): Promise<void> {
  const copy = await bootedSeed(client, dom, options, definitionXml);
  if (copy)
    await client.storageVolDelete(copy, 0, options).catch((err) => {
      if (!isMissing(err, VIR_ERR_NO_STORAGE_VOL)) throw err;
    });
}

/** Options of takeSnapshot. */
export interface TakeSnapshotOptions extends CallOptions {
  readonly name: string;
  readonly description?: string;
  /** true: the guest's memory too (it must run); false: its disks only (it must be shut off); absent: by its state. */
  readonly memory?: boolean;
  /**
   * The seed content to keep with a `disk` snapshot (default: the seed volume now). An apply that re-provisions
   * has already rewritten the seed when it takes its snapshot, so it passes the copy of the seed the guest booted.
   */
  readonly seedFrom?: VolRef;
}

/**
 * Takes an internal snapshot of `dom` (kinds: ./kinds), with a seed copy for a `disk` snapshot of a domain whose
 * cdrom is a pool volume. Returns what libvirt recorded.
 * @throws SnapshotRefusedError when snapshotKind refuses (nothing is created); SnapshotDiskError when a disk already
 *   holds a snapshot of that name (libvirt would add a second); LibvirtError from libvirt (e.g.
 *   VIR_ERR_OPERATION_FAILED when the name is taken; the seed copy is removed again).
 */
export async function takeSnapshot(
  client: LibvirtClient,
  dom: DomRef,
  opts: TakeSnapshotOptions,
): Promise<{ info: SnapshotInfo; kind: SnapshotKind }> {
  const [spec, subject] = await Promise.all([definition(client, dom, opts), snapshotSubject(client, dom, opts)]);
  const decision = snapshotKind(subject, opts.memory);
  if (!decision.ok) throw new SnapshotRefusedError(dom.name, decision.problem, decision.fix);
  for (const [target, held] of await diskSnapshots(client, dom, opts)) {
    const same = held.filter((s) => s.name === opts.name);
    if (same.length)
      throw new SnapshotDiskError(
        dom.name,
        target,
        `Cannot snapshot domain ${dom.name} as ${opts.name}: disk ${target} already holds a snapshot of that name (qcow2 id ${same.map((s) => s.id).join(', ')}), and a revert of a name held twice restores the older one. Choose another name, or remove the old one while the domain is shut off (qemu-img snapshot -d ${same[0].id} <image>).`,
      );
  }
  let copy: VolRef | null = null;
  const seed = decision.kind === 'disk' ? seedDisk(spec) : undefined;
  if (seed) {
    const found = await poolVolume(client, seed.source.pool, seed.source.volume, opts);
    const from = opts.seedFrom ?? found?.vol ?? null;
    if (found && from) copy = await cloneVolume(client, found.pool, seedCopyName(dom.name, opts.name), from, opts);
  }
  let snap: SnapRef;
  try {
    snap = await client.domainSnapshotCreateXml(dom, renderSnapshotRequest({ name: opts.name, description: opts.description }), 0, opts);
  } catch (err) {
    if (copy) await client.storageVolDelete(copy, 0).catch(() => undefined);
    throw err;
  }
  // Taken: its seed copy stays with it, also when reading it back fails.
  return { info: await describeSnapshot(client, snap, opts), kind: decision.kind };
}

/** The snapshot's description. */
export async function describeSnapshot(client: LibvirtClient, snap: SnapRef, options?: CallOptions): Promise<SnapshotInfo> {
  return parseSnapshotXml(await client.domainSnapshotGetXmlDesc(snap, VIR_DOMAIN_SNAPSHOT_XML_SECURE, options));
}

/** Snapshot `name` of `dom`, or null when it has none of that name. */
export async function findSnapshot(client: LibvirtClient, dom: DomRef, name: string, options?: CallOptions): Promise<SnapshotInfo | null> {
  try {
    return await describeSnapshot(client, await client.domainSnapshotLookupByName(dom, name, options), options);
  } catch (err) {
    if (isMissing(err, VIR_ERR_NO_DOMAIN_SNAPSHOT)) return null;
    throw err;
  }
}

/** Every snapshot of `dom`, parents before children. */
export async function listSnapshots(client: LibvirtClient, dom: DomRef, options?: CallOptions): Promise<SnapshotInfo[]> {
  const snaps = await client.domainListAllSnapshots(dom, VIR_DOMAIN_SNAPSHOT_LIST_TOPOLOGICAL, options);
  return Promise.all(snaps.map((s) => describeSnapshot(client, s, options)));
}

/** Sets (or, with null, removes) a snapshot's description: a REDEFINE of its metadata; its data stays as it is. */
export async function setSnapshotDescription(
  client: LibvirtClient,
  dom: DomRef,
  name: string,
  description: string | null,
  options?: CallOptions,
): Promise<SnapshotInfo> {
  const snap = await client.domainSnapshotLookupByName(dom, name, options);
  const xml = await client.domainSnapshotGetXmlDesc(snap, VIR_DOMAIN_SNAPSHOT_XML_SECURE, options);
  let current = false;
  try {
    current = (await client.domainSnapshotCurrent(dom, options)).name === name;
  } catch (err) {
    if (!isMissing(err, VIR_ERR_NO_DOMAIN_SNAPSHOT)) throw err;
  }
  const flags = VIR_DOMAIN_SNAPSHOT_CREATE_REDEFINE | (current ? VIR_DOMAIN_SNAPSHOT_CREATE_CURRENT : 0);
  return describeSnapshot(
    client,
    await client.domainSnapshotCreateXml(dom, withSnapshotDescription(xml, description), flags, options),
    options,
  );
}

/** The seed copy volume of a snapshot (in the pool of the seed its saved definition names), if there is one. */
async function seedCopyOf(client: LibvirtClient, dom: DomRef, info: SnapshotInfo, options?: CallOptions): Promise<VolRef | null> {
  let spec: DomainSpec | null = null;
  try {
    spec = info.domainXml ? parseDomainXml(info.domainXml) : null;
  } catch {
    spec = null;
  }
  const seed = seedDisk(spec);
  if (!seed) return null;
  return (await poolVolume(client, seed.source.pool, seedCopyName(dom.name, info.name), options))?.vol ?? null;
}

/**
 * Deletes snapshot `name` of `dom` (its data in the qcow2 disks too, verified there) and its seed copy. Returns false
 * when the domain has no such snapshot.
 * @throws SnapshotRefusedError when libvirt would not delete it from the disks now (snapshotDeletion: a running
 *   UEFI guest; nothing is deleted); SnapshotDiskError when a disk still holds it after libvirt's delete.
 */
export async function deleteSnapshot(client: LibvirtClient, dom: DomRef, name: string, options?: CallOptions): Promise<boolean> {
  let snap: SnapRef;
  try {
    snap = await client.domainSnapshotLookupByName(dom, name, options);
  } catch (err) {
    if (isMissing(err, VIR_ERR_NO_DOMAIN_SNAPSHOT)) return false;
    throw err;
  }
  const can = snapshotDeletion(await snapshotSubject(client, dom, options));
  if (!can.ok) throw new SnapshotRefusedError(dom.name, can.problem, can.fix, `delete snapshot ${name} of domain ${dom.name} now`);
  const info = await describeSnapshot(client, snap, options);
  const copy = await seedCopyOf(client, dom, info, options);
  await client.domainSnapshotDelete(snap, 0, options);
  const internal = new Set(info.disks.filter((d) => d.snapshot === 'internal').map((d) => d.name));
  for (const [target, held] of await diskSnapshots(client, dom, options)) {
    const left = held.filter((s) => s.name === name);
    if (internal.has(target) && left.length > 0)
      throw new SnapshotDiskError(
        dom.name,
        target,
        `libvirt deleted its record of snapshot ${name} of domain ${dom.name}, but disk ${target} still holds it (qcow2 id ${left.map((s) => s.id).join(', ')}); remove it while the domain is shut off: qemu-img snapshot -d ${left[0].id} <image>`,
      );
  }
  if (copy)
    await client.storageVolDelete(copy, 0, options).catch((err) => {
      if (!isMissing(err, VIR_ERR_NO_STORAGE_VOL)) throw err;
    });
  return true;
}

/** Each qcow2 disk the snapshot holds, with its one entry of the snapshot in that disk's table. */
async function snapshotImages(
  client: LibvirtClient,
  dom: DomRef,
  info: SnapshotInfo,
  options?: CallOptions,
): Promise<{ target: string; vol: VolRef; entry: Qcow2Snapshot }[]> {
  const internal = new Set(info.disks.filter((d) => d.snapshot === 'internal').map((d) => d.name));
  let spec: DomainSpec | null = null;
  try {
    spec = info.domainXml ? parseDomainXml(info.domainXml) : await definition(client, dom, options);
  } catch {
    spec = await definition(client, dom, options);
  }
  const out: { target: string; vol: VolRef; entry: Qcow2Snapshot }[] = [];
  for (const d of await qcow2Disks(client, spec, options)) {
    if (!internal.has(d.target)) continue;
    const held = (await readQcow2(client, d.vol, options)).snapshots.filter((s) => s.name === info.name);
    if (held.length !== 1)
      throw new SnapshotDiskError(
        dom.name,
        d.target,
        held.length === 0
          ? `Cannot revert domain ${dom.name} to snapshot ${info.name}: disk ${d.target} does not hold it (libvirt's record and the qcow2 disagree); nothing was reverted.`
          : `Cannot revert domain ${dom.name} to snapshot ${info.name}: disk ${d.target} holds ${held.length} snapshots of that name (qcow2 ids ${held.map((s) => s.id).join(', ')}), and a revert would restore the oldest, not necessarily the one libvirt describes; nothing was reverted. Remove the stale ones while the domain is shut off (qemu-img snapshot -d <id> <image>).`,
      );
    out.push({ ...d, entry: held[0] });
  }
  return out;
}

/** After a revert that left the domain shut off: each disk's active L1 table is its snapshot's (QEMU copies it). */
async function checkReverted(
  client: LibvirtClient,
  dom: DomRef,
  name: string,
  disks: readonly { target: string; vol: VolRef; entry: Qcow2Snapshot }[],
  options?: CallOptions,
): Promise<void> {
  for (const d of disks) {
    const { header } = await readQcow2(client, d.vol, options);
    if (header.l1Size === 0 && d.entry.l1Size === 0) continue; // (a length of 0 downloads the whole volume)
    const [active, saved] = await Promise.all([
      client.storageVolDownload(d.vol, header.l1TableOffset, header.l1Size * 8, options),
      client.storageVolDownload(d.vol, d.entry.l1TableOffset, d.entry.l1Size * 8, options),
    ]);
    if (header.l1Size !== d.entry.l1Size || !sameL1Table(active, saved))
      throw new SnapshotDiskError(
        dom.name,
        d.target,
        `The revert of domain ${dom.name} to snapshot ${name} did not restore disk ${d.target} to it (its active L1 table is not the snapshot's, qcow2 id ${d.entry.id}).`,
      );
  }
}

/** What revertSnapshot did. */
export interface RevertResult {
  readonly info: SnapshotInfo;
  /** The seed volume rewritten with the snapshot's seed copy, if any. */
  readonly seedRestored: VolRef | null;
  /** The domain runs after the revert (a `memory` snapshot resumes it; `start` boots a `disk` one). */
  readonly running: boolean;
}

/**
 * Reverts `dom` to snapshot `name`: its disks and its definition (libvirt restores the one saved with the snapshot)
 * and, for a snapshot with memory, the running guest. A snapshot of a shut-off guest leaves it shut off; with
 * `start` it is started after its seed copy (if any) was written back into its seed volume, so it boots on the
 * instance-id it had. `restoreSeed: false` leaves the seed volume as it is.
 * The disks are checked before and after: each disk in the snapshot must hold exactly one qcow2 snapshot of that
 * name (a name held twice would restore the oldest), and after a revert that leaves the domain shut off each disk's
 * active L1 table is the snapshot's (what QEMU's revert copies), so the disks are exactly as the snapshot holds them.
 * @throws LibvirtError (VIR_ERR_NO_DOMAIN_SNAPSHOT when there is no such snapshot); SnapshotDiskError when a disk
 *   does not hold the snapshot once (nothing was reverted) or after the revert is not as the snapshot holds it.
 */
export async function revertSnapshot(
  client: LibvirtClient,
  dom: DomRef,
  name: string,
  opts: CallOptions & { start?: boolean; restoreSeed?: boolean } = {},
): Promise<RevertResult> {
  const snap = await client.domainSnapshotLookupByName(dom, name, opts);
  const info = await describeSnapshot(client, snap, opts);
  const copy = opts.restoreSeed === false ? null : await seedCopyOf(client, dom, info, opts);
  const disks = await snapshotImages(client, dom, info, opts);
  await client.domainRevertToSnapshot(snap, 0, opts);
  if (!isActiveState((await client.domainGetState(dom, opts)).state)) await checkReverted(client, dom, name, disks, opts);
  let seedRestored: VolRef | null = null;
  if (copy && !hasMemory(info)) {
    const seed = seedDisk(await definition(client, dom, opts));
    const target = seed ? await poolVolume(client, seed.source.pool, seed.source.volume, opts) : null;
    if (target?.vol) {
      seedRestored = await copyVolumeContent(client, copy, target.vol, opts);
    }
  }
  let running = isActiveState((await client.domainGetState(dom, opts)).state);
  if (!running && opts.start) {
    await client.domainCreate(dom, opts);
    running = true;
  }
  return { info, seedRestored, running };
}
