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
  /**
   * Writes exactly `length` bytes into `target` starting at byte `offset`, front to back. When `written` is given,
   * calls it as the writing goes with the count of bytes written so far (increasing; at least every few MiB for a
   * large content, and once with `length` at the end), so that a reader can use the written prefix at once.
   */
  writeInto(target: Uint8Array, offset: number, written?: (bytes: number) => void): void;
}

/**
 * Where {@link buildIso} writes the image, for a caller that uses the image while it is being written (e.g. hashes
 * its finished prefix on another thread). The image is written front to back.
 */
export interface IsoOutput {
  /** Returns a zero-filled buffer of exactly `length` bytes (the image size, a multiple of 2048) to write the
   *  image into, e.g. one backed by a SharedArrayBuffer. Called once, before any byte is written. */
  allocate(length: number): Uint8Array;
  /** Bytes `[0, end)` of the image are final. Called with increasing `end`, at least every few MiB of file
   *  content, the last time with the image length. */
  final(end: number): void;
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
  /** Where the image is written and who hears of its progress. @default - a new Uint8Array, no progress reports */
  output?: IsoOutput;
}

/** What {@link readIso} returns. */
export interface ReadIsoResult {
  /** The primary volume descriptor's Volume Identifier, trailing spaces removed. */
  volumeId: string;
  /** Every regular file of the image, sorted by path (UTF-16 code unit order). */
  files: SeedFile[];
}
