/** The UUID text form (RFC 9562 section 4), shared by the domain model, the libvirt client and the provider. */

const CANONICAL = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a UUID in its canonical text form, `8-4-4-4-12` hex digits (any case). */
export function isUuid(text: string): boolean {
  return CANONICAL.test(text);
}
