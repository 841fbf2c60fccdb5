import type { IgnitionVersion } from '../types';
import type { Schema } from './common';
import { schemaV3_0 } from './v3_0';
import { schemaV3_1 } from './v3_1';
import { schemaV3_2 } from './v3_2';
import { schemaV3_3 } from './v3_3';
import { schemaV3_4 } from './v3_4';
import { schemaV3_5 } from './v3_5';

const BY_VERSION: Record<IgnitionVersion, Schema> = {
  '3.0.0': schemaV3_0,
  '3.1.0': schemaV3_1,
  '3.2.0': schemaV3_2,
  '3.3.0': schemaV3_3,
  '3.4.0': schemaV3_4,
  '3.5.0': schemaV3_5,
};

/** The JSON Schema (draft-07) of spec `version`. */
export function schemaFor(version: IgnitionVersion): Schema {
  return BY_VERSION[version];
}
