/** Recognises the kind of raw user-data text the way cloud-init does (by its first line / MIME headers). */

/** - `empty`: blank; `cloud-config`: starts with `#cloud-config`; `mime`: starts with MIME headers
 *  (`Content-Type:` or `MIME-Version:`); `raw`: anything else (`#!` script, `#include`, `#cloud-boothook`, …). */
export type UserDataKind = 'empty' | 'cloud-config' | 'mime' | 'raw';

export function classifyUserData(text: string | undefined): UserDataKind {
  if (text === undefined || text.trim() === '') return 'empty';
  if (/^#cloud-config[ \t]*\r?(\n|$)/.test(text)) return 'cloud-config';
  if (/^(content-type|mime-version)\s*:/i.test(text)) return 'mime';
  return 'raw';
}
