/**
 * Byte offsets within the on-disk structures, shared by the writer and the reader (src/seed/iso9660/read.ts):
 * volume descriptors (ECMA-119 8.4, 8.5), directory records (ECMA-119 9.1) and System Use entries (SUSP 1.12,
 * RRIP 1.12). Both-endian fields are read at their little-endian half (the offset given).
 */

/** Byte offsets within a primary or supplementary volume descriptor (ECMA-119 8.4, 8.5). */
export const VD = {
  type: 0,
  standardId: 1,
  version: 6,
  flags: 7,
  systemId: 8,
  volumeId: 40,
  volumeSpaceSize: 80,
  escapeSequences: 88,
  volumeSetSize: 120,
  volumeSequenceNumber: 124,
  logicalBlockSize: 128,
  pathTableSize: 132,
  lPathTable: 140,
  optionalLPathTable: 144,
  mPathTable: 148,
  optionalMPathTable: 152,
  rootRecord: 156,
  volumeSetId: 190,
  publisherId: 318,
  preparerId: 446,
  applicationId: 574,
  copyrightFileId: 702,
  abstractFileId: 739,
  bibliographicFileId: 776,
  creationDate: 813,
  modificationDate: 830,
  expirationDate: 847,
  effectiveDate: 864,
  fileStructureVersion: 881,
} as const;

/** Lengths of the volume descriptor's text fields the reader needs (ECMA-119 8.4.6; Joliet 5.1 escapes). */
export const VD_LENGTH = { volumeId: 32, escapeSequences: 3 } as const;

/** Byte offsets within a directory record (ECMA-119 9.1). */
export const DR = {
  length: 0,
  extAttrLength: 1,
  extent: 2,
  dataLength: 10,
  recordingDate: 18,
  flags: 25,
  fileUnitSize: 26,
  interleaveGap: 27,
  volumeSequence: 28,
  idLength: 32,
  id: 33,
} as const;

/** The header every System Use entry starts with (SUSP 1.12 4.1). */
export const SUE = { signature: 0, length: 2, version: 3, data: 4 } as const;

/** SP (SUSP 1.12 5.3): check bytes BE EF, then LEN_SKP. */
export const SP = { check: 4, skip: 6 } as const;

/** CE (SUSP 1.12 5.1): continuation area block, offset and length. */
export const CE = { block: 4, offset: 12, length: 20 } as const;

/** ER (SUSP 1.12 5.5): identifier, descriptor and source lengths, extension version, then the texts. */
export const ER = { idLength: 4, descriptorLength: 5, sourceLength: 6, version: 7, texts: 8 } as const;

/** PX (RRIP 1.12 4.1.1): mode, links, uid, gid. */
export const PX = { mode: 4, links: 12, uid: 20, gid: 28 } as const;

/** NM (RRIP 1.12 4.1.4): flags, then the name. */
export const NM = { flags: 4, name: 5 } as const;

/** CL (RRIP 1.12 4.1.5.1): the child directory's block. */
export const CL = { block: 4 } as const;
