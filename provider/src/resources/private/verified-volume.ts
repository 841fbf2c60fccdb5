/**
 * `virtseed_volume` with `checksum_url`: a cloud image verified against its distribution's checksum file (and
 * the file's OpenPGP signature when `signature_key` is given), kept once per pool in a cache volume named by its
 * digest (checksums.ts `cacheVolumeName`), and the resource's own volume a qcow2 overlay on it. So another volume on
 * the same image — in this stack or another — uploads nothing: it finds the cache by name. The cache volume is
 * not in any Terraform state; the destroy of the last volume on it (the last whose backing file it is) deletes it.
 * A cache volume is only ever created under its pending marker and only completed after the digest matched, so
 * one found by name holds verified bytes.
 */
import { error, type Diagnostic } from '../../../../src/diagnostics';
import type { LibvirtClient, PoolRef, VolRef } from '../../../../src/libvirt';
import type { HandlerContext } from '../../handler';
import { cacheVolumeName, ChecksumFileError, expectedDigest, type ChecksumSource, type ExpectedDigest } from './checksums';
import { poolByName, volumeByName } from './lookups';
import type { VolumeState } from './model';
import { backingPathFromXml, createMarked, removeInterrupted, VolumeCreatedError, volumeFormatFromXml, volumeXml } from './storage';
import { ChecksumMismatchError, createVolumeFromSource, UploadVerificationError } from './upload';
import { known, str } from './values';

/** The checksum settings of a (wholly known) state or config, or undefined without `checksum_url`. */
export function checksumSource(s: VolumeState): ChecksumSource | undefined {
  const checksumUrl = str(s.checksum_url);
  if (!checksumUrl) return undefined;
  return {
    checksumUrl,
    ...(known(s.checksum_algorithm) ? { algorithm: known(s.checksum_algorithm) } : {}),
    ...(str(s.signature_url) ? { signatureUrl: str(s.signature_url) } : {}),
    ...(str(s.signature_key) ? { signatureKey: str(s.signature_key) } : {}),
  };
}

/** The `digest` attribute of an entry: `<algorithm>:<hex>`. */
function digestAttribute(e: { algorithm: string; digest: string }): string {
  return `${e.algorithm}:${e.digest}`;
}

/** The checks of the verification attributes against the others (config alone). */
export function verificationDiagnostics(c: VolumeState): Diagnostic[] {
  const d: Diagnostic[] = [];
  const verified = c.checksum_url !== null;
  if (verified && c.source === null)
    d.push(
      error(['checksum_url'], 'checksum_url without source', 'checksum_url verifies the image in source; set source too, or remove it.'),
    );
  if (verified && c.sha256 !== null)
    d.push(
      error(
        ['sha256'],
        'Conflicting attributes',
        "Set either sha256 (a digest you pin) or checksum_url (the publisher's checksum file), not both.",
      ),
    );
  if (verified && known(c.format) === 'raw')
    d.push(
      error(
        ['format'],
        'Invalid format',
        'A verified image volume is a qcow2 overlay on the shared cache volume of the image; format must be qcow2 (or unset).',
      ),
    );
  for (const attr of ['checksum_algorithm', 'signature_url', 'signature_key'] as const)
    if (c[attr] !== null && !verified)
      d.push(
        error(
          [attr],
          `${attr} without checksum_url`,
          `${attr} belongs to the verification of source by its checksum file; set checksum_url too, or remove ${attr}.`,
        ),
      );
  if (c.signature_url !== null && c.signature_key === null)
    d.push(
      error(
        ['signature_url'],
        'signature_url without signature_key',
        "A signature is checked against the publisher's public key: set signature_key (an armored OpenPGP public key).",
      ),
    );
  return d;
}

/** The diagnostic of a checksum file or signature that gives no trusted digest, on the attribute at fault. */
function checksumFileDiagnostic(label: string, err: ChecksumFileError): Diagnostic {
  return err.part === 'signature'
    ? error(['signature_key'], 'Checksum file signature not valid', `${label}: ${err.message}. Nothing was created.`)
    : error(['checksum_url'], 'No verified digest for the image', `${label}: ${err.message} Nothing was created.`);
}

/**
 * The digest a plan shows for a new verified volume: read from the checksum file (signature checked) at plan, so
 * a bad file or signature fails the plan. Returns the `digest` attribute, or diagnostics.
 */
export async function planDigest(
  source: string,
  from: ChecksumSource,
  label: string,
  signal?: AbortSignal,
): Promise<string | Diagnostic[]> {
  try {
    return digestAttribute(await expectedDigest(source, from, signal));
  } catch (err) {
    if (err instanceof ChecksumFileError) return [checksumFileDiagnostic(label, err)];
    throw err;
  }
}

/** The cache volume of `entry` in `pool`, uploaded and verified when the pool does not have it yet. */
async function cacheVolume(
  client: LibvirtClient,
  pool: PoolRef,
  source: string,
  entry: ExpectedDigest,
  ctx: HandlerContext<LibvirtClient>,
): Promise<VolRef> {
  const name = cacheVolumeName(entry);
  const opts = { signal: ctx.signal };
  if (await removeInterrupted(client, pool, name, opts))
    ctx.log.info(`volume ${pool.name}/${name}: removed what an interrupted upload left`);
  const found = await volumeByName(client, pool, name, opts);
  if (found) {
    ctx.log.info(`volume ${pool.name}/${name}: the verified image is cached in the pool; nothing to upload`);
    return found;
  }
  try {
    return (await createVolumeFromSource(client, pool, { name, source, entry }, ctx)).vol;
  } catch (err) {
    // The cache volume is the pool's, not the resource's: not returned as the resource's partial state. Complete, it
    // is found by its name next time; its marker left, the next apply uploads it again.
    if (err instanceof VolumeCreatedError) throw err.reason;
    throw err;
  }
}

/**
 * Creates the verified volume `name` in `pool`: reads the expected digest (signature checked), makes sure the
 * pool holds the verified image in its cache volume, and creates `name` as a qcow2 overlay on it of at least
 * `capacity` bytes. Returns the volume and its `digest` attribute, or diagnostics (nothing created: a mismatch
 * deletes the upload, a changed checksum file since the plan stops before anything is made).
 */
export async function createVerifiedVolume(
  client: LibvirtClient,
  pool: PoolRef,
  spec: { name: string; source: string; from: ChecksumSource; capacity?: number; plannedDigest?: string },
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ vol: VolRef; digest: string } | { diagnostics: Diagnostic[] }> {
  const label = `Volume ${pool.name}/${spec.name}`;
  let entry: ExpectedDigest;
  try {
    entry = await expectedDigest(spec.source, spec.from, ctx.signal);
  } catch (err) {
    if (err instanceof ChecksumFileError) return { diagnostics: [checksumFileDiagnostic(label, err)] };
    throw err;
  }
  const digest = digestAttribute(entry);
  if (spec.plannedDigest !== undefined && spec.plannedDigest !== digest)
    return {
      diagnostics: [
        error(
          ['checksum_url'],
          'Checksum file changed since the plan',
          `${label}: the checksum file listed ${spec.plannedDigest} for ${entry.fileName} at plan and lists ${digest} now (a new image was published). Nothing was created; run terraform plan again.`,
        ),
      ],
    };
  let cache: VolRef;
  try {
    cache = await cacheVolume(client, pool, spec.source, entry, ctx);
  } catch (err) {
    if (err instanceof ChecksumMismatchError)
      return { diagnostics: [error(['source'], 'Image does not match its checksum file', `${label}: ${err.message}`)] };
    if (err instanceof UploadVerificationError) return { diagnostics: [error(['source'], 'Upload not verified', err.message)] };
    throw err;
  }
  const opts = { signal: ctx.signal };
  const [info, path, xml] = await Promise.all([
    client.storageVolGetInfo(cache, opts),
    client.storageVolGetPath(cache, opts),
    client.storageVolGetXmlDesc(cache, 0, opts),
  ]);
  if (spec.capacity !== undefined && spec.capacity < info.capacity)
    return {
      diagnostics: [
        error(
          ['capacity'],
          'Capacity below the source',
          `${label}: capacity is ${spec.capacity} bytes, but its source's virtual size is ${info.capacity} bytes: a volume cannot be smaller than the image it holds. Remove capacity (the volume takes the source's size) or set capacity to at least ${info.capacity}.`,
        ),
      ],
    };
  const capacity = Math.max(spec.capacity ?? 0, info.capacity);
  const overlay = volumeXml({ name: spec.name, capacity, format: 'qcow2', backing: { path, format: volumeFormatFromXml(xml) ?? 'raw' } });
  const vol = await createMarked(client, pool, spec.name, overlay, async () => undefined, opts);
  return { vol, digest };
}

/**
 * After a verified volume of `pool` with `digest` is deleted: deletes the image's cache volume unless another
 * volume of the pool still has it as its backing file. A cache already gone, or a pool gone, is fine.
 */
export async function releaseCache(
  client: LibvirtClient,
  poolName: string,
  digest: string,
  ctx: HandlerContext<LibvirtClient>,
): Promise<void> {
  const [algorithm, hex] = digest.split(':');
  if (!algorithm || !hex) return;
  const pool = await poolByName(client, poolName);
  if (!pool || !(await client.storagePoolIsActive(pool))) return;
  const name = cacheVolumeName({ algorithm: algorithm as ExpectedDigest['algorithm'], digest: hex });
  const cache = await volumeByName(client, pool, name);
  if (!cache) return;
  const cachePath = await client.storageVolGetPath(cache);
  for (const vol of await client.storagePoolListAllVolumes(pool, 0)) {
    if (vol.name === name) continue;
    if (backingPathFromXml(await client.storageVolGetXmlDesc(vol, 0)) === cachePath) return;
  }
  await client.storageVolDelete(cache, 0);
  ctx.log.info(`volume ${poolName}/${name}: deleted the image cache, no volume uses it any more`);
}
