import { invalidValue, mutuallyExclusive } from './errors';
import type { BaseImageOptions, ImageChecksums, ImageSignature, UrlImageOptions, VolumeFormat } from './volume-props';
import { secretReference } from './secrets';

/** How a base image is provided: a local file or URL (uploaded into a shared volume), or an existing volume. */
export type BaseImageSource =
  | {
      readonly kind: 'upload';
      readonly source: string;
      /** `source` is a secret reference ({@link BaseImage.fromSecretUrl}). */
      readonly secret?: boolean;
      readonly format: VolumeFormat;
      readonly sha256?: string;
      readonly volumeName?: string;
      readonly checksums?: ImageChecksums;
      readonly signature?: ImageSignature;
    }
  | { readonly kind: 'volume'; readonly volumeId: string };

/**
 * The disk image a virtual machine's root volume is layered on (copy-on-write): any qcow2 cloud image with
 * cloud-init (or Ignition). Value object; create with the static factories.
 *
 * An uploaded image (`fromFile`, `fromUrl`) is shared: every {@link VirtualMachine} of a stack that uses the same
 * image (location, format, sha256) in the same pool layers its root volume on one base volume, so the image is
 * uploaded once. The base volume exists while at least one virtual machine uses it: remove the last one from the
 * stack and the next deploy destroys it.
 */
export class BaseImage {
  /**
   * A local image file, uploaded into a shared base volume (see the class comment).
   * @throws ConstructPropsError when `path` is not a non-empty string.
   */
  static fromFile(path: string, options: BaseImageOptions = {}): BaseImage {
    checkLocation('BaseImage.fromFile path', path, "the image file's path, e.g. './debian-12-genericcloud-amd64.qcow2'");
    return new BaseImage({
      kind: 'upload',
      source: path,
      format: options.format ?? guessFormat(path),
      sha256: options.sha256,
      volumeName: options.volumeName,
    });
  }

  /**
   * An http(s) URL, downloaded by the provider and uploaded into a shared base volume (see the class comment);
   * with `checksums` (and `signature`) verified against the distribution's signed checksum file first.
   * @throws ConstructPropsError for a `url` that is not a non-empty string, `sha256` with `checksums`, a `signature` without `checksums`, or a checksum
   *   algorithm other than sha256/sha512.
   */
  static fromUrl(url: string, options: UrlImageOptions = {}): BaseImage {
    checkLocation('BaseImage.fromUrl url', url, "the image's http(s) URL, e.g. 'https://example.org/image.qcow2'");
    if (options.checksums && options.sha256 !== undefined)
      throw mutuallyExclusive(
        'BaseImage.fromUrl sha256',
        'checksums',
        'Pin the digest yourself (sha256) or take it from the checksum file (checksums).',
      );
    if (options.signature && !options.checksums)
      throw invalidValue(
        'BaseImage.fromUrl signature',
        'a signature without checksums',
        'signature only with checksums (it signs the checksum file)',
      );
    const algorithm = options.checksums?.algorithm;
    if (algorithm !== undefined && algorithm !== 'sha256' && algorithm !== 'sha512')
      throw invalidValue('BaseImage.fromUrl checksums.algorithm', algorithm, "'sha256' or 'sha512'");
    return new BaseImage({
      kind: 'upload',
      source: url,
      format: options.format ?? guessFormat(url),
      sha256: options.sha256,
      volumeName: options.volumeName,
      ...(options.checksums ? { checksums: options.checksums } : {}),
      ...(options.signature ? { signature: options.signature } : {}),
    });
  }

  /**
   * An http(s) URL whose credentials or query are secret, e.g. `` `https://alice:${pw.stringValue}@host/image.qcow2` ``
   * with `pw = secretVariable(this, 'image_password')`: as {@link BaseImage.fromUrl}, the URL sent to the provider's
   * write-only `source_wo`, so it is never written into `cdk.tf.json`, the plan or the state. The base volume is
   * named `base-<12 hex>` unless `volumeName` is given (the file name is not known at synth); `format` defaults to
   * qcow2.
   * @throws ConstructPropsError when `url` is a string known at synth (it would be written into cdk.tf.json), or
   *   as {@link BaseImage.fromUrl} for the options.
   */
  static fromSecretUrl(url: string, options: UrlImageOptions = {}): BaseImage {
    const secret = secretReference('BaseImage.fromSecretUrl url', url);
    const image = BaseImage.fromUrl(secret, { format: 'qcow2', ...options }).source;
    return new BaseImage({ ...image, secret: true } as BaseImageSource);
  }

  /** An existing volume (key/path), e.g. `volume.volumeId` of a shared {@link Volume}. */
  static fromVolume(volumeId: string): BaseImage {
    return new BaseImage({ kind: 'volume', volumeId });
  }

  private constructor(readonly source: BaseImageSource) {}
}

/** A file path or URL must be a non-empty string (plain JavaScript callers can pass anything). */
function checkLocation(prop: string, given: unknown, expected: string): void {
  if (typeof given !== 'string' || given.trim() === '') throw invalidValue(prop, given, expected);
}

function guessFormat(location: string): VolumeFormat {
  return /\.raw$/i.test(location) ? 'raw' : 'qcow2';
}
