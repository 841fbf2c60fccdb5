/**
 * `virtseed_domain`'s config checks (pure), at ValidateResourceConfig and again at plan: the values the field
 * table allows, the rules between attributes, and — once the config is known but for its references to objects
 * created by the same plan (volumes, seed, Ignition config, networks: the model's checks do not read them) — the
 * shared domain model's own validation (src/domain `validateDomainSpec`) with its paths in Terraform's names. One
 * diagnostic per path: the model's check of an attribute the table already reported is left out.
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import { stylesheetDiagnostics, validateDomainSpec } from '../../../../src/domain';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import { hasWritableDisk, NO_WRITABLE_DISK } from '../../../../src/snapshot';
import { toDomainSpec, withDefaults } from './domain-state';
import { valueDiagnostics } from './fields';
import type { DomainState } from './model';
import { mapDiagnostics } from './paths';
import { isWhollyKnown, list, num, str, UNKNOWN } from './values';

/** The domain model's names → the resource's. */
const SPEC_PATHS = {
  rename: {
    memoryMiB: 'memory',
    maxMemoryMiB: 'max_memory',
    maxVcpu: 'max_vcpu',
    disks: 'disk',
    interfaces: 'network_interface',
    serialLogFile: 'console_log',
    secureBoot: 'secure_boot',
    cpuMode: 'cpu_mode',
    userMetadata: 'metadata',
    cpuTopology: 'cpu_topology',
    bootDevices: 'boot_devices',
    onPoweroff: 'on_poweroff',
    onReboot: 'on_reboot',
    onCrash: 'on_crash',
    filesystems: 'filesystem',
    accessMode: 'access_mode',
    serials: 'serial',
    consoles: 'console',
    channels: 'channel',
    inputs: 'input',
    hostdevs: 'hostdev',
    rateBytes: 'rate_bytes',
    ratePeriodMs: 'rate_period',
  },
};

/**
 * Model paths whose Terraform attribute is not a step-by-step rename (flattened or nested differently), as
 * `from` prefix → `to` prefix over the dotted path; applied before SPEC_PATHS.
 */
const SPEC_PATH_REWRITES: readonly [RegExp, string][] = [
  [/^bootMenu\.timeoutMs$/, 'boot_menu_timeout'],
  [/^(serials|consoles|channels)\.(\d+)\.source\.(\w+)$/, '$1.$2.$3'],
  [/^interfaces\.(\d+)\.bandwidth\.(inbound|outbound)\.(\w+)$/, 'interfaces.$1.bandwidth.$2_$3'],
  [/^interfaces\.(\d+)\.dev$/, 'interfaces.$1.direct'],
  [/^interfaces\.(\d+)\.mode$/, 'interfaces.$1.direct_mode'],
  [/^video\.model$/, 'video'],
  [/^graphics\.(\d+)\.socket$/, 'graphics.$1.socket'],
  [/^hostdevs\.(\d+)\.(bus|device)$/, 'hostdevs.$1.address'],
  [/^extraDevices$/, 'xml.devices'],
  [/^memoryBacking$/, 'filesystem'],
];

function rewritePath(d: Diagnostic): Diagnostic {
  const dotted = d.path.join('.');
  for (const [from, to] of SPEC_PATH_REWRITES) {
    if (!from.test(dotted)) continue;
    const path = dotted
      .replace(from, to)
      .split('.')
      .map((step) => (/^\d+$/.test(step) ? Number(step) : step));
    return { ...d, path };
  }
  return d;
}

function waitForDiagnostics(c: DomainState): Diagnostic[] {
  const d: Diagnostic[] = [];
  const waitFor = str(c.wait_for);
  if (waitFor === 'cloud-init' && c.cloudinit_seed_id === null)
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "cloud-init" needs a cloud-init seed (cloudinit_seed_id). Attach a seed or set wait_for = "none".',
      ),
    );
  if (waitFor === 'ignition' && c.ignition_id === null)
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "ignition" needs an Ignition config (ignition_id). Attach one or set wait_for = "none".',
      ),
    );
  if (waitFor === 'lease' && !list(c.network_interface).some((n) => n.user !== true))
    d.push(
      error(
        ['wait_for'],
        'Nothing to wait for',
        'wait_for = "lease" needs a network_interface on a libvirt network (network = ...): DHCP leases come from libvirt networks, not from user-mode networking. Add one or set wait_for = "none".',
      ),
    );
  const waitTimeout = num(c.wait_timeout);
  if (waitTimeout !== undefined && !(waitTimeout > 0))
    d.push(error(['wait_timeout'], 'Invalid wait_timeout', `wait_timeout is ${waitTimeout}; expected seconds > 0.`));
  return d;
}

function deviceDiagnostics(c: DomainState): Diagnostic[] {
  const d: Diagnostic[] = [];
  list(c.disk).forEach((disk, i) => {
    const n = (disk.volume_id !== null ? 1 : 0) + (disk.file !== null ? 1 : 0);
    if (n !== 1) d.push(error(['disk', i], 'Invalid disk', `disk ${i} must set exactly one of volume_id and file.`));
  });
  list(c.network_interface).forEach((n, i) => {
    if (n.network !== null && n.user === true)
      d.push(error(['network_interface', i, 'user'], 'Invalid network_interface', 'Set either network or user = true, not both.'));
    if (n.direct !== null && (n.network !== null || n.user === true))
      d.push(error(['network_interface', i, 'direct'], 'Invalid network_interface', 'Set one of network, user = true and direct.'));
    if (n.direct_mode !== null && n.direct_mode !== UNKNOWN && n.direct === null)
      d.push(
        error(
          ['network_interface', i, 'direct_mode'],
          'direct_mode without direct',
          'direct_mode applies to a macvtap NIC (direct = "eth0"); drop it.',
        ),
      );
    const b = n.bandwidth;
    if (b && b !== UNKNOWN) {
      if (b.inbound_average === null && b.outbound_average === null)
        d.push(
          error(
            ['network_interface', i, 'bandwidth'],
            'Empty bandwidth',
            'Give inbound_average or outbound_average (KiB/s), or drop the bandwidth block.',
          ),
        );
      for (const dir of ['inbound', 'outbound'] as const)
        for (const k of ['peak', 'burst'] as const)
          if (b[`${dir}_${k}`] !== null && b[`${dir}_average`] === null)
            d.push(
              error(
                ['network_interface', i, 'bandwidth', `${dir}_${k}`],
                `${dir}_${k} without ${dir}_average`,
                `Set ${dir}_average too: libvirt limits by the average first.`,
              ),
            );
    }
    if (n.network === null && n.direct === null && n.user !== true && n.user !== null && n.user !== UNKNOWN)
      d.push(
        error(
          ['network_interface', i],
          'Invalid network_interface',
          'Set network (a virtseed_network.id or a libvirt network name) or user = true.',
        ),
      );
  });
  return d;
}

/** Which fields a serial port's or console's `type` uses. */
const CHAR_FIELDS_OF: Record<string, readonly string[]> = { pty: [], file: ['path'], unix: ['path'], tcp: ['host', 'port'] };

function settingDiagnostics(c: DomainState): Diagnostic[] {
  const d: Diagnostic[] = [];
  for (const block of ['serial', 'console'] as const)
    list(c[block]).forEach((s, i) => {
      const type = str(s.type);
      if (type === undefined || !(type in CHAR_FIELDS_OF)) return; // the table's value check reports it
      for (const field of ['path', 'host', 'port'] as const) {
        const used = CHAR_FIELDS_OF[type].includes(field);
        if (!used && s[field] !== null && s[field] !== UNKNOWN)
          d.push(error([block, i, field], `${field} with type = "${type}"`, `A ${type} ${block} has no ${field}; drop it.`));
        if (used && field !== 'host' && s[field] === null)
          d.push(error([block, i, field], `Missing ${field}`, `A ${type} ${block} needs ${field}.`));
      }
    });
  if (c.boot_menu_timeout !== null && c.boot_menu !== true && c.boot_menu !== UNKNOWN)
    d.push(error(['boot_menu_timeout'], 'Boot menu timeout without a boot menu', 'Set boot_menu = true, or drop boot_menu_timeout.'));
  list(c.hostdev).forEach((h, i) => {
    const address = str(h.address);
    const form = h.type === 'usb' ? /^(0|[1-9]\d*):([1-9]\d*)$/ : /^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$/;
    if (address !== undefined && (h.type === 'usb' || h.type === 'pci') && !form.test(address))
      d.push(
        error(
          ['hostdev', i, 'address'],
          'Invalid host device address',
          h.type === 'usb'
            ? `Got ${JSON.stringify(address)}; expected BUS:DEVICE in decimal without leading zeros, e.g. "1:4" for lsusb's "Bus 001 Device 004".`
            : `Got ${JSON.stringify(address)}; expected DDDD:BB:SS.F in lower-case hex, e.g. "0000:01:00.0" (lspci -D).`,
        ),
      );
  });
  list(c.graphics).forEach((g, i) => {
    if (g.socket !== null && g.socket !== UNKNOWN && g.listen !== null && g.listen !== UNKNOWN)
      d.push(error(['graphics', i, 'listen'], 'listen with socket', 'A display listens on an address or on a unix socket; drop one.'));
  });
  const xslt = c.xml && c.xml !== UNKNOWN ? str(c.xml.xslt) : undefined;
  if (xslt !== undefined) d.push(...stylesheetDiagnostics(xslt, ['xml', 'xslt']));
  return d;
}

/** A reference not known yet, in the model's checks (which never read it: toDomainSpec resolves references at apply). */
const PLACEHOLDER = 'known-after-apply';

/** `c` with its references to other objects that the plan does not know yet as a placeholder. */
function withReferencePlaceholders(c: DomainState): DomainState {
  const p = <T>(v: T) => (v === UNKNOWN ? PLACEHOLDER : v);
  return {
    ...c,
    cloudinit_seed_id: p(c.cloudinit_seed_id),
    ignition_id: p(c.ignition_id),
    disk: Array.isArray(c.disk) ? c.disk.map((x) => ({ ...x, volume_id: p(x.volume_id) })) : c.disk,
    network_interface: Array.isArray(c.network_interface)
      ? c.network_interface.map((n) => ({ ...n, network: p(n.network) }))
      : c.network_interface,
  };
}

/** `snapshot_before` on a domain whose disks a snapshot cannot hold (src/snapshot NO_WRITABLE_DISK). */
function snapshotBeforeDiagnostics(c: DomainState): Diagnostic[] {
  const policy = str(c.snapshot_before);
  if (policy === undefined || policy === 'none' || (c.disk !== null && !Array.isArray(c.disk))) return [];
  const disks = list(c.disk).map((x) => ({ device: 'disk' as const, readonly: x.readonly === true }));
  if (hasWritableDisk(disks)) return [];
  return [
    error(
      ['snapshot_before'],
      'snapshot_before without a writable disk',
      `Got snapshot_before = "${policy}" on a domain whose disks are all read-only (or that has none): ${NO_WRITABLE_DISK.problem}, so the first apply that changes the guest would fail. Expected snapshot_before = "none", or ${NO_WRITABLE_DISK.fix}.`,
    ),
  ];
}

/** Every problem of a domain's config, with its attribute path. */
export function validateDomainConfig(c: DomainState): Diagnostic[] {
  const d = valueDiagnostics(DOMAIN_FIELDS, c);
  if (c.cloudinit_seed_id != null && c.ignition_id != null)
    // unknown (a resource not created yet) counts as set
    d.push(
      error(
        ['ignition_id'],
        'Conflicting provisioning',
        'A domain gets either a cloud-init seed (cloudinit_seed_id) or an Ignition config (ignition_id), not both. Remove one.',
      ),
    );
  const timeout = num(c.shutdown_timeout);
  if (timeout !== undefined && !(timeout >= 0))
    d.push(error(['shutdown_timeout'], 'Invalid shutdown_timeout', `shutdown_timeout is ${timeout}; expected seconds ≥ 0.`));
  const keep = num(c.snapshot_keep);
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 0))
    d.push(
      error(
        ['snapshot_keep'],
        'Invalid snapshot_keep',
        `snapshot_keep is ${keep}; expected a whole number ≥ 0 (0: no automatic snapshot is kept after the apply).`,
      ),
    );
  d.push(...waitForDiagnostics(c), ...deviceDiagnostics(c), ...settingDiagnostics(c), ...snapshotBeforeDiagnostics(c));
  const k = withReferencePlaceholders(c);
  if (isWhollyKnown(k) && str(k.name) && num(k.memory) !== undefined) {
    const reported = new Set(d.map((x) => JSON.stringify(x.path)));
    const spec = toDomainSpec(withDefaults(k, null), { disks: [] });
    d.push(...mapDiagnostics(validateDomainSpec(spec).map(rewritePath), SPEC_PATHS).filter((x) => !reported.has(JSON.stringify(x.path))));
  }
  return d;
}
