/**
 * `virtseed_placement`: the host of one virtual machine, chosen at plan (src/placement `choosePlacement`) from what
 * the provider's hosts report and the placements decided before it in the same run (./private/inventory.ts), then
 * kept: an existing placement is decided again only when `pin` is set or changed, or `rebalance` changes. It owns
 * nothing on the hosts; `host` is an output (the domain, its volumes and seed take it as their `host`).
 */
import { Diagnostic, error, warning } from '../../../src/diagnostics';
import { isOneOf, PLACEMENT_FIELDS } from '../../../src/fields';
import type { LibvirtClient } from '../../../src/libvirt';
import { PLACEMENT_POLICIES, type PlacementRequest } from '../../../src/placement';
import { describeHost, HostUnreachableError } from '../host';
import type { HandlerContext, ResourceHandler } from '../handler';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf, valueDiagnostics, withTableDefaults } from './private/fields';
import { inventoryOf } from './private/inventory';
import type { PlacementState } from './private/model';
import { isWhollyKnown, list, num, str, UNKNOWN } from './private/values';

/** The provider schema, from the field table (src/fields/placement.ts). */
const PLACEMENT_SCHEMA: ResourceSchema = schemaOf(PLACEMENT_FIELDS);

/** The `ctx.notes` key of a host reported down in this process (one warning per host). */
const warnedDownKey = (uri: string) => `placement-host-down:${uri}`;

function validateConfig(c: PlacementState): Diagnostic[] {
  const d: Diagnostic[] = valueDiagnostics(PLACEMENT_FIELDS, c);
  for (const key of ['memory', 'vcpu'] as const) {
    const v = num(c[key]);
    if (v !== undefined && !(Number.isInteger(v) && v > 0))
      d.push(error([key], `Invalid ${key}`, `${key} is ${v}; expected a whole number greater than 0${key === 'memory' ? ' (MiB)' : ''}.`));
  }
  const hosts = c.hosts;
  if (Array.isArray(hosts) && hosts.length === 0)
    d.push(error(['hosts'], 'No hosts', 'hosts is empty; name at least one host, or leave it out for all.'));
  const pin = str(c.pin);
  if (pin !== undefined && Array.isArray(hosts) && hosts.every((h) => typeof h === 'string') && !hosts.includes(pin))
    d.push(
      error(
        ['pin'],
        'Pinned host not among hosts',
        `pin is "${pin}", which is not in hosts (${hosts.join(', ')}); add it to hosts or pin another.`,
      ),
    );
  return d;
}

/** Checks that need the provider's configuration: every named host is one of its host blocks. */
function hostDiagnostics(c: PlacementState, ctx: HandlerContext<LibvirtClient>): Diagnostic[] {
  const known = ctx.hosts.map((h) => h.name);
  if (!known.length)
    return [
      error(
        [],
        'No hosts to place on',
        'virtseed_placement chooses among the provider\'s host blocks, and it has none. Add host { name = "...", uri = "..." } blocks to the provider "virtseed" block.',
      ),
    ];
  const d: Diagnostic[] = [];
  list(c.hosts).forEach((h, i) => {
    if (typeof h === 'string' && !known.includes(h))
      d.push(error(['hosts', i], 'Unknown host', `hosts names "${h}", which is none of the provider's host blocks (${known.join(', ')}).`));
  });
  const pin = str(c.pin);
  if (pin !== undefined && !known.includes(pin))
    d.push(error(['pin'], 'Unknown host', `pin names "${pin}", which is none of the provider's host blocks (${known.join(', ')}).`));
  return d;
}

/** Why the plan decides (again): a new placement, a new pin, or a rebalance; null to keep the prior host. */
function decisionCause(prior: PlacementState | null, planned: PlacementState): 'new' | 'pin' | 'rebalance' | null {
  if (!prior || !str(prior.host)) return 'new';
  if (planned.pin !== null && planned.pin !== prior.pin) return 'pin';
  if (planned.rebalance !== prior.rebalance) return 'rebalance';
  return null;
}

function requestOf(planned: PlacementState, ctx: HandlerContext<LibvirtClient>): PlacementRequest {
  const hosts = Array.isArray(planned.hosts) ? planned.hosts : ctx.hosts.map((h) => h.name ?? '');
  const group = str(planned.anti_affinity);
  const pin = str(planned.pin);
  const policy = str(planned.policy);
  return {
    name: str(planned.name) ?? '',
    memoryMiB: num(planned.memory) ?? 0,
    vcpu: num(planned.vcpu) ?? PLACEMENT_FIELDS.fields.vcpu.default,
    policy: isOneOf(PLACEMENT_POLICIES, policy) ? policy : PLACEMENT_FIELDS.fields.policy.default,
    hosts,
    ...(group !== undefined ? { antiAffinity: group } : {}),
    ...(pin !== undefined ? { pin } : {}),
  };
}

/** Decides `planned`'s host; the planned value with host and reason, and what to tell. */
async function place(
  ctx: HandlerContext<LibvirtClient>,
  planned: PlacementState,
  prior: PlacementState | null,
  cause: 'new' | 'pin' | 'rebalance',
): Promise<{ planned: PlacementState; diagnostics: Diagnostic[] }> {
  const request = requestOf(planned, ctx);
  const { result, concurrent, down } = await inventoryOf(ctx).decide(ctx, request);
  const diagnostics: Diagnostic[] = [];
  const considered = new Set(request.pin !== undefined ? [request.pin] : request.hosts);
  for (const err of down) {
    if (!considered.has(err.host ?? '') || ctx.notes.has(warnedDownKey(err.uri))) continue;
    ctx.notes.add(warnedDownKey(err.uri));
    diagnostics.push(
      warning(
        [],
        `Host ${err.host} skipped: it does not answer`,
        `${describeHost({ name: err.host, uri: err.uri })} could not be reached (${messageOfCause(err)}), so no placement of this plan chooses it; placements already on it stay there. Check that libvirtd runs there and answers at that URI.`,
      ),
    );
  }
  if (!result.ok) {
    const why = result.skipped.map((s) => `${s.host} ${s.why}`).join('; ');
    const fix =
      request.pin !== undefined
        ? `Pin another host, make room on ${request.pin} (or start it), or remove pin.`
        : 'Add a host, make room (fewer or smaller domains, or a higher max_memory / max_vcpu in the host block), or relax the anti-affinity group.';
    diagnostics.push(error(request.pin !== undefined ? ['pin'] : [], `No host for ${request.name}`, `${why}. ${fix}`));
    return { planned: { ...planned, host: UNKNOWN, reason: UNKNOWN }, diagnostics };
  }
  if (concurrent)
    diagnostics.push(
      warning(
        [],
        'Placements planned at the same time',
        `${request.name} was placed while another placement was being planned. Both were decided one after the other (no host is overbooked), but in an order Terraform may not repeat at apply, where it plans them again: chain placements that share hosts (depends_on = [the previous placement]; the constructs' HostPool does this) so the choice shown here is the one applied.`,
      ),
    );
  const from = str(prior?.host);
  if (cause !== 'new' && from !== undefined && from !== result.host)
    diagnostics.push(
      warning(
        [],
        `${request.name} moves from ${from} to ${result.host}`,
        `The placement chose again (${cause === 'pin' ? `pinned to ${result.host}` : 'rebalance changed'}): ${result.reason}. Its domain, volumes and seed follow; the domain's plan says whether it moves live or is replaced.`,
      ),
    );
  return { planned: { ...planned, host: result.host, reason: result.reason }, diagnostics };
}

function messageOfCause(err: HostUnreachableError): string {
  const c = err.cause;
  return (c instanceof Error ? c.message : String(c)).replace(/[.\s]+$/, '');
}

export const placement: ResourceHandler<PlacementState, LibvirtClient> = {
  typeName: 'virtseed_placement',
  schema: PLACEMENT_SCHEMA,
  hostAttribute: 'output',

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = [...validateConfig(config), ...hostDiagnostics(config, ctx)];
    let planned: PlacementState = {
      ...withTableDefaults(PLACEMENT_FIELDS, proposed, config),
      id: proposed.name,
      host: prior?.host ?? UNKNOWN,
      reason: prior?.reason ?? UNKNOWN,
    };
    const requiresReplace = prior ? replacePaths(PLACEMENT_FIELDS, prior, planned) : [];
    if (diagnostics.some((d) => d.severity === 'error')) return { planned, requiresReplace, diagnostics };
    const cause = requiresReplace.length ? 'new' : decisionCause(prior, planned);
    if (cause) {
      const inputs = [planned.name, planned.memory, planned.vcpu, planned.policy, planned.hosts, planned.anti_affinity, planned.pin];
      if (!isWhollyKnown(inputs) || !ctx.hosts.every((h) => h.uri)) planned = { ...planned, host: UNKNOWN, reason: UNKNOWN };
      else {
        const placed = await place(ctx, planned, requiresReplace.length ? null : prior, cause);
        planned = placed.planned;
        diagnostics.push(...placed.diagnostics);
      }
    }
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ planned }, ctx) {
    if (!planned) return { newState: null, diagnostics: [] };
    if (str(planned.host) !== undefined) return { newState: planned, diagnostics: [] };
    // Not known at plan (an input was unknown): decided now, with what is known at apply.
    const placed = await place(ctx, planned, null, 'new');
    const failed = placed.diagnostics.some((d) => d.severity === 'error');
    return { newState: failed ? null : placed.planned, diagnostics: placed.diagnostics };
  },

  async read({ current }) {
    return { newState: current, diagnostics: [] };
  },
};
