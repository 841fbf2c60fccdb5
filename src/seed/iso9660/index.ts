export type { BuildIsoOptions, ReadIsoResult, SeedFile } from './types';
export { buildIso } from './build';
export { readIso } from './read';
