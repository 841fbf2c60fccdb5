export type { Schema } from './common';
export { schemaV3_0 } from './v3_0';
export { schemaV3_1 } from './v3_1';
export { schemaV3_2 } from './v3_2';
export { schemaV3_3 } from './v3_3';
export { schemaV3_4 } from './v3_4';
export { schemaV3_5 } from './v3_5';
export { schemaFor } from './select';
