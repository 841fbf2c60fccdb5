/** Volume descriptors: primary (ECMA-119 8.4), Joliet supplementary (ECMA-119 8.5 + Joliet 5), terminator (8.3). */
import { FLAG_DIRECTORY, JOLIET_ESCAPE_WRITTEN, SECTOR_SIZE, STANDARD_ID, VD_PRIMARY, VD_SUPPLEMENTARY, VD_TERMINATOR } from './constants';
import { setAsciiPadded, setBoth16, setBoth32, setUcs2Padded, setUnspecifiedVolumeDate, setVolumeDate } from './fields';
import { VD, VD_LENGTH } from './offsets';
import { type Extent, ROOT_RECORD_LENGTH, writeDirectoryRecord } from './records';

/** What a primary or Joliet descriptor records about its tree. */
export interface VolumeInfo {
  readonly volumeId: string;
  readonly systemId: string;
  readonly volumeSpaceSize: number;
  readonly pathTableSize: number;
  readonly lPathTable: number;
  readonly mPathTable: number;
  readonly root: Extent;
}

function writeHeader(bytes: Uint8Array, offset: number, type: number): void {
  bytes[offset + VD.type] = type;
  setAsciiPadded(bytes, offset + VD.standardId, 5, STANDARD_ID);
  bytes[offset + VD.version] = 1;
}

/**
 * Writes a primary (`joliet` false, ECMA-119 8.4) or Joliet supplementary (`joliet` true, ECMA-119 8.5 with
 * escape sequence `%/E`, UCS-2 level 3, and UCS-2 text fields, Joliet 5) volume descriptor in the sector at
 * `offset`. Creation and modification dates are the fixed date; expiration and effective dates are unspecified.
 */
export function writeVolumeDescriptor(bytes: Uint8Array, view: DataView, offset: number, info: VolumeInfo, joliet: boolean): void {
  writeHeader(bytes, offset, joliet ? VD_SUPPLEMENTARY : VD_PRIMARY);
  const text = joliet ? setUcs2Padded : setAsciiPadded;
  text(bytes, offset + VD.systemId, 32, info.systemId);
  text(bytes, offset + VD.volumeId, VD_LENGTH.volumeId, info.volumeId);
  setBoth32(view, offset + VD.volumeSpaceSize, info.volumeSpaceSize);
  if (joliet) setAsciiPadded(bytes, offset + VD.escapeSequences, VD_LENGTH.escapeSequences, JOLIET_ESCAPE_WRITTEN);
  setBoth16(view, offset + VD.volumeSetSize, 1);
  setBoth16(view, offset + VD.volumeSequenceNumber, 1);
  setBoth16(view, offset + VD.logicalBlockSize, SECTOR_SIZE);
  setBoth32(view, offset + VD.pathTableSize, info.pathTableSize);
  view.setUint32(offset + VD.lPathTable, info.lPathTable, true);
  view.setUint32(offset + VD.optionalLPathTable, 0, true);
  view.setUint32(offset + VD.mPathTable, info.mPathTable, false);
  view.setUint32(offset + VD.optionalMPathTable, 0, false);
  writeDirectoryRecord(bytes, view, offset + VD.rootRecord, ROOT_RECORD_LENGTH, Uint8Array.of(0), FLAG_DIRECTORY, info.root, []);
  for (const [field, length] of [
    [VD.volumeSetId, 128],
    [VD.publisherId, 128],
    [VD.preparerId, 128],
    [VD.applicationId, 128],
    [VD.copyrightFileId, 37],
    [VD.abstractFileId, 37],
    [VD.bibliographicFileId, 37],
  ] as const) {
    text(bytes, offset + field, length, '');
  }
  setVolumeDate(bytes, offset + VD.creationDate);
  setVolumeDate(bytes, offset + VD.modificationDate);
  setUnspecifiedVolumeDate(bytes, offset + VD.expirationDate);
  setUnspecifiedVolumeDate(bytes, offset + VD.effectiveDate);
  bytes[offset + VD.fileStructureVersion] = 1;
}

/** Writes the Volume Descriptor Set Terminator (ECMA-119 8.3) in the sector at `offset`. */
export function writeTerminator(bytes: Uint8Array, offset: number): void {
  writeHeader(bytes, offset, VD_TERMINATOR);
}

export { VD as VOLUME_DESCRIPTOR_OFFSETS };
