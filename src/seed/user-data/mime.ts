/**
 * Multipart MIME user-data (RFC 2046 `multipart/mixed`, as cloud-init's user-data processor reads it with
 * Python's email parser). The boundary is derived from the parts' content (no randomness), so the same parts give
 * the same bytes.
 */
import { sha256Hex } from '../private/hash';

/** One rendered MIME part. */
export interface MimePart {
  content: string;
  contentType: string;
  filename: string;
  mergeType?: string;
}

/** Renders `multipart/mixed` user-data. CRLF-free (LF line ends, which cloud-init accepts). */
export function renderMultipart(parts: readonly MimePart[]): string {
  const boundary = chooseBoundary(parts);
  const out: string[] = [`Content-Type: multipart/mixed; boundary="${boundary}"`, 'MIME-Version: 1.0', ''];
  for (const part of parts) {
    out.push(`--${boundary}`);
    out.push(`Content-Type: ${part.contentType}; charset="utf-8"`);
    out.push('MIME-Version: 1.0');
    out.push('Content-Transfer-Encoding: 8bit');
    out.push(`Content-Disposition: attachment; filename="${part.filename.replace(/["\\]/g, '_')}"`);
    if (part.mergeType !== undefined) out.push(`Merge-Type: ${part.mergeType}`);
    out.push('');
    // The line break before the next delimiter belongs to the delimiter (RFC 2046 5.1.1), so the content goes in
    // as it is and comes out of a MIME parser byte for byte, trailing newline included.
    out.push(part.content);
  }
  out.push(`--${boundary}--`, '');
  return out.join('\n');
}

/** `==VIRTSEED-<24 hex>==`, hashed from the parts; re-hashed in the (practically impossible) case it occurs in a part. */
function chooseBoundary(parts: readonly MimePart[]): string {
  let seed = JSON.stringify(parts);
  for (;;) {
    const boundary = `==VIRTSEED-${sha256Hex(seed).slice(0, 24)}==`;
    if (!parts.some((p) => p.content.includes(boundary))) return boundary;
    seed = boundary + seed;
  }
}
