/**
 * `virtseed_snapshot`: an internal libvirt snapshot of a domain (formatsnapshot), taken, described and deleted
 * through src/ops/snapshots (which also keeps the seed copy of a snapshot of a shut-off guest). Reverting is not
 * an apply: `virtseed snapshot revert` does it. A snapshot deleted outside Terraform (or with its domain) reads as
 * gone, so the next plan takes it again; a changed description is redefined in place.
 */
import { Diagnostic, error, warning } from '../../../src/diagnostics';
import { parseDomainXml } from '../../../src/domain';
import { bytesToUuid, LibvirtError, VIR_FROM_RPC, type DomRef, type LibvirtClient } from '../../../src/libvirt';
import {
  hasMemory,
  hasWritableDisk,
  NO_WRITABLE_DISK,
  SNAPSHOT_NAME_PATTERN,
  snapshotKind,
  type SnapshotInfo,
} from '../../../src/snapshot';
import {
  deleteSnapshot,
  findSnapshot,
  setSnapshotDescription,
  snapshotSubject,
  SnapshotRefusedError,
  takeSnapshot,
} from '../../../src/ops/snapshots';
import { isUuid } from '../../../src/uuid';
import { SNAPSHOT_FIELDS } from '../../../src/fields';
import type { HandlerContext, ResourceHandler } from '../handler';
import type { ResourceSchema } from '../plugin/schema';
import { lookupDomainByUuid } from './private/domain-directory';
import { plannedWritableDisk } from './private/domain-snapshots';
import { replacePaths, schemaOf } from './private/fields';
import { isNoDomain } from './private/lookups';
import type { SnapshotState } from './private/model';
import { isReplacedObject, noteManaged, planHost, plannedPrivateOf, withoutReplaceMark } from './private/plan-checks';
import { settleComputed } from './private/plan';
import { bool, str, UNKNOWN } from './private/values';
import { notFinished } from './private/not-finished';

/** The provider schema, from the field table (src/fields/snapshot.ts). */
const SNAPSHOT_SCHEMA: ResourceSchema = schemaOf(SNAPSHOT_FIELDS);

/** Attributes libvirt fills in when the snapshot is taken. */
const TAKEN_ATTRS = ['id', 'state', 'creation_time', 'instance_id', 'disks'] as const;

function validateConfig(c: SnapshotState): Diagnostic[] {
  const d: Diagnostic[] = [];
  const name = str(c.name);
  if (name !== undefined && !SNAPSHOT_NAME_PATTERN.test(name))
    d.push(
      error(
        ['name'],
        'Invalid snapshot name',
        `name is "${name}"; expected 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit (e.g. before-upgrade).`,
      ),
    );
  if (str(c.domain_id) === '')
    d.push(error(['domain_id'], 'Invalid domain_id', 'domain_id is empty; expected a virtseed_domain.id or a domain name.'));
  return d;
}

/** The domain `ref` names (a UUID or a name), or null when libvirt has none. */
async function lookupDomain(client: LibvirtClient, ref: string): Promise<DomRef | null> {
  if (isUuid(ref)) return lookupDomainByUuid(client, ref);
  try {
    return await client.domainLookupByName(ref);
  } catch (err) {
    if (isNoDomain(err)) return null;
    throw err;
  }
}

/** The state attributes of what libvirt describes; `base` keeps the configured ones. */
function stateOf(dom: DomRef, info: SnapshotInfo, base: SnapshotState): SnapshotState {
  let instanceId: string | null = null;
  try {
    instanceId = info.domainXml ? (parseDomainXml(info.domainXml).metadata?.['instance-id'] ?? null) : null;
  } catch {
    instanceId = null;
  }
  return {
    ...base,
    id: `${bytesToUuid(dom.uuid)}/${info.name}`,
    name: info.name,
    description: info.description ?? null,
    memory: hasMemory(info),
    state: info.state,
    creation_time: info.creationTime,
    instance_id: instanceId,
    disks: info.disks.filter((d) => d.snapshot !== 'no').map((d) => d.name),
  };
}

function existsDiagnostic(domain: string, name: string): Diagnostic {
  return error(
    ['name'],
    'Snapshot exists already',
    `Domain ${domain} already has a snapshot named ${name}. Import it (terraform import <address> ${domain}/${name}) or choose another name.`,
  );
}

function domainMissingDiagnostic(ref: string): Diagnostic {
  return error(
    ['domain_id'],
    'Domain not found',
    `libvirt has no domain ${ref}. Name an existing domain (a virtseed_domain.id, or a name from virsh list --all).`,
  );
}

/** A refusal as a diagnostic detail: the domain, the problem and the fix (as the attributes name them). */
function refusedDetail(err: SnapshotRefusedError): string {
  return `Domain ${err.domain}: ${err.problem}. To take it: ${err.fix}. Nothing was created.`;
}

/** ApplyResourceChange of a snapshot: delete, redescribe in place, or take. */
async function applySnapshot(
  { prior, planned, config }: { prior: SnapshotState | null; planned: SnapshotState | null; config: SnapshotState | null },
  ctx: HandlerContext<LibvirtClient>,
): Promise<{ newState: SnapshotState | null; diagnostics: Diagnostic[] }> {
  const client = await ctx.client();
  const opts = { signal: ctx.signal };
  if (!planned) {
    const dom = prior ? await lookupDomain(client, str(prior.domain_id) ?? '') : null;
    if (dom && prior) await deleteSnapshot(client, dom, str(prior.name) ?? '', opts);
    return { newState: null, diagnostics: [] };
  }
  const domainRef = str(planned.domain_id) ?? '';
  const name = str(planned.name) ?? '';
  const dom = await lookupDomain(client, domainRef);
  if (!dom) return { newState: prior, diagnostics: [domainMissingDiagnostic(domainRef)] };
  if (prior && prior.id === planned.id && planned.id !== UNKNOWN) {
    const info = await findSnapshot(client, dom, name, opts);
    if (!info)
      return {
        newState: prior,
        diagnostics: [
          error([], 'Snapshot gone', `Domain ${dom.name} has no snapshot ${name} any more. Run terraform apply again to take it again.`),
        ],
      };
    const description = str(planned.description) ?? null;
    const updated = (info.description ?? null) === description ? info : await setSnapshotDescription(client, dom, name, description, opts);
    return { newState: stateOf(dom, updated, planned), diagnostics: [] };
  }
  if (await findSnapshot(client, dom, name, opts)) return { newState: null, diagnostics: [existsDiagnostic(dom.name, name)] };
  try {
    const memory = bool(config?.memory);
    const { info } = await takeSnapshot(client, dom, { name, description: str(planned.description), memory, signal: ctx.signal });
    ctx.log.info(`domain ${dom.name}: snapshot ${name} taken (${info.state})`);
    return { newState: stateOf(dom, info, planned), diagnostics: [] };
  } catch (err) {
    if (err instanceof SnapshotRefusedError)
      return {
        newState: null,
        diagnostics: [error(err.problem.includes('memory') ? ['memory'] : [], 'Cannot take the snapshot', refusedDetail(err))],
      };
    if (err instanceof LibvirtError && err.domain === VIR_FROM_RPC)
      // The connection failed while the snapshot was taken: libvirt may have taken it. A partial state (tainted,
      // ./private/not-finished.ts): the next plan reads it (gone: taken again), the next apply replaces it.
      return notFinished(
        planned,
        { id: `${bytesToUuid(dom.uuid)}/${name}`, name },
        'snapshot',
        `${name} of domain ${dom.name}`,
        'requested',
        err,
      );
    if (err instanceof LibvirtError)
      return {
        newState: null,
        diagnostics: [error([], 'Cannot take the snapshot', `Domain ${dom.name}: libvirt refused the snapshot: ${err.message}`)],
      };
    throw err;
  }
}

export const snapshot: ResourceHandler<SnapshotState, LibvirtClient> = {
  typeName: 'virtseed_snapshot',
  schema: SNAPSHOT_SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    const requiresReplace = prior ? replacePaths(SNAPSHOT_FIELDS, prior, proposed) : [];
    const plannedPrivate = plannedPrivateOf(ctx, 'snapshot', str(prior?.id), priorPrivate, requiresReplace.length > 0);
    const replacing = !prior || requiresReplace.length > 0;
    let planned = settleComputed(proposed, prior, replacing, TAKEN_ATTRS);
    if (config.memory === null) planned = { ...planned, memory: replacing ? UNKNOWN : (prior?.memory ?? UNKNOWN) };
    const domainRef = str(planned.domain_id);
    const name = str(planned.name);
    if (replacing && domainRef && name) {
      const { client, diagnostics: unreachable } = await planHost(ctx);
      diagnostics.push(...unreachable);
      const dom = client ? await lookupDomain(client, domainRef) : null;
      // A replacement plans the create while the old snapshot is still there: it does not count (isReplacedObject).
      const replaced = () => isReplacedObject(ctx, 'snapshot', `${bytesToUuid(dom!.uuid)}/${name}`, priorPrivate);
      if (
        client &&
        dom &&
        !(prior && prior.name === name && prior.domain_id === domainRef) &&
        (await findSnapshot(client, dom, name)) &&
        !replaced()
      )
        diagnostics.push(existsDiagnostic(dom.name, name));
      // The domain as it is now: this plan may still start or stop it, so a refusal is a warning, not an error; but its
      // disks as its plan leaves them (or, when Terraform does not plan it, as they are) must hold a writable one.
      const subject = client && dom ? await snapshotSubject(client, dom) : null;
      const writable = dom ? (plannedWritableDisk(ctx, dom.name) ?? (subject ? hasWritableDisk(subject.disks) : true)) : true;
      if (!writable)
        diagnostics.push(
          error(
            ['domain_id'],
            'Nothing to snapshot',
            `Got domain_id = "${domainRef}" (domain ${dom!.name}): ${NO_WRITABLE_DISK.problem}. Expected a domain with a writable disk: ${NO_WRITABLE_DISK.fix} on it.`,
          ),
        );
      const decision = subject && writable ? snapshotKind(subject, bool(config.memory)) : null;
      if (decision && !decision.ok && decision !== NO_WRITABLE_DISK)
        diagnostics.push(
          warning(
            decision.problem.includes('memory') ? ['memory'] : [],
            'Snapshot not possible as the domain is now',
            `Domain ${dom!.name}: ${decision.problem}. Unless this apply changes that, taking the snapshot fails. To take it: ${decision.fix}.`,
          ),
        );
    }
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply(req, ctx) {
    return { ...(await applySnapshot(req, ctx)), private: withoutReplaceMark(req.plannedPrivate) };
  },

  async read({ current }, ctx) {
    const client = await ctx.client();
    const dom = await lookupDomain(client, str(current.domain_id) ?? '');
    const info = dom ? await findSnapshot(client, dom, str(current.name) ?? '', { signal: ctx.signal }) : null;
    if (!dom || !info) return { newState: null, diagnostics: [] }; // deleted outside Terraform, or with its domain
    noteManaged(ctx, 'snapshot', `${bytesToUuid(dom.uuid)}/${info.name}`);
    return { newState: stateOf(dom, info, current), diagnostics: [] };
  },

  async importState(id, ctx) {
    const slash = id.lastIndexOf('/');
    if (slash <= 0 || slash === id.length - 1)
      throw new Error(`cannot import snapshot "${id}": expected DOMAIN/SNAPSHOT (a domain name or UUID)`);
    const [domainRef, name] = [id.slice(0, slash), id.slice(slash + 1)];
    const client = await ctx.client();
    const dom = await lookupDomain(client, domainRef);
    if (!dom) throw new Error(`cannot import snapshot "${id}": libvirt has no domain ${domainRef}`);
    const info = await findSnapshot(client, dom, name);
    if (!info) throw new Error(`cannot import snapshot "${id}": domain ${dom.name} has no snapshot ${name}`);
    const base: SnapshotState = {
      id: null,
      host: ctx.hostName,
      domain_id: bytesToUuid(dom.uuid),
      name,
      description: null,
      memory: null,
      state: null,
      creation_time: null,
      instance_id: null,
      disks: null,
    };
    return [stateOf(dom, info, base)];
  },
};
