/**
 * The per-resource key of resources with write-only inputs (docs/write-only.md): 32 random bytes made at the first
 * plan that has write-only values and kept in the resource's private state (JSON `{"hmac_key": base64}`), under
 * which the state's `keyed_digest` (`hmac-sha256:<hex>`) and a derived instance-id are computed. The key is what
 * the state keeps to compare: a plan recomputes the digest from the config's write-only values, a refresh from
 * the volume's bytes. Nothing here logs a key, a value or a digest.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** The `keyed_digest` attribute's prefix. */
const KEYED_DIGEST_PREFIX = 'hmac-sha256:';
const KEY_BYTES = 32;

/** The key a private state holds, or undefined (no private state, or one without a key). */
export function keyOf(priv: Buffer | undefined): Buffer | undefined {
  if (!priv?.length) return undefined;
  try {
    const parsed: unknown = JSON.parse(priv.toString('utf8'));
    const b64 = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).hmac_key : undefined;
    const key = typeof b64 === 'string' ? Buffer.from(b64, 'base64') : undefined;
    return key?.length === KEY_BYTES ? key : undefined;
  } catch {
    return undefined;
  }
}

/** The prior private state's key, or a new random one (a create, or the first plan with write-only values). */
export function keyFor(priv: Buffer | undefined): Buffer {
  return keyOf(priv) ?? randomBytes(KEY_BYTES);
}

/** `priv` (a JSON object, or none) with `hmac_key` set to `key`. */
export function privateWithKey(priv: Buffer | undefined, key: Buffer): Buffer {
  let base: Record<string, unknown> = {};
  try {
    const parsed: unknown = priv?.length ? JSON.parse(priv.toString('utf8')) : {};
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) base = parsed as Record<string, unknown>;
  } catch {
    base = {};
  }
  return Buffer.from(JSON.stringify({ ...base, hmac_key: key.toString('base64') }), 'utf8');
}

/** HMAC-SHA256 (hex) of `data` under `key`. */
function hmacHex(key: Buffer, data: Uint8Array | string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** The `keyed_digest` value of bytes under `key`. */
export function keyedDigest(key: Buffer, bytes: Uint8Array): string {
  return KEYED_DIGEST_PREFIX + hmacHex(key, bytes);
}

/** The `keyed_digest` value of a keyed hex digest (a volume read through `volumeHmacSha256`). */
export function keyedDigestOfHex(hex: string): string {
  return KEYED_DIGEST_PREFIX + hex;
}

/** A keyed instance-id: `prefix` + 16 hex digits of the HMAC under `key` of `what` (the plain id or digest the
 *  content gives), so that it changes with the content and tells nothing about it without the key. */
export function keyedInstanceId(prefix: string, key: Buffer, what: string): string {
  return prefix + hmacHex(key, `instance-id\0${what}`).slice(0, 16);
}
