/**
 * The live half of a `virtseed_domain` update: what the change decision (./domain-changes.ts) marks `live` is
 * applied to the running domain and its persistent definition together (VIR_DOMAIN_AFFECT_LIVE | AFFECT_CONFIG):
 * memory through the virtio balloon (virDomainSetMemoryFlags), vCPUs by hot-plug (virDomainSetVcpusFlags), disks
 * and NICs attached or detached (virDomainAttachDeviceFlags / DetachDeviceFlags), a NIC's link state
 * (virDomainUpdateDeviceFlags); and the settings of issue 22 that libvirt changes on a running domain: title,
 * description and the user's metadata (virDomainSetMetadata), the on_* actions (virDomainSetLifecycleAction,
 * which QEMU ≥ 6 applies at once), a display's password and a NIC's bandwidth (virDomainUpdateDeviceFlags). The
 * handler defines the whole planned definition afterwards, so libvirt's persistent definition is exactly the plan's.
 */
import {
  NIC_OPTIONS,
  renderDiskXml,
  renderGraphicsXml,
  renderInterfaceXml,
  USER_METADATA_XML_NAMESPACE,
  type DomainSpec,
} from '../../../../src/domain';
import { DOMAIN_FIELDS, type FieldChange } from '../../../../src/fields';
import {
  VIR_DOMAIN_AFFECT_CONFIG,
  VIR_DOMAIN_AFFECT_LIVE,
  VIR_DOMAIN_LIFECYCLE_ACTION,
  VIR_DOMAIN_LIFECYCLE_CRASH,
  VIR_DOMAIN_LIFECYCLE_POWEROFF,
  VIR_DOMAIN_LIFECYCLE_REBOOT,
  VIR_DOMAIN_METADATA_DESCRIPTION,
  VIR_DOMAIN_METADATA_ELEMENT,
  VIR_DOMAIN_METADATA_TITLE,
  type DomRef,
  type LibvirtClient,
} from '../../../../src/libvirt';
import type { ResolvedRefs } from './domain-state';
import { toDomainSpec } from './domain-state';
import type { DomainState } from './model';
import { num, str } from './values';

const LIFECYCLE_TYPES = {
  on_poweroff: VIR_DOMAIN_LIFECYCLE_POWEROFF,
  on_reboot: VIR_DOMAIN_LIFECYCLE_REBOOT,
  on_crash: VIR_DOMAIN_LIFECYCLE_CRASH,
};

function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The user's metadata as the element virDomainSetMetadata takes (libvirt puts it in USER_METADATA_XML_NAMESPACE). */
function userMetadataElement(values: Record<string, string>): string {
  const entries = Object.keys(values)
    .sort()
    .map((k) => `<entry key="${xmlText(k)}">${xmlText(values[k])}</entry>`)
    .join('');
  return `<entries>${entries}</entries>`;
}

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
  after: DomainSpec = toDomainSpec(planned, refs),
): LiveStep[] {
  const live = changes.filter((c) => c.impact === 'live');
  // Devices being removed are matched by libvirt on their target (disks) or MAC (NICs): placeholders do for sources.
  const before = toDomainSpec(prior, { disks: [] });
  const removed: LiveStep[] = [];
  const added: LiveStep[] = [];
  const rest: LiveStep[] = [];
  const updatedNics = new Set<number>();
  const nicUpdate = (index: number, name: string) => {
    if (updatedNics.has(index)) return;
    updatedNics.add(index);
    const iface = after.interfaces[index];
    rest.push({ what: `${name} updated`, run: () => client.domainUpdateDeviceFlags(dom, renderInterfaceXml(iface), BOTH) });
  };
  // on_poweroff = restart needs on_reboot = restart first, and on_reboot = destroy needs on_poweroff = destroy first.
  const first = planned.on_reboot === 'restart' ? 'on_reboot' : 'on_poweroff';
  const lifecycle = live
    .filter((c) => c.path.length === 1 && String(c.path[0]) in LIFECYCLE_TYPES)
    .sort((a, b) => (a.path[0] === first ? 0 : 1) - (b.path[0] === first ? 0 : 1));
  for (const c of lifecycle) {
    const key = c.path[0] as keyof typeof LIFECYCLE_TYPES;
    const action = String(planned[key]) as keyof typeof VIR_DOMAIN_LIFECYCLE_ACTION;
    rest.push({
      what: `${key} → ${action}`,
      run: () => client.domainSetLifecycleAction(dom, LIFECYCLE_TYPES[key], VIR_DOMAIN_LIFECYCLE_ACTION[action], BOTH),
    });
  }
  for (const c of live) {
    const [attr, index, field] = c.path;
    if (attr === 'memory') {
      const mib = num(planned.memory) ?? 0;
      rest.push({ what: `memory → ${mib} MiB (balloon)`, run: () => client.domainSetMemoryFlags(dom, mib * 1024, BOTH) });
    } else if (attr === 'vcpu') {
      const n = num(planned.vcpu) ?? DOMAIN_FIELDS.fields.vcpu.default;
      rest.push({ what: `vcpu → ${n} (hot-plug)`, run: () => client.domainSetVcpusFlags(dom, n, BOTH) });
    } else if ((attr === 'disk' || attr === 'network_interface') && typeof index === 'number' && field === undefined) {
      const xml = (spec: typeof after) => (attr === 'disk' ? renderDiskXml(spec.disks[index]) : renderInterfaceXml(spec.interfaces[index]));
      if (c.to === null) removed.push({ what: `${c.name} detached`, run: () => client.domainDetachDeviceFlags(dom, xml(before), BOTH) });
      else added.push({ what: `${c.name} attached`, run: () => client.domainAttachDeviceFlags(dom, xml(after), BOTH) });
    } else if (attr === 'network_interface' && typeof index === 'number' && field === 'link_state') {
      const iface = after.interfaces[index];
      updatedNics.add(index);
      rest.push({
        what: `${c.name} → ${iface.linkState ?? NIC_OPTIONS.linkState.default}`,
        run: () => client.domainUpdateDeviceFlags(dom, renderInterfaceXml(iface), BOTH),
      });
    } else if (attr === 'network_interface' && typeof index === 'number' && field === 'bandwidth') {
      nicUpdate(index, `network_interface[${index}] bandwidth`);
    } else if (attr === 'title' || attr === 'description') {
      const value = str(planned[attr]) ?? null;
      const type = attr === 'title' ? VIR_DOMAIN_METADATA_TITLE : VIR_DOMAIN_METADATA_DESCRIPTION;
      rest.push({
        what: `${attr} ${value === null ? 'removed' : 'set'}`,
        run: () => client.domainSetMetadata(dom, type, value, null, null, BOTH),
      });
    } else if (attr === 'metadata') {
      const values = after.userMetadata;
      rest.push({
        what: `metadata ${values ? 'set' : 'removed'}`,
        run: () =>
          client.domainSetMetadata(
            dom,
            VIR_DOMAIN_METADATA_ELEMENT,
            values ? userMetadataElement(values) : null,
            'vsuser',
            USER_METADATA_XML_NAMESPACE,
            BOTH,
          ),
      });
    } else if (attr === 'graphics' && typeof index === 'number' && field === 'password') {
      const graphics = after.graphics?.[index];
      if (graphics)
        rest.push({
          what: `graphics[${index}] password changed`,
          run: () => client.domainUpdateDeviceFlags(dom, renderGraphicsXml(graphics), BOTH),
        });
    }
  }
  return [...removed.reverse(), ...added, ...rest];
}
