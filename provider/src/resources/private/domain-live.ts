/**
 * The live half of a `virtseed_domain` update: what the change decision (./domain-changes.ts) marks `live` is
 * applied to the running domain and its persistent definition together (VIR_DOMAIN_AFFECT_LIVE | AFFECT_CONFIG):
 * memory through the virtio balloon (virDomainSetMemoryFlags), vCPUs by hot-plug (virDomainSetVcpusFlags), disks
 * and NICs attached or detached (virDomainAttachDeviceFlags / DetachDeviceFlags), a NIC's link state
 * (virDomainUpdateDeviceFlags). The handler defines the whole planned definition afterwards, so libvirt's
 * persistent definition is exactly the plan's.
 */
import { renderDiskXml, renderInterfaceXml } from '../../../../src/domain';
import type { FieldChange } from '../../../../src/fields';
import { VIR_DOMAIN_AFFECT_CONFIG, VIR_DOMAIN_AFFECT_LIVE, type DomRef, type LibvirtClient } from '../../../../src/libvirt';
import type { ResolvedRefs } from './domain-state';
import { toDomainSpec } from './domain-state';
import type { DomainState } from './model';
import { num } from './values';

const BOTH = VIR_DOMAIN_AFFECT_LIVE | VIR_DOMAIN_AFFECT_CONFIG;

/** One libvirt call of a live change, for the log. */
export interface LiveStep {
  readonly what: string;
  run(): Promise<void>;
}

/**
 * The libvirt calls that carry out the `live` changes among `changes` (running and autostart aside: the handler
 * does those), in a safe order: devices removed, devices added, memory, vCPUs, link states. `refs` are the
 * planned state's resolved libvirt references.
 */
export function liveSteps(
  client: LibvirtClient,
  dom: DomRef,
  prior: DomainState,
  planned: DomainState,
  changes: readonly FieldChange[],
  refs: ResolvedRefs,
): LiveStep[] {
  const live = changes.filter((c) => c.impact === 'live');
  const after = toDomainSpec(planned, refs);
  // Devices being removed are matched by libvirt on their target (disks) or MAC (NICs): placeholders do for sources.
  const before = toDomainSpec(prior, { disks: [] });
  const removed: LiveStep[] = [];
  const added: LiveStep[] = [];
  const rest: LiveStep[] = [];
  for (const c of live) {
    const [attr, index, field] = c.path;
    if (attr === 'memory') {
      const mib = num(planned.memory) ?? 0;
      rest.push({ what: `memory → ${mib} MiB (balloon)`, run: () => client.domainSetMemoryFlags(dom, mib * 1024, BOTH) });
    } else if (attr === 'vcpu') {
      const n = num(planned.vcpu) ?? 1;
      rest.push({ what: `vcpu → ${n} (hot-plug)`, run: () => client.domainSetVcpusFlags(dom, n, BOTH) });
    } else if ((attr === 'disk' || attr === 'network_interface') && typeof index === 'number' && field === undefined) {
      const xml = (spec: typeof after) => (attr === 'disk' ? renderDiskXml(spec.disks[index]) : renderInterfaceXml(spec.interfaces[index]));
      if (c.to === null) removed.push({ what: `${c.name} detached`, run: () => client.domainDetachDeviceFlags(dom, xml(before), BOTH) });
      else added.push({ what: `${c.name} attached`, run: () => client.domainAttachDeviceFlags(dom, xml(after), BOTH) });
    } else if (attr === 'network_interface' && typeof index === 'number' && field === 'link_state') {
      const iface = after.interfaces[index];
      rest.push({
        what: `${c.name} → ${iface.linkState ?? 'up'}`,
        run: () => client.domainUpdateDeviceFlags(dom, renderInterfaceXml(iface), BOTH),
      });
    }
  }
  return [...removed.reverse(), ...added, ...rest];
}
