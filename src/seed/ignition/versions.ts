import { isOneOf } from '../../fields';
import type { IgnitionVersion } from './types';

/** Every spec version we can write and validate, oldest first. */
export const IGNITION_VERSIONS: readonly IgnitionVersion[] = ['3.0.0', '3.1.0', '3.2.0', '3.3.0', '3.4.0', '3.5.0'];

/** The version written when none is asked for. */
export const DEFAULT_IGNITION_VERSION: IgnitionVersion = '3.3.0';

/** True when `v` is one of `IGNITION_VERSIONS`. */
export function isIgnitionVersion(v: unknown): v is IgnitionVersion {
  return isOneOf(IGNITION_VERSIONS, v);
}

/** The minor number of a 3.x version (`'3.4.0'` → 4). */
export function minorOf(v: IgnitionVersion): number {
  return Number(v.split('.')[1]);
}

/** True when `v` is `min` or newer. */
export function atLeast(v: IgnitionVersion, min: IgnitionVersion): boolean {
  return minorOf(v) >= minorOf(min);
}
