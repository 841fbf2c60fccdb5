/**
 * The devices whose settings are all flat options, each described once as an option table (./options.ts): the TPM,
 * the watchdog, the RNG and the input devices. For each option, the `virtseed_domain` attribute it is (its block in
 * src/fields/domain.ts holds its description, allowed values and default) and where libvirt keeps it in the device
 * element (libvirt formatdomain, "TPM device", "Watchdog devices", "Random number generator device", "Input
 * devices"). Render, parse (and so drift), the checks, the provider's state ⇄ model mapping and the constructs' spec
 * follow from the tables; the functions below add only what is fixed in each element (the TPM's emulator backend,
 * the RNG's virtio model and random backend) and libvirt's PS/2 inputs, which are not the model's.
 *
 * Adding an option to one of these devices: its field in src/fields/domain.ts, its entry here, its prop in
 * constructs/src/devices.ts (ARCHITECTURE.md, "Adding a device attribute"). Pure.
 */
import type { AttributePath, Diagnostic } from '../diagnostics';
import { DOMAIN_FIELDS } from '../fields';
import { ATTR, attr, child, type XmlNode } from '../xml';
import { DomainXmlParseError } from './errors';
import { readOptions, renderOptions, validateOptions, type OptionsOf } from './options';

const F = DOMAIN_FIELDS.fields;
const CONTROL_RE = /[\u0000-\u001f\u007f]/;
/** The largest whole number libvirt takes in an RNG `<rate>` (an int). */
const RATE_MAX = 2 ** 31 - 1;

/**
 * `<devices><tpm model=...><backend type='emulator' version=...>`: a TPM emulated by swtpm (Debian packages `swtpm`,
 * `swtpm-tools` on the host). libvirt keeps its state under /var/lib/libvirt/swtpm/<domain uuid>/ and removes it
 * when the domain is undefined with VIR_DOMAIN_UNDEFINE_TPM (libvirt ≥ 8.9). Without the attributes libvirt takes
 * TIS 1.2 (`absent`); a new TPM gets the table's default, CRB 2.0.
 */
export const TPM_OPTIONS = {
  model: {
    attribute: 'model',
    label: 'TPM model',
    xml: 'model',
    values: F.tpm.fields.model.values,
    default: F.tpm.fields.model.default,
    required: true,
    absent: 'tpm-tis',
  },
  version: {
    attribute: 'version',
    label: 'TPM version',
    element: 'backend',
    xml: 'version',
    values: F.tpm.fields.version.values,
    default: F.tpm.fields.version.default,
    required: true,
    absent: '1.2',
    check: (v: string, tpm: { readonly model?: string }): string | undefined =>
      tpm.model === 'tpm-crb' && v !== '2.0' ? "'2.0' with model 'tpm-crb' (a TPM 2.0 interface), or model 'tpm-tis'" : undefined,
  },
} as const;

/** `<devices><watchdog model=... action=...>`: when the guest stops feeding it, `action` happens. */
export const WATCHDOG_OPTIONS = {
  model: {
    attribute: 'model',
    label: 'watchdog model',
    xml: 'model',
    values: F.watchdog.fields.model.values,
    default: F.watchdog.fields.model.default,
    required: true,
    check: (v: string, w: WatchdogContext): string | undefined =>
      v === 'itco' && !w.q35 ? "'i6300esb' (PCI) or 'ib700' (ISA): the itco watchdog is part of the q35 chipset" : undefined,
  },
  action: {
    attribute: 'action',
    label: 'watchdog action',
    xml: 'action',
    values: F.watchdog.fields.action.values,
    default: F.watchdog.fields.action.default,
    required: true,
    absent: 'reset',
  },
} as const;

/** What a watchdog's check looks at: whether the domain has the q35 machine (`DomainSpec.secureBoot`). */
export interface WatchdogContext {
  readonly q35?: boolean;
}

/**
 * `<devices><rng model='virtio'><rate bytes= period=/><backend model='random'>DEVICE</backend>`: a virtio hardware
 * RNG fed from a host device (table order is element order: `<rate>` before `<backend>`).
 */
export const RNG_OPTIONS = {
  rateBytes: { attribute: 'rate_bytes', label: 'RNG rate', element: 'rate', xml: 'bytes', number: true, min: 1, max: RATE_MAX },
  ratePeriodMs: {
    attribute: 'rate_period',
    label: 'RNG rate period',
    element: 'rate',
    xml: 'period',
    number: true,
    min: 1,
    max: RATE_MAX,
    check: (_: number, rng: { readonly rateBytes?: number }): string | undefined =>
      rng.rateBytes === undefined ? 'no period without a rate: set the bytes per period too (rateBytes), or drop the period' : undefined,
  },
  source: {
    attribute: 'source',
    label: 'RNG source',
    element: 'backend',
    default: F.rng.fields.source.default,
    required: true,
    absent: '/dev/random',
    check: (v: string): string | undefined =>
      v.startsWith('/') && !CONTROL_RE.test(v) ? undefined : 'an absolute path on the libvirt host',
  },
} as const;

/** `<devices><input type=... bus=...>`. The PS/2 mouse and keyboard every x86 domain has are libvirt's, not listed. */
export const INPUT_OPTIONS = {
  type: { attribute: 'type', label: 'input type', xml: 'type', values: F.input.fields.type.values, required: true },
  bus: {
    attribute: 'bus',
    label: 'input bus',
    xml: 'bus',
    values: F.input.fields.bus.values,
    default: F.input.fields.bus.default,
    required: true,
  },
} as const;

/** A vCPU count of the topology: libvirt and QEMU take 1 to 255 of each. */
const topologyCount = <A extends string>(attribute: A, label: string) =>
  ({ attribute, label, xml: attribute, number: true, min: 1, max: 255, required: true }) as const;

/**
 * `<cpu><topology sockets= dies= cores= threads=/>` (formatdomain "CPU model and topology"): sockets × dies × cores ×
 * threads is the maximum vCPU count (./validate-devices.ts checks that). `dies` is always written (libvirt's own
 * output has it) and left out by parse at its default, 1.
 */
export const TOPOLOGY_OPTIONS = {
  sockets: topologyCount('sockets', 'CPU sockets'),
  dies: {
    attribute: 'dies',
    label: 'CPU dies',
    xml: 'dies',
    number: true,
    min: 1,
    max: 255,
    default: F.cpu_topology.fields.dies.default,
    written: true,
  },
  cores: topologyCount('cores', 'CPU cores'),
  threads: topologyCount('threads', 'CPU threads'),
} as const;

/** `<cpu><topology>` in the model. */
export type DomainCpuTopology = OptionsOf<typeof TOPOLOGY_OPTIONS>;

/** `<topology sockets= dies= cores= threads=/>`. */
export function topologyElement(t: DomainCpuTopology): XmlNode {
  const el: XmlNode = {};
  renderOptions(TOPOLOGY_OPTIONS, t, el);
  return el;
}

export function readTopology(node: XmlNode, where: string): DomainCpuTopology {
  return readOptions(TOPOLOGY_OPTIONS, node, where);
}

/** `<devices><tpm>` in the model. */
export type DomainTpm = OptionsOf<typeof TPM_OPTIONS>;
/** `<devices><watchdog>` in the model. */
export type DomainWatchdog = OptionsOf<typeof WATCHDOG_OPTIONS>;
/** `<devices><rng>` in the model: the backend's host device (`/dev/urandom`), at most `rateBytes` per `ratePeriodMs`. */
export type DomainRng = OptionsOf<typeof RNG_OPTIONS>;
/** `<devices><input>` in the model. */
export type DomainInput = OptionsOf<typeof INPUT_OPTIONS>;

/** `<tpm model=...><backend type='emulator' version=.../></tpm>`. */
export function tpmElement(t: DomainTpm): XmlNode {
  const el: XmlNode = { backend: { [`${ATTR}type`]: 'emulator' } };
  renderOptions(TPM_OPTIONS, t, el);
  return el;
}

/** A parsed `<tpm>` (`where`: its XPath). Throws DomainXmlParseError for a backend other than swtpm's emulator. */
export function readTpm(node: XmlNode, where: string): DomainTpm {
  const type = attr(child(node, 'backend'), 'type');
  if (type !== 'emulator')
    throw new DomainXmlParseError(`${where}/backend/@type`, `unsupported TPM backend '${type ?? ''}' (expected emulator)`);
  return readOptions(TPM_OPTIONS, node, where);
}

/** `<watchdog model=... action=.../>`. */
export function watchdogElement(w: DomainWatchdog): XmlNode {
  const el: XmlNode = {};
  renderOptions(WATCHDOG_OPTIONS, w, el);
  return el;
}

export function readWatchdog(node: XmlNode, where: string): DomainWatchdog {
  return readOptions(WATCHDOG_OPTIONS, node, where);
}

/** `<rng model='virtio'>[<rate/>]<backend model='random'>device</backend></rng>`. */
export function rngElement(r: DomainRng): XmlNode {
  const el: XmlNode = { [`${ATTR}model`]: 'virtio' };
  renderOptions(RNG_OPTIONS, r, el);
  const backend = child(el, 'backend') ?? {};
  backend[`${ATTR}model`] = 'random';
  el.backend = backend;
  return el;
}

/** A parsed `<rng>`. Throws DomainXmlParseError for a model other than virtio or a backend other than a device. */
export function readRng(node: XmlNode, where: string): DomainRng {
  if (attr(node, 'model') !== 'virtio')
    throw new DomainXmlParseError(`${where}/@model`, `unsupported rng model '${attr(node, 'model') ?? ''}'`);
  const backend = attr(child(node, 'backend'), 'model');
  if (backend !== 'random')
    throw new DomainXmlParseError(`${where}/backend/@model`, `unsupported rng backend '${backend ?? ''}' (expected random)`);
  return readOptions(RNG_OPTIONS, node, where);
}

/** `<input type=... bus=.../>`. */
export function inputElement(i: DomainInput): XmlNode {
  const el: XmlNode = {};
  renderOptions(INPUT_OPTIONS, i, el);
  return el;
}

/** A parsed `<input>`, or undefined for the PS/2 devices every x86 domain has. */
export function readInput(node: XmlNode, where: string): DomainInput | undefined {
  return (attr(node, 'bus') ?? 'ps2') === 'ps2' ? undefined : readOptions(INPUT_OPTIONS, node, where);
}

/** The checks of the spec's TPM, watchdog, RNG, inputs and CPU topology (`q35`: the domain has the q35 machine), by their paths. */
export function validateDeviceOptions(
  devices: { tpm?: DomainTpm; watchdog?: DomainWatchdog; rng?: DomainRng; inputs?: DomainInput[]; cpuTopology?: DomainCpuTopology },
  q35: boolean,
  out: Diagnostic[],
): void {
  const at = (...path: AttributePath): AttributePath => path;
  if (devices.tpm) validateOptions(TPM_OPTIONS, devices.tpm, devices.tpm, at('tpm'), out);
  if (devices.watchdog) validateOptions(WATCHDOG_OPTIONS, devices.watchdog, { q35 }, at('watchdog'), out);
  if (devices.rng) validateOptions(RNG_OPTIONS, devices.rng, devices.rng, at('rng'), out);
  if (devices.cpuTopology) validateOptions(TOPOLOGY_OPTIONS, devices.cpuTopology, {}, at('cpuTopology'), out);
  (devices.inputs ?? []).forEach((input, i) => validateOptions(INPUT_OPTIONS, input, {}, at('inputs', i), out));
}
