export type * from './types';
export { IGNITION_VERSIONS, DEFAULT_IGNITION_VERSION, isIgnitionVersion } from './versions';
export { validateIgnition, validateIgnitionAs } from './validate';
export { renderIgnition, type RenderIgnitionOptions } from './render';
export { parseIgnitionText } from './parse';
export { translateV2, isSpec2, type TranslationResult } from './translate2x';
export { encodeDataUrl, parseDataUrl, type InlineSource, type DataUrl } from './dataUrl';
export { IgnitionBuilder, fileFromString, systemdUnit, passwdUser, type InlineFileOptions, type UnitOptions } from './builder';
export { schemaFor } from './schemas';
