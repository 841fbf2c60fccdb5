/**
 * What libvirt reads back of a `virtseed_domain` in another spelling than the configuration's, though it means the
 * same: the read takes the state's spelling there, so a plan after an apply is empty. Pure.
 *
 * - Disks: libvirt keeps a domain's disks in target order (`vdb` before `vdc`), whatever order the configuration
 *   gave them in; the same disks in another order are the state's order.
 * - A disk's `cache = "default"`: libvirt writes no `cache` for it (QEMU's default), so it reads back as null.
 * - An empty `xml {}` block: it adds nothing, so the definition records no escape hatch and it reads back as null.
 */
import type { DomainDiskState, DomainState } from './model';
import { list, str } from './values';

/** `observed` with what means the same as `current` spelled as `current` spells it (see the module docstring). */
export function asWritten(current: DomainState, observed: DomainState): DomainState {
  const out = { ...observed };
  const hatch = current.xml;
  if (observed.xml === null && hatch && typeof hatch === 'object' && hatch.devices === null && hatch.xslt === null) out.xml = hatch;
  if (Array.isArray(observed.disk)) {
    const cur = list(current.disk);
    out.disk = inOrderOf(cur, observed.disk).map((d, i) =>
      d.cache === null && cur[i]?.cache === 'default' && cur[i]?.target === d.target ? { ...d, cache: 'default' } : d,
    );
  }
  return out;
}

/** `seen` in `current`'s order when both hold the same targets once each; else `seen` as it is. */
function inOrderOf(current: readonly DomainDiskState[], seen: DomainDiskState[]): DomainDiskState[] {
  if (current.length !== seen.length) return seen;
  const byTarget = new Map(seen.map((d) => [str(d.target), d]));
  if (byTarget.size !== seen.length || byTarget.has(undefined)) return seen;
  const ordered = current.map((d) => byTarget.get(str(d.target)));
  return ordered.every((d) => d !== undefined) ? (ordered as DomainDiskState[]) : seen;
}
