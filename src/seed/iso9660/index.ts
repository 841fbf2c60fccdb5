export type { BuildIsoOptions, FileContent, IsoInputFile, IsoOutput, ReadIsoResult, SeedFile } from './types';
export { buildIso } from './build';
export { readIso } from './read';
