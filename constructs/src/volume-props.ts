/**
 * Properties of a {@link Volume} and of {@link BaseImage}'s factories, and the types they share (image format,
 * checksums, signature), in a file of their own so volume.ts and base-image.ts need not import each other.
 */
import type { Size } from './size';
import type { StoragePool } from './storage-pool';

/** Disk image format of a volume (src/fields/volume.ts `VOLUME_FORMATS`; test/constructs/src/enums-table.test.ts holds them equal). */
export type VolumeFormat = 'qcow2' | 'raw';

/** Properties of a {@link Volume}. */
export interface VolumeProps {
  /** Volume name in the pool, e.g. `web-root`. Changing it: replaces the volume. */
  readonly name: string;
  /**
   * Storage pool holding the volume: a pool's name, or a {@link StoragePool} of the stack (the volume then refers to
   * it, so Terraform creates the pool first and deletes the volume before the pool).
   * @default 'default'
   */
  readonly pool?: string | StoragePool;
  /**
   * The libvirt host (a {@link HostPool} host's name, or a placement's host).
   * @default - the provider's default host (`uri`)
   */
  readonly host?: string;
  /**
   * Image format.
   * @default 'qcow2'
   */
  readonly format?: VolumeFormat;
  /**
   * Virtual size. Growing it later resizes in place; shrinking is refused by the provider.
   * @default - the size of `source` or of `backingVolume`
   */
  readonly capacity?: Size;
  /**
   * Key/path of a base volume: the new volume is a qcow2 overlay on it (copy-on-write).
   * @default - no backing volume
   */
  readonly backingVolume?: string;
  /**
   * Local file path or http(s) URL of an image uploaded into the volume.
   * @default - an empty volume
   */
  readonly source?: string;
  /**
   * `source` as a secret: a URL whose credentials (`https://user:${pw}@host/image.qcow2`) or query are secret, given
   * as a Terraform reference (`secretVariable(this, 'pw').stringValue` inside the URL, `Fn.file(path)`) and sent to
   * the provider's write-only `source_wo`: never written into `cdk.tf.json`, the plan or the state. Exclusive with
   * `source` and `backingVolume`. Changing it: replaces the volume.
   * @default - no secret source
   */
  readonly sourceSecret?: string;
  /**
   * sha256 (64 hex digits) of `source`'s bytes: the provider verifies it while uploading and fails the deploy,
   * keeping no volume, when it differs. Changing it: replaces the volume.
   * @default - not verified
   */
  readonly sha256?: string;
  /**
   * Verify `source` against its distribution's checksum file: the volume is then a qcow2 overlay on the pool's
   * verified cache of the image (see {@link BaseImage.fromUrl}). Exclusive with `sha256`.
   * @default - not verified
   */
  readonly checksums?: ImageChecksums;
  /**
   * With `checksums`: the OpenPGP signature of the checksum file and the key it must verify with.
   * @default - the checksum file is not signature-checked
   */
  readonly signature?: ImageSignature;
}

/** Options of {@link BaseImage.fromFile} and {@link BaseImage.fromUrl}. */
export interface BaseImageOptions {
  /**
   * Format of the image file.
   * @default - 'raw' when the name ends in `.raw`, else 'qcow2' (cloud images, also most `.img` files)
   */
  readonly format?: VolumeFormat;
  /**
   * sha256 (64 hex digits) of the image file: the provider verifies the bytes while uploading and fails the deploy,
   * keeping no volume, when they differ (e.g. the `SHA256SUMS` entry a distribution publishes).
   * @default - not verified
   */
  readonly sha256?: string;
  /**
   * Name of the shared base volume the image is uploaded into.
   * @default - `<file name without extension>-<12 hex digits>`, the digits a hash of the stack, pool, image location,
   * format and sha256 (deterministic: the same name at every synth)
   */
  readonly volumeName?: string;
}

/** Where a distribution publishes the checksums of its images (e.g. `SHA256SUMS`, `SHA512SUMS`). */
export interface ImageChecksums {
  /** URL (or local path) of the checksum file published beside the image. */
  readonly url: string;
  /**
   * Which digest to take when the file lists several for the image.
   * @default - the one the file lists
   */
  readonly algorithm?: 'sha256' | 'sha512';
}

/** The OpenPGP signature of a checksum file and the key it must verify with. */
export interface ImageSignature {
  /**
   * URL (or local path) of the detached signature of the checksum file (armored or binary, e.g. `SHA256SUMS.gpg`).
   * @default - none: the checksum file itself must be clearsigned
   */
  readonly url?: string;
  /** The distribution's armored OpenPGP public key (`-----BEGIN PGP PUBLIC KEY BLOCK-----`...). */
  readonly key: string;
}

/** Options of {@link BaseImage.fromUrl}. */
export interface UrlImageOptions extends BaseImageOptions {
  /**
   * Verify the download against the distribution's checksum file, and keep the verified image once per pool in a
   * cache volume named by its digest, shared by every base volume on it (other stacks included), so the image is
   * downloaded once per host and pool. A mismatch fails the deploy naming the file and both digests, keeping no
   * volume. Exclusive with `sha256`.
   * @default - not verified
   */
  readonly checksums?: ImageChecksums;
  /**
   * With `checksums`: the checksum file must carry a valid OpenPGP signature by this key (checked at plan and at
   * deploy).
   * @default - the checksum file is not signature-checked
   */
  readonly signature?: ImageSignature;
}
