/** One file of a seed image. */
export interface SeedFile {
  /** Relative, '/'-separated path, e.g. `openstack/latest/user_data`; no empty, `.` or `..` segments. */
  path: string;
  /** The file's bytes (0 bytes up to 4 GiB - 1). */
  content: Uint8Array;
}

/**
 * File bytes that are not in one buffer yet (e.g. text kept as pieces): {@link buildIso} writes them straight into
 * the image instead of copying a buffer.
 */
export interface FileContent {
  /** Byte length (0 up to 4 GiB - 1). */
  readonly length: number;
  /** Writes exactly `length` bytes into `target` starting at byte `offset`. */
  writeInto(target: Uint8Array, offset: number): void;
}

/** One file given to {@link buildIso}: a {@link SeedFile}, or one whose content is a {@link FileContent}. */
export interface IsoInputFile {
  /** As {@link SeedFile.path}. */
  path: string;
  /** The file's bytes, or an object that writes them. */
  content: Uint8Array | FileContent;
}

/** Options of {@link buildIso}. */
export interface BuildIsoOptions {
  /**
   * Volume label, written exactly as given into the primary volume descriptor's Volume Identifier
   * (ECMA-119 8.4.6, 32 bytes) and, as UCS-2, into the Joliet descriptor (its first 16 characters), e.g. `cidata`
   * or `config-2` (cloud-init finds the seed by this label through blkid). 1–32 printable ASCII characters,
   * no leading or trailing space.
   */
  volumeId: string;
  /** System Identifier (ECMA-119 8.4.5), printable ASCII, at most 32 characters. @default - blank (spaces) */
  systemId?: string;
}

/** What {@link readIso} returns. */
export interface ReadIsoResult {
  /** The primary volume descriptor's Volume Identifier, trailing spaces removed. */
  volumeId: string;
  /** Every regular file of the image, sorted by path (UTF-16 code unit order). */
  files: SeedFile[];
}
