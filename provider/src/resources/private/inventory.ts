/**
 * What the provider's hosts have committed, for virtseed_placement: read once per provider process (a plan, or an
 * apply) from every `host` block, and the placements this process decided, so placements of one Terraform run see
 * each other's choices.
 *
 * Why once per process: Terraform plans a run in one provider process and applies it in another, where it plans
 * each placement again and requires the same answer (else "Provider produced inconsistent final plan"). Both
 * processes read the hosts before any domain of the run exists, so both start from the same picture (but for a
 * host's memory size, which libvirt may report differently at apply: src/placement names no size in what it plans); the
 * domains created during the apply do not change it (a domain of a placement decided in the process counts once,
 * as that decision). Placements planned one after the other (each depends on the one before, as the constructs
 * chain them) are therefore decided alike in both. See docs/guides/fleet.md "How placements of one plan see each
 * other".
 */
import { parseDomainFootprint, METADATA_KEYS } from '../../../../src/domain';
import type { LibvirtClient } from '../../../../src/libvirt';
import { choosePlacement, type Guest, type HostView, type PlacementRequest, type PlacementResult } from '../../../../src/placement';
import { HostUnreachableError, type HostConfig } from '../../host';
import type { HandlerContext } from '../../handler';
import { messageOf } from './values';

/** vCPUs a host may commit per physical CPU when its host block sets no `max_vcpu` (OpenStack Nova's default ratio 4.0). */
const VCPU_PER_CPU = 4;

/** One host as read: its view, and the error that made it count as down. */
interface Observed {
  readonly view: HostView;
  readonly error?: HostUnreachableError;
}

/** The decisions and host views of one provider process. */
export class Inventory {
  private observed: Promise<Map<string, Observed>> | undefined;
  /** VM name → the host decided for it in this process, and what it commits there. */
  private readonly decided = new Map<string, { host: string; guest: Guest }>();
  /** Deciding calls now running (for the warning about placements planned at the same time). */
  private running = 0;

  /** Reads every host of the provider, once per process (a host that cannot be reached counts as down). */
  private read(ctx: HandlerContext<LibvirtClient>): Promise<Map<string, Observed>> {
    this.observed ??= Promise.all(ctx.hosts.map((h) => observe(ctx, h))).then((all) => new Map(all.map((o) => [o.view.name, o])));
    return this.observed;
  }

  /**
   * Decides the host of `request` against the hosts and the decisions made before it in this process, and records
   * the decision. `concurrent` is true when another placement was being decided at the same time (their order,
   * and so their choices, may differ at apply: chain them). `down`: the hosts that did not answer.
   */
  async decide(
    ctx: HandlerContext<LibvirtClient>,
    request: PlacementRequest,
  ): Promise<{ result: PlacementResult; concurrent: boolean; down: HostUnreachableError[] }> {
    this.running++;
    let concurrent = this.running > 1;
    try {
      const observed = await this.read(ctx);
      concurrent ||= this.running > 1;
      // From here on synchronous: no other decision interleaves.
      const views = new Map([...observed].map(([name, o]) => [name, this.withDecisions(o.view, request.name)]));
      const result = choosePlacement(request, views);
      if (result.ok)
        this.decided.set(request.name, {
          host: result.host,
          guest: { name: request.name, memoryMiB: request.memoryMiB, vcpu: request.vcpu, antiAffinity: request.antiAffinity },
        });
      const down = [...observed.values()].flatMap((o) => (o.error ? [o.error] : []));
      return { result, concurrent, down };
    } finally {
      this.running--;
    }
  }

  /** A host's view with this process's decisions in place of what the host says of those VMs (and without `self`). */
  private withDecisions(view: HostView, self: string): HostView {
    if (!view.answers) return view;
    const guests = view.guests.filter((g) => g.name !== self && !this.decided.has(g.name));
    for (const [name, d] of this.decided) if (d.host === view.name && name !== self) guests.push(d.guest);
    return { ...view, guests };
  }
}

/** Reads one host: its memory and CPUs, and every domain's memory, vCPUs and anti-affinity group. */
async function observe(ctx: HandlerContext<LibvirtClient>, host: HostConfig): Promise<Observed> {
  const name = host.name ?? '';
  let client: LibvirtClient;
  try {
    client = await ctx.client(host.name);
  } catch (err) {
    if (err instanceof HostUnreachableError) return { view: { name, answers: false, reason: messageOf(err.cause) }, error: err };
    return { view: { name, answers: false, reason: messageOf(err) } };
  }
  const [node, domains] = await Promise.all([client.nodeGetInfo(), client.connectListAllDomains(0)]);
  // The persistent definition when there is one (VIR_DOMAIN_XML_INACTIVE = 2): what the domain commits when it starts.
  const xmls = await Promise.all(domains.map((d) => client.domainGetXmlDesc(d, 2)));
  const guests = xmls.map((xml): Guest => {
    const f = parseDomainFootprint(xml);
    const group = f.metadata?.[METADATA_KEYS.antiAffinity];
    return { name: f.name, memoryMiB: f.memoryMiB, vcpu: f.vcpu, ...(group ? { antiAffinity: group } : {}) };
  });
  return {
    view: {
      name,
      answers: true,
      memoryMiB: host.maxMemoryMiB ?? Math.floor(node.memoryKiB / 1024),
      vcpu: host.maxVcpu ?? node.cpus * VCPU_PER_CPU,
      guests: guests.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    },
  };
}

const inventories = new WeakMap<Set<string>, Inventory>();

/**
 * The inventory of this provider process's walk: one per `ctx.notes`, which is new at each ConfigureProvider.
 * Terraform starts a process per walk, so for it this is the process's one inventory; a process a test harness
 * reattached terraform to (TF_REATTACH_PROVIDERS) serves several walks, and each reads the hosts afresh.
 */
export function inventoryOf(ctx: HandlerContext<LibvirtClient>): Inventory {
  let found = inventories.get(ctx.notes);
  if (!found) inventories.set(ctx.notes, (found = new Inventory()));
  return found;
}
