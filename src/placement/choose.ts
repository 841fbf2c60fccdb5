/**
 * Chooses the host of one VM (pure, deterministic: the same request and host views give the same answer).
 *
 * Filters, in order, each naming why a host is skipped: the host is one of the views; it answers; it has memory
 * and vCPUs left for the VM (guests' maximum memory and vCPUs count, running or not: a defined domain may start);
 * no guest of the VM's anti-affinity group is there. Then the policy: `spread` takes the host whose committed
 * memory share after adding the VM is lowest (ties: fewer guests, then the order of `hosts`), `pack` the highest
 * (ties: the order of `hosts`). A pinned VM considers its pinned host only.
 */
import type { Guest, HostView, PlacementRequest, PlacementResult, Skipped } from './model';

interface Candidate {
  readonly host: string;
  readonly order: number;
  /** Committed memory share (0..1) with the VM added. */
  readonly share: number;
  readonly memoryAfter: number;
  readonly guests: number;
}

export function choosePlacement(request: PlacementRequest, views: ReadonlyMap<string, HostView>): PlacementResult {
  const names = request.pin !== undefined ? [request.pin] : [...new Set(request.hosts)];
  const skipped: Skipped[] = [];
  const fits: Candidate[] = [];
  names.forEach((name, order) => {
    const view = views.get(name);
    if (!view) return skipped.push({ host: name, why: 'is none of the provider host blocks', down: false });
    if (!view.answers) return skipped.push({ host: name, why: `does not answer (${view.reason})`, down: true });
    const others = view.guests.filter((g) => g.name !== request.name);
    const memory = sum(others, (g) => g.memoryMiB);
    const vcpu = sum(others, (g) => g.vcpu);
    if (memory + request.memoryMiB > view.memoryMiB)
      return skipped.push({
        host: name,
        why: `is full: ${memory} of ${view.memoryMiB} MiB of memory committed, ${request.name} needs ${request.memoryMiB}`,
        down: false,
      });
    if (vcpu + request.vcpu > view.vcpu)
      return skipped.push({
        host: name,
        why: `is full: ${vcpu} of ${view.vcpu} vCPUs committed, ${request.name} needs ${request.vcpu}`,
        down: false,
      });
    const group = request.antiAffinity;
    const member = group === undefined ? undefined : others.find((g) => g.antiAffinity === group);
    if (member) return skipped.push({ host: name, why: `already has ${member.name} of anti-affinity group ${group}`, down: false });
    const memoryAfter = memory + request.memoryMiB;
    fits.push({ host: name, order, share: memoryAfter / view.memoryMiB, memoryAfter, guests: others.length });
    return undefined;
  });
  if (!fits.length) return { ok: false, skipped };
  const best = [...fits].sort(request.policy === 'pack' ? byPack : bySpread)[0];
  const how = request.pin !== undefined ? 'pinned' : request.policy;
  // Not the host's memory budget: read from libvirt (virNodeGetInfo) it can change between the plan and the apply
  // (memory hotplug, ballooning), and the apply's plan must give the same reason (docs/FACTS.md, "Many hosts").
  const reason = `${how}: ${best.host} (${best.memoryAfter} MiB committed with ${request.name}, ${best.guests + 1} domain${best.guests ? 's' : ''})`;
  return { ok: true, host: best.host, reason, skipped };
}

function sum(guests: readonly Guest[], of: (g: Guest) => number): number {
  return guests.reduce((n, g) => n + of(g), 0);
}

function bySpread(a: Candidate, b: Candidate): number {
  return a.share - b.share || a.guests - b.guests || a.order - b.order;
}

function byPack(a: Candidate, b: Candidate): number {
  return b.share - a.share || a.order - b.order;
}
