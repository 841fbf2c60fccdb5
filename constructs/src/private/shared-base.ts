/**
 * Shared base volumes: one `Volume` per (stack, pool, image location, format, sha256), kept in one container
 * construct of the stack, so N virtual machines on one image upload it once. A base volume is created only when a
 * virtual machine asks for it, so it leaves the configuration (and Terraform destroys it) with the last one.
 */
import { createHash } from 'node:crypto';
import { TerraformStack, Token } from 'cdktf';
import { Construct } from 'constructs';
import { invalidValue } from '../errors';
import type { ImageChecksums, ImageSignature } from '../base-image';
import { Volume, VolumeFormat } from '../volume';
import { checkName } from './names';
import { poolRefOf } from './pool-ref';
import type { StoragePool } from '../storage-pool';

/** An uploaded base image, as `BaseImage` describes it. */
export interface SharedImage {
  /** The pool: a name, or a StoragePool of the stack (keyed by its name). */
  readonly pool: string | StoragePool;
  readonly source: string;
  readonly format: VolumeFormat;
  readonly sha256?: string;
  readonly volumeName?: string;
  readonly checksums?: ImageChecksums;
  readonly signature?: ImageSignature;
}

/** Construct id of the container under the stack. */
const CONTAINER_ID = 'VirtseedBaseImages';
const MAX_NAME = 63;

/** The container of a stack's shared base volumes, by key and by volume name. */
class SharedBaseImages extends Construct {
  readonly byKey = new Map<string, Volume>();
  readonly keyByName = new Map<string, string>();
}

/** Hex sha256 identifying a base image within a stack (pure, deterministic). */
export function baseImageKey(stackPath: string, image: SharedImage): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        stackPath,
        poolRefOf(image.pool).name,
        image.source,
        image.format,
        image.sha256?.toLowerCase() ?? null,
        // Only verified images carry these (older keys stay as they were).
        ...(image.checksums
          ? [image.checksums.url, image.checksums.algorithm ?? null, image.signature?.url ?? null, image.signature?.key ?? null]
          : []),
      ]),
    )
    .digest('hex');
}

/**
 * The default base volume name: the image's file name without extension (URL path and query aside; characters
 * outside `[A-Za-z0-9._-]` become `-`), a dash, and the key's first 12 hex digits. `base-<12 hex>` when the
 * location is a token or yields nothing usable.
 */
export function defaultBaseVolumeName(source: string, key: string): string {
  const suffix = `-${key.slice(0, 12)}`;
  let stem = '';
  if (!Token.isUnresolved(source)) {
    const file =
      source
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '')
        .split('/')
        .pop() ?? '';
    stem = file
      .replace(/\.(qcow2|img|raw|qcow)$/i, '')
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '');
  }
  if (!stem) stem = 'base';
  return stem.slice(0, MAX_NAME - suffix.length) + suffix;
}

/**
 * The stack's base volume for `image`, created on first use. Throws ConstructPropsError when `volumeName` names
 * a base volume of another image in the same stack.
 */
export function sharedBaseVolume(scope: Construct, image: SharedImage): Volume {
  const stack = TerraformStack.of(scope);
  const container = (stack.node.tryFindChild(CONTAINER_ID) as SharedBaseImages | undefined) ?? new SharedBaseImages(stack, CONTAINER_ID);
  const key = baseImageKey(stack.node.path, image);
  const existing = container.byKey.get(key);
  if (existing) {
    if (image.volumeName !== undefined && image.volumeName !== existing.name) {
      throw invalidValue(
        'BaseImage.volumeName',
        image.volumeName,
        `'${existing.name}' (the name another virtual machine gave this image's shared base volume) or no volumeName`,
      );
    }
    return existing;
  }
  const name = image.volumeName ?? defaultBaseVolumeName(image.source, key);
  checkName('BaseImage.volumeName', name);
  if (container.keyByName.has(name)) {
    throw invalidValue('BaseImage.volumeName', name, 'a name no other base image of this stack uses (each image needs its own volume)');
  }
  const volume = new Volume(container, `Base-${key.slice(0, 16)}`, {
    pool: image.pool,
    name,
    source: image.source,
    format: image.format,
    sha256: image.sha256,
    checksums: image.checksums,
    signature: image.signature,
  });
  container.byKey.set(key, volume);
  container.keyByName.set(name, key);
  return volume;
}
