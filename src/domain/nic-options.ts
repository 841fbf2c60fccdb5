/**
 * The options of a NIC beyond what it is attached to (its `type` and source) and its MAC, in one place: for each,
 * the `virtseed_domain` `network_interface` attribute it is (src/fields/domain.ts holds its description, allowed
 * values, default and change rule) and where libvirt keeps it in the `<interface>` element (libvirt formatdomain,
 * "Network interfaces"). Render, parse (and so drift), the checks (`validateNicOptions`), the provider's state ⇄
 * model mapping and the constructs' `NicOptions` follow from `NIC_OPTIONS`.
 *
 * Adding a NIC option: its field in src/fields/domain.ts (`network_interface.fields`), its entry here, its prop in
 * constructs/src/network-attachment.ts `NicOptions` (ARCHITECTURE.md, "Adding a device attribute"). Pure.
 */
import type { AttributePath, Diagnostic } from '../diagnostics';
import { DOMAIN_FIELDS } from '../fields';
import { attr, child, type XmlNode } from '../xml';
import { DomainXmlParseError } from './errors';
import { optionEntries, readOptions, renderOptions, validateOptions, type OptionsOf } from './options';

const F = DOMAIN_FIELDS.fields.network_interface.fields;

/** What a NIC option's check may look at beside the value: the NIC's kind. */
export interface NicContext {
  readonly type: string;
  /** A user-mode NIC's isolation (QEMU command-line passthrough, which takes none of the options but `model`). */
  readonly restrict?: boolean;
}

/** True for a restricted user-mode NIC: QEMU command-line passthrough, not an `<interface>` element. */
const passthrough = (nic: NicContext): boolean => nic.type === 'user' && nic.restrict === true;

/**
 * Each option as ./options.ts `OptionSpec` describes it (`element`: the child of `<interface>` that holds it); a
 * `check` is given the value and the NIC.
 */
export const NIC_OPTIONS = {
  model: { attribute: 'model', element: 'model', xml: 'type', values: F.model.values, default: F.model.default, written: true },
  linkState: {
    attribute: 'link_state',
    element: 'link',
    xml: 'state',
    values: F.link_state.values,
    default: F.link_state.default,
    check: (v: string, nic: NicContext): string | undefined =>
      v !== F.link_state.default && passthrough(nic)
        ? `'${F.link_state.default}' on a restricted user-mode NIC (QEMU command-line passthrough has no link state; use a libvirt network NIC, or restrict false, for 'down')`
        : undefined,
  },
  mtu: {
    attribute: 'mtu',
    element: 'mtu',
    xml: 'size',
    number: true,
    min: 68,
    max: 65535,
    check: (_: number, nic: NicContext): string | undefined =>
      nic.type === 'direct'
        ? 'no mtu on a direct (macvtap) NIC: libvirt 9.0 refuses it ("setting MTU on interface type direct is not supported yet"), the NIC has the MTU of its host interface; or a NIC on a libvirt network'
        : passthrough(nic)
          ? 'no mtu on a restricted user-mode NIC (QEMU command-line passthrough takes none)'
          : undefined,
  },
  vlan: {
    attribute: 'vlan',
    element: 'vlan/tag',
    xml: 'id',
    number: true,
    min: 0,
    max: 4095,
    check: (_: number, nic: NicContext): string | undefined =>
      passthrough(nic) ? 'no vlan on a restricted user-mode NIC (QEMU command-line passthrough takes none)' : undefined,
  },
} as const;

/** The model key of a NIC option (camelCase). */
export type NicOptionKey = keyof typeof NIC_OPTIONS;

/** A NIC's options in the model (src/domain/model.ts `DomainInterfaceCommon` has them). */
export type DomainNicOptions = OptionsOf<typeof NIC_OPTIONS>;

/** The options as [model key, description] pairs, in table order. */
export const NIC_OPTION_ENTRIES = optionEntries<typeof NIC_OPTIONS, NicContext>(NIC_OPTIONS);

/** Writes the options `nic` has into its `<interface>` element (`model` always: libvirt's own default is not virtio). */
export function renderNicOptions(nic: DomainNicOptions, element: XmlNode): void {
  renderOptions<typeof NIC_OPTIONS, NicContext>(NIC_OPTIONS, nic, element);
}

/**
 * The options of a parsed `<interface>` (`where`: its XPath, for errors), without those at their default. Throws
 * DomainXmlParseError for a value the table does not allow, a number that is not one, more than one VLAN tag, or
 * a VLAN trunk.
 */
export function readNicOptions(nic: XmlNode, where: string): DomainNicOptions {
  // A trunk carries the tags it lists; the model's vlan is one untagged-access tag.
  if (attr(child(nic, 'vlan'), 'trunk') === 'yes') throw new DomainXmlParseError(`${where}/vlan`, 'only a single VLAN tag is supported');
  return readOptions<typeof NIC_OPTIONS, NicContext>(NIC_OPTIONS, nic, where);
}

/** The checks of a NIC's options (`path`: the NIC's attribute path): allowed values, ranges, and what its kind refuses. */
export function validateNicOptions(nic: DomainNicOptions & NicContext, path: AttributePath, out: Diagnostic[]): void {
  validateOptions<typeof NIC_OPTIONS, NicContext>(NIC_OPTIONS, nic, nic, path, out);
}
