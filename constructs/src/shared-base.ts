/**
 * Shared base volumes: one `Volume` per (stack, pool, image location, format, sha256, host), kept in one container
 * construct of the stack, so N virtual machines on one image upload it once per host. A base volume is created only when a
 * virtual machine asks for it, so it leaves the configuration (and Terraform destroys it) with the last one.
 */
import { createHash } from 'node:crypto';
import { Lazy, TerraformStack, Token, type TerraformResource } from 'cdktf';
import { Construct } from 'constructs';
import { invalidValue } from './errors';
import type { ImageChecksums, ImageSignature, VolumeFormat } from './volume-props';
import { Volume } from './volume';
import { checkName } from './private/names';
import { poolRefOf } from './pool-ref';
import type { StoragePool } from './storage-pool';

/** An uploaded base image, as `BaseImage` describes it. */
export interface SharedImage {
  /** The pool: a name, or a StoragePool of the stack (keyed by its name). */
  readonly pool: string | StoragePool;
  readonly source: string;
  /** `source` is a secret reference: given as the volume's `sourceSecret` (write-only `source_wo`). */
  readonly secret?: boolean;
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
  /** Volume name → the image (baseImageKey without host) that uses it. */
  readonly keyByName = new Map<string, string>();
  /** For a base volume on placed hosts (for_each): the placements whose hosts it is made on. */
  readonly placements = new Map<string, TerraformResource[]>();
}

/** Where a virtual machine's base volume goes: a fixed host (or the default one), or its placement's host. */
export type BaseHost = { readonly host?: string } | { readonly placement: TerraformResource };

/** A base volume for one virtual machine: the shared volume, and the key the virtual machine layers on. */
export interface SharedBase {
  readonly volume: Volume;
  readonly volumeId: string;
}

/** The bare Terraform reference `type.name` of a resource (for use inside an expression). */
function ref(r: TerraformResource): string {
  return `${r.terraformResourceType}.${r.friendlyUniqueId}`;
}

/** Hex sha256 identifying a base image within a stack, on `host` when given (pure, deterministic). */
export function baseImageKey(stackPath: string, image: SharedImage, host: string | null = null): string {
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
        // Only a base on a named (or placed) host carries it: the default host's keys stay as they were.
        ...(host !== null ? [host] : []),
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
 * The stack's base volume for `image` on `where`'s host, created on first use. On a fixed host (or the default
 * one) it is one volume per (pool, image, host). On placed hosts it is one `for_each` volume per (pool, image) with
 * an instance on each host a placement chose (the set is known at plan, when the placements choose): the image is
 * uploaded once per host in use, and a virtual machine layers on the instance of its placement's host.
 * @throws ConstructPropsError when `volumeName` names a base volume of another image in the same stack.
 */
export function sharedBaseVolume(scope: Construct, image: SharedImage, where: BaseHost = {}): SharedBase {
  const stack = TerraformStack.of(scope);
  const container = (stack.node.tryFindChild(CONTAINER_ID) as SharedBaseImages | undefined) ?? new SharedBaseImages(stack, CONTAINER_ID);
  const placement = 'placement' in where ? where.placement : undefined;
  const host = 'placement' in where ? '*placed*' : (where.host ?? null);
  const key = baseImageKey(stack.node.path, image, host);
  let volume = container.byKey.get(key);
  if (volume) {
    if (image.volumeName !== undefined && image.volumeName !== volume.name) {
      throw invalidValue(
        'BaseImage.volumeName',
        image.volumeName,
        `'${volume.name}' (the name another virtual machine gave this image's shared base volume) or no volumeName`,
      );
    }
  } else {
    // One name per image: the same image on several hosts keeps its name (each host has its own pool).
    const imageKey = baseImageKey(stack.node.path, image);
    const name = image.volumeName ?? defaultBaseVolumeName(image.source, imageKey);
    checkName('BaseImage.volumeName', name);
    const other = container.keyByName.get(name);
    if (other !== undefined && other !== imageKey) {
      throw invalidValue('BaseImage.volumeName', name, 'a name no other base image of this stack uses (each image needs its own volume)');
    }
    const props = {
      pool: image.pool,
      name,
      ...(image.secret ? { sourceSecret: image.source } : { source: image.source }),
      format: image.format,
      sha256: image.sha256,
      checksums: image.checksums,
      signature: image.signature,
    };
    if (placement) {
      const placements: TerraformResource[] = [];
      container.placements.set(key, placements);
      // for_each over the placements' hosts: Terraform knows them at plan (each placement chooses then).
      volume = new Volume(container, `Base-${key.slice(0, 16)}`, { ...props, host: '${each.value}' });
      volume.resource.addOverride(
        'for_each',
        Lazy.stringValue({ produce: () => `\${toset([${[...new Set(placements.map((p) => `${ref(p)}.host`))].join(', ')}])}` }),
      );
    } else {
      volume = new Volume(container, `Base-${key.slice(0, 16)}`, { ...props, host: host ?? undefined });
    }
    container.byKey.set(key, volume);
    container.keyByName.set(name, imageKey);
  }
  if (!placement) return { volume, volumeId: volume.volumeId };
  container.placements.get(key)!.push(placement);
  const base = volume.resource;
  return { volume, volumeId: Lazy.stringValue({ produce: () => `\${${ref(base)}[${ref(placement)}.host].id}` }) };
}
