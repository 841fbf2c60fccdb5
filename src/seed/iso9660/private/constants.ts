/** Fixed sizes, positions and values of the image format (ECMA-119, Joliet, SUSP 1.12, RRIP 1.12). */

/** Logical sector and logical block size, bytes (ECMA-119 6.1.2, 6.2.2); we use 2048 for both. */
export const SECTOR_SIZE = 2048;
/** First sector of the volume descriptor set; sectors 0–15 are the System Area (ECMA-119 6.2.1). */
export const FIRST_DESCRIPTOR_SECTOR = 16;
/** Standard Identifier of every volume descriptor (ECMA-119 8.1.2). */
export const STANDARD_ID = 'CD001';
/** Volume Descriptor Type values (ECMA-119 8.1.1). */
export const VD_PRIMARY = 1;
export const VD_SUPPLEMENTARY = 2;
export const VD_TERMINATOR = 255;
/** Joliet escape sequence for UCS-2 level 3, at offset 88 of the supplementary volume descriptor (Joliet 5.1). */
export const JOLIET_ESCAPES = ['%/@', '%/C', '%/E'] as const;
export const JOLIET_ESCAPE_WRITTEN = '%/E';

/** File Flags bits of a directory record (ECMA-119 9.1.6). */
export const FLAG_HIDDEN = 0x01;
export const FLAG_DIRECTORY = 0x02;
export const FLAG_ASSOCIATED = 0x04;
export const FLAG_MULTI_EXTENT = 0x80;

/** Fixed part of a directory record before the File Identifier (ECMA-119 9.1). */
export const DIR_RECORD_HEADER = 33;
/** A directory record's length is one byte (ECMA-119 9.1.1); we keep records even-sized. */
export const DIR_RECORD_MAX = 254;
/** Levels of the directory hierarchy allowed by ECMA-119 6.8.2.1 (root is level 1). */
export const MAX_DIRECTORY_LEVELS = 8;
/** Longest Joliet name, UCS-2 characters (Joliet 3.3: 128 bytes). */
export const JOLIET_MAX_NAME = 64;
/** Joliet volume identifier length in UCS-2 characters (32 bytes). */
export const JOLIET_MAX_VOLUME_ID = 16;
/** Volume space limit: block numbers and sizes are 32-bit (ECMA-119 7.3.3). */
export const MAX_IMAGE_BYTES = 2 ** 32;

/**
 * The fixed time stamped everywhere: 1970-01-01 00:00:00 GMT. 17-byte volume dates (ECMA-119 8.4.26.1) and 7-byte
 * recording dates (ECMA-119 9.1.5) are derived from it, so equal input gives equal bytes.
 */
export const FIXED_DATE = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0 } as const;

/** POSIX file modes written in Rock Ridge PX entries (RRIP 1.12 4.1.1), as `genisoimage -r` does. */
export const RR_FILE_MODE = 0o100444;
export const RR_DIR_MODE = 0o040555;

/** RRIP Extension Reference texts (RRIP 1.12 4.3 / SUSP 1.12 5.5): identifier, descriptor and source. */
export const RRIP_EXT_ID = 'RRIP_1991A';
export const RRIP_EXT_DESCRIPTOR = 'THE ROCK RIDGE INTERCHANGE PROTOCOL PROVIDES SUPPORT FOR POSIX FILE SYSTEM SEMANTICS';
export const RRIP_EXT_SOURCE =
  'PLEASE CONTACT DISC PUBLISHER FOR SPECIFICATION SOURCE.  SEE PUBLISHER IDENTIFIER IN PRIMARY VOLUME DESCRIPTOR FOR CONTACT INFORMATION.';
