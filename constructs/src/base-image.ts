import { VolumeFormat } from './volume';

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

/** How a base image is provided: a local file or URL (uploaded into a shared volume), or an existing volume. */
export type BaseImageSource =
  | {
      readonly kind: 'upload';
      readonly source: string;
      readonly format: VolumeFormat;
      readonly sha256?: string;
      readonly volumeName?: string;
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
  /** A local image file, uploaded into a shared base volume (see the class comment). */
  static fromFile(path: string, options: BaseImageOptions = {}): BaseImage {
    return new BaseImage({
      kind: 'upload',
      source: path,
      format: options.format ?? guessFormat(path),
      sha256: options.sha256,
      volumeName: options.volumeName,
    });
  }

  /** An http(s) URL, downloaded by the provider and uploaded into a shared base volume (see the class comment). */
  static fromUrl(url: string, options: BaseImageOptions = {}): BaseImage {
    return new BaseImage({
      kind: 'upload',
      source: url,
      format: options.format ?? guessFormat(url),
      sha256: options.sha256,
      volumeName: options.volumeName,
    });
  }

  /** An existing volume (key/path), e.g. `volume.volumeId` of a shared {@link Volume}. */
  static fromVolume(volumeId: string): BaseImage {
    return new BaseImage({ kind: 'volume', volumeId });
  }

  private constructor(readonly source: BaseImageSource) {}
}

function guessFormat(location: string): VolumeFormat {
  return /\.raw$/i.test(location) ? 'raw' : 'qcow2';
}
