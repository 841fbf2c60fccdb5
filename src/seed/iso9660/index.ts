export type { BuildIsoOptions, FileContent, IsoInputFile, ReadIsoResult, SeedFile } from './types';
export { buildIso } from './build';
export { readIso } from './read';
