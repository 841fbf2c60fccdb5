/**
 * `<domainsnapshot>` XML (formatsnapshot) for `virDomainSnapshotCreateXML`: a new snapshot's request, and a
 * snapshot's XML with another description for a REDEFINE of its metadata. Pure.
 */
import type { SnapshotRequest } from './model';

/** XML text and attribute escaping. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/**
 * The request XML: name and (when given) description. Which disks go into the snapshot and whether the memory does
 * is left to libvirt, which decides from the domain: a running domain's snapshot holds its memory, a shut-off one
 * its disks; read-only disks and cdroms are left out (`snapshot='no'`).
 */
export function renderSnapshotRequest(req: SnapshotRequest): string {
  const description = req.description !== undefined ? `<description>${escapeXml(req.description)}</description>` : '';
  return `<domainsnapshot><name>${escapeXml(req.name)}</name>${description}</domainsnapshot>`;
}

/**
 * A snapshot's full XML (as `virDomainSnapshotGetXMLDesc` with VIR_DOMAIN_SNAPSHOT_XML_SECURE returns it) with its
 * top-level `<description>` replaced, added (after `<name>`) or, for `null`, removed; the saved domain definition
 * (which has a `<description>` of its own) is left as it is. For VIR_DOMAIN_SNAPSHOT_CREATE_REDEFINE, which
 * changes the metadata of an existing snapshot without touching its data.
 * @throws Error when the XML is not a `<domainsnapshot>` with a `<name>`.
 */
export function withSnapshotDescription(xml: string, description: string | null): string {
  const domainAt = xml.search(/<(domain|inactiveDomain)[\s>]/);
  const head = domainAt < 0 ? xml : xml.slice(0, domainAt);
  const tail = domainAt < 0 ? '' : xml.slice(domainAt);
  if (!/<domainsnapshot[\s>]/.test(head)) throw new Error('not a <domainsnapshot> document');
  const withoutOld = head.replace(/[ \t]*<description>[\s\S]*?<\/description>\n?|[ \t]*<description\/>\n?/, '');
  if (description === null) return withoutOld + tail;
  const nameEnd = /<\/name>(\n?)/.exec(withoutOld);
  if (!nameEnd) throw new Error('the <domainsnapshot> has no <name>');
  const at = nameEnd.index + nameEnd[0].length;
  const indent = nameEnd[1] ? '  ' : '';
  const line = `${indent}<description>${escapeXml(description)}</description>${nameEnd[1]}`;
  return withoutOld.slice(0, at) + line + withoutOld.slice(at) + tail;
}
