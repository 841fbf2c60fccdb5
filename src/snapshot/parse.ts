/**
 * `<domainsnapshot>` XML (formatsnapshot, as `virDomainSnapshotGetXMLDesc` returns it) → SnapshotInfo. Pure.
 */
import { attr, child, children, newParser, rawText, text, type XmlNode } from '../xml';
import type { SnapshotDisk, SnapshotInfo, SnapshotLocation, SnapshotDomainState } from './model';

const STATES: readonly SnapshotDomainState[] = [
  'nostate',
  'running',
  'blocked',
  'paused',
  'shutdown',
  'shutoff',
  'crashed',
  'pmsuspended',
  'disk-snapshot',
];
const LOCATIONS: readonly SnapshotLocation[] = ['internal', 'external', 'manual', 'no'];

/** Thrown by parseSnapshotXml for XML that is not a snapshot description. */
export class SnapshotXmlParseError extends Error {
  constructor(message: string) {
    super(`snapshot XML: ${message}`);
    this.name = 'SnapshotXmlParseError';
  }
}

/**
 * Reads a snapshot description. `memory` is `no` when the element is absent (libvirt writes it for every snapshot
 * it takes); `domainXml` is the saved `<domain>` element as libvirt wrote it (parse it with src/domain's
 * parseDomainXml), absent when the snapshot has none.
 * @throws SnapshotXmlParseError when the root is not `<domainsnapshot>`, or `name`, `state` or `creationTime` is
 *   missing or not one of formatsnapshot's values.
 */
export function parseSnapshotXml(xml: string): SnapshotInfo {
  let doc: XmlNode;
  try {
    doc = newParser().parse(xml, true) as XmlNode;
  } catch (err) {
    throw new SnapshotXmlParseError(`not well-formed XML: ${(err as Error).message}`);
  }
  const root = child(doc, 'domainsnapshot');
  if (!root) throw new SnapshotXmlParseError('the root element is not <domainsnapshot>');
  const name = text(child(root, 'name'));
  if (!name) throw new SnapshotXmlParseError('<name> is missing');
  const state = text(child(root, 'state'));
  if (!STATES.some((s) => s === state)) throw new SnapshotXmlParseError(`<state> is '${state ?? ''}', not a formatsnapshot state`);
  const creationTime = Number(text(child(root, 'creationTime')));
  if (!Number.isInteger(creationTime)) throw new SnapshotXmlParseError('<creationTime> is missing or not whole seconds');
  const descriptionNode = child(root, 'description');
  const parent = text(child(child(root, 'parent'), 'name'));
  const disks: SnapshotDisk[] = children(child(root, 'disks'), 'disk').map((d) => ({
    name: attr(d, 'name') ?? '',
    snapshot: location(attr(d, 'snapshot')),
  }));
  const domainXml = /<domain[\s>][\s\S]*?\n?<\/domain>/.exec(xml)?.[0];
  return {
    name,
    ...(descriptionNode ? { description: rawText(descriptionNode) ?? '' } : {}),
    state: state as SnapshotDomainState,
    ...(parent ? { parent } : {}),
    creationTime,
    memory: location(attr(child(root, 'memory'), 'snapshot')),
    disks,
    ...(domainXml ? { domainXml } : {}),
  };
}

function location(value: string | undefined): SnapshotLocation {
  return LOCATIONS.find((l) => l === value) ?? 'no';
}
