import { VolumeFormat } from './volume';

/** Options of {@link BaseImage.fromFile} and {@link BaseImage.fromUrl}. */
export interface BaseImageOptions {
  /**
   * Format of the image file.
   * @default - 'raw' when the name ends in `.raw`, else 'qcow2' (cloud images, also most `.img` files)
   */
  readonly format?: VolumeFormat;
}

/** How a base image is provided: a local file or URL (uploaded into a volume), or an existing volume. */
export type BaseImageSource =
  | { readonly kind: 'upload'; readonly source: string; readonly format: VolumeFormat }
  | { readonly kind: 'volume'; readonly volumeId: string };

/**
 * The disk image a virtual machine's root volume is layered on (copy-on-write): any qcow2 cloud image with
 * cloud-init (or Ignition). Value object; create with the static factories.
 */
export class BaseImage {
  /** A local image file, uploaded into a `<vm>-base` volume. */
  static fromFile(path: string, options: BaseImageOptions = {}): BaseImage {
    return new BaseImage({ kind: 'upload', source: path, format: options.format ?? guessFormat(path) });
  }

  /** An http(s) URL, downloaded by the provider and uploaded into a `<vm>-base` volume. */
  static fromUrl(url: string, options: BaseImageOptions = {}): BaseImage {
    return new BaseImage({ kind: 'upload', source: url, format: options.format ?? guessFormat(url) });
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
