/** Input format checks (pure predicates). IP addresses: src/ip.ts. */

/** RFC 1123 host name: dot-separated labels of 1–63 `[A-Za-z0-9-]`, no leading/trailing hyphen, ≤ 253 chars. */
export function isHostname(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  return text.split('.').every((l) => /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/.test(l));
}

/** instance-id: 1–128 characters of `[A-Za-z0-9._:-]` (safe as a file name and in YAML/JSON). */
export const INSTANCE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** OpenSSH public key line: `ssh-*`, `ecdsa-*` or `sk-*` type, base64 key, optional comment. */
export const SSH_PUBLIC_KEY =
  /^(ssh-[a-z0-9-]+(@openssh\.com)?|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9-]+@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\r\n]*)?$/;

/** Octal mode string, 3 or 4 digits (`644`, `0644`, `1777`). */
export const PERMISSIONS = /^[0-7]{3,4}$/;

/** `user` or `user:group`. */
export const OWNER = /^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?(:[A-Za-z0-9_][A-Za-z0-9_.-]*)?$/;

/** Environment variable name. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Block device: bare name (`vdb`) or absolute `/dev/...` path. */
export const DEVICE = /^([a-z][a-z0-9]*|\/dev\/[A-Za-z0-9._/:-]+)$/;

/** MAC address `aa:bb:cc:dd:ee:ff`. */
export const MAC = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;

/** Linux interface name. */
export const IFNAME = /^[A-Za-z0-9_.-]{1,15}$/;

/** MIME type `type/subtype`. */
export const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*$/;
