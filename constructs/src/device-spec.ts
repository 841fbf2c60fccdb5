/**
 * The domain model (src/domain `DomainSpec`) of a {@link VirtualMachineProps}' devices and settings, for the
 * model's own checks at synth, and the prop each model path stands for. Values that are tokens (known only at
 * plan) are left out: the provider checks them then.
 */
import { Token } from 'cdktf';
import {
  DISK_OPTION_ENTRIES,
  NIC_OPTION_ENTRIES,
  RNG_OPTIONS,
  optionEntries,
  parsePciAddress,
  parseUsbAddress,
  type DomainInterface,
  type DomainSpec,
} from '../../src/domain';
import type { AttributePath } from '../../src/diagnostics';
import { DOMAIN_FIELDS } from '../../src/fields';
import type { VirtualMachineProps } from './virtual-machine-props';

/** The value, or undefined when it is a token. */
function known<T>(v: T | undefined): T | undefined {
  return v === undefined || Token.isUnresolved(v) ? undefined : v;
}

/** Model path roots → prop names (list props keep their index). */
const PROPS: Record<string, string> = {
  title: 'title',
  description: 'description',
  userMetadata: 'metadata',
  onPoweroff: 'onPoweroff',
  onReboot: 'onReboot',
  onCrash: 'onCrash',
  bootDevices: 'boot.devices',
  bootMenu: 'boot.menuTimeoutMs',
  cpuTopology: 'cpuTopology',
  graphics: 'graphics',
  video: 'video',
  tpm: 'tpm',
  filesystems: 'filesystems',
  memoryBacking: 'filesystems',
  rng: 'rng',
  watchdog: 'watchdog',
  serials: 'serialPorts',
  consoles: 'consoles',
  channels: 'channels',
  inputs: 'inputs',
  hostdevs: 'hostDevices',
  disks: 'rootDisk',
  interfaces: 'networks',
  extraDevices: 'xml.devices',
};

/** The spec of the props' devices, and the prop a diagnostic path names. */
export function deviceSpecOf(props: VirtualMachineProps): { spec: DomainSpec; propOf: (path: AttributePath) => string } {
  const vcpu = known(props.vcpus) ?? DOMAIN_FIELDS.fields.vcpu.default;
  const spec: DomainSpec = {
    name: 'placeholder',
    type: 'qemu',
    memoryMiB: 64,
    vcpu: 1,
    disks: [],
    interfaces: [],
  };
  const max = known(props.maxVcpus) ?? vcpu;
  const t = props.cpuTopology;
  if (t && [t.sockets, t.cores, t.threads, t.dies].every((n) => !Token.isUnresolved(n)) && !Token.isUnresolved(max)) {
    spec.vcpu = Math.min(vcpu, max);
    spec.maxVcpu = max;
    spec.cpuTopology = { ...t };
  }
  if (known(props.title) !== undefined) spec.title = props.title;
  if (known(props.description) !== undefined) spec.description = props.description;
  if (props.metadata && !Token.isUnresolved(props.metadata)) spec.userMetadata = { ...props.metadata };
  if (props.onPoweroff) spec.onPoweroff = props.onPoweroff;
  if (props.onReboot) spec.onReboot = props.onReboot;
  if (props.onCrash) spec.onCrash = props.onCrash;
  if (props.boot?.devices) spec.bootDevices = [...props.boot.devices];
  if (props.boot?.menu) spec.bootMenu = known(props.boot.menuTimeoutMs) !== undefined ? { timeoutMs: props.boot.menuTimeoutMs } : {};
  if (props.kernel && spec.bootDevices) spec.os = { kernel: '/kernel' };
  const graphics = (props.graphics ?? []).map((g) => {
    const c = g.config;
    return {
      type: c.type,
      listen:
        known(c.socket) !== undefined
          ? { type: 'socket' as const, socket: c.socket as string }
          : { type: 'address' as const, address: known(c.listen) ?? '127.0.0.1' },
      ...(known(c.port) !== undefined ? { port: c.port } : {}),
      ...(known(c.password) !== undefined ? { password: c.password } : {}),
    };
  });
  if (graphics.length) spec.graphics = graphics;
  if (props.video) spec.video = { model: props.video };
  if (props.tpm) spec.tpm = { ...props.tpm.config };
  const filesystems = (props.filesystems ?? []).map((f) => {
    const c = f.config;
    const [source, target] = [known(c.source) ?? '/placeholder', known(c.target) ?? 'placeholder'];
    return c.driver === 'virtiofs'
      ? { driver: 'virtiofs' as const, source, target }
      : {
          driver: '9p' as const,
          source,
          target,
          ...(c.accessMode ? { accessMode: c.accessMode } : {}),
          ...(c.readonly ? { readonly: true } : {}),
        };
  });
  if (filesystems.length) spec.filesystems = filesystems;
  if (filesystems.some((f) => f.driver === 'virtiofs')) spec.memoryBacking = { source: 'memfd', access: 'shared' };
  if (props.rng) {
    const o = props.rng.options;
    spec.rng = {
      source: known(o.source) ?? DOMAIN_FIELDS.fields.rng.fields.source.default,
      ...Object.fromEntries(
        optionEntries(RNG_OPTIONS).flatMap(([key]) => (key !== 'source' && known(o[key]) !== undefined ? [[key, o[key]]] : [])),
      ),
    };
  }
  if (props.watchdog) spec.watchdog = { ...props.watchdog };
  const chars = (list: VirtualMachineProps['serialPorts']) =>
    (list ?? []).map((d) => {
      const c = d.config;
      const path = known(c.path) ?? '/placeholder';
      switch (c.type) {
        case 'file':
          return { source: { type: 'file' as const, path } };
        case 'unix':
          return { source: { type: 'unix' as const, path } };
        case 'tcp':
          return { source: { type: 'tcp' as const, host: known(c.host) ?? '127.0.0.1', port: known(c.port) ?? 1 } };
        default:
          return { source: { type: 'pty' as const } };
      }
    });
  if (props.serialPorts?.length) spec.serials = chars(props.serialPorts);
  if (props.consoles?.length) spec.consoles = chars(props.consoles);
  const channels = (props.channels ?? []).map((ch) => {
    const c = ch.config;
    const name = known(c.name) ?? 'placeholder';
    if (c.type === 'unix') return { name, source: { type: 'unix' as const, ...(known(c.path) !== undefined ? { path: c.path } : {}) } };
    return { name, source: { type: c.type } };
  });
  if (channels.length) spec.channels = channels;
  if (props.inputs?.length) spec.inputs = props.inputs.map((i) => ({ ...i }));
  const hostdevs = (props.hostDevices ?? []).map((h) => {
    const address = known(h.address);
    if (h.type === 'pci')
      return {
        type: 'pci' as const,
        address: address !== undefined ? parsePciAddress(address) : { domain: 0, bus: 0, slot: 0, function: 0 },
      };
    return { type: 'usb' as const, ...(address !== undefined ? parseUsbAddress(address) : { bus: 1, device: 1 }) };
  });
  if (hostdevs.length) spec.hostdevs = hostdevs;
  if (props.rootDisk) {
    const d = props.rootDisk;
    spec.disks = [
      {
        source: { file: '/placeholder' },
        target: 'vda',
        bus: 'virtio',
        device: 'disk',
        ...Object.fromEntries(
          DISK_OPTION_ENTRIES.flatMap(([key]) => (known(d[key]) !== undefined && d[key] !== '' ? [[key, d[key]]] : [])),
        ),
      },
    ];
  }
  spec.interfaces = (props.networks ?? []).map((n): DomainInterface => {
    const c = n.config;
    const options = Object.fromEntries(NIC_OPTION_ENTRIES.flatMap(([key]) => (known(c[key]) !== undefined ? [[key, c[key]]] : [])));
    if (c.direct !== undefined) return { type: 'direct', dev: known(c.direct) ?? 'eth0', mode: c.directMode ?? 'vepa', ...options };
    if (c.user) return { type: 'user', ...(c.restrict !== false ? { restrict: true } : {}), ...options };
    return { type: 'network', network: 'placeholder', ...options };
  });
  if (props.xml?.devices !== undefined && !Token.isUnresolved(props.xml.devices)) spec.extraDevices = props.xml.devices;
  const propOf = (path: AttributePath): string => {
    const [root, index] = path;
    const name = PROPS[String(root)] ?? String(root);
    return typeof index === 'number' && !name.includes('.') && root !== 'disks' ? `${name}[${index}]` : name;
  };
  return { spec, propOf };
}
