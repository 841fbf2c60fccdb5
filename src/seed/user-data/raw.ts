/**
 * The user's raw user-data, from `user_data` (UTF-8 text) or `user_data_base64` (any bytes: text with exact bytes,
 * gzip-compressed or binary user-data), and its kind as cloud-init would see it.
 */
import type { SeedSpec } from '../model';
import { classifyUserData, type UserDataKind } from './classify';
import { tryDecodeUtf8, utf8 } from '../private/bytes';

/** The raw user-data of a spec. */
export interface RawUserData {
  /** The SeedSpec key it came from. */
  key: 'user_data' | 'user_data_base64';
  /** The exact bytes the user gave. */
  bytes: Uint8Array;
  /** The bytes as text, when they are UTF-8. */
  text?: string;
  /** How cloud-init reads it; bytes that are not UTF-8 (gzip, binary) count as `raw`: passed on, never merged. */
  kind: UserDataKind;
}

/**
 * The raw user-data of a spec whose inputs are valid (`user_data` a string, or `user_data_base64` base64);
 * `undefined` when neither is set or it is blank.
 */
export function rawUserData(spec: SeedSpec): RawUserData | undefined {
  if (typeof spec.user_data === 'string') {
    const kind = classifyUserData(spec.user_data);
    return kind === 'empty' ? undefined : { key: 'user_data', bytes: utf8(spec.user_data), text: spec.user_data, kind };
  }
  if (typeof spec.user_data_base64 === 'string') {
    const bytes = new Uint8Array(Buffer.from(spec.user_data_base64, 'base64'));
    if (bytes.length === 0) return undefined;
    const text = tryDecodeUtf8(bytes);
    if (text === undefined) return { key: 'user_data_base64', bytes, kind: 'raw' };
    const kind = classifyUserData(text);
    return kind === 'empty' ? undefined : { key: 'user_data_base64', bytes, text, kind };
  }
  return undefined;
}
