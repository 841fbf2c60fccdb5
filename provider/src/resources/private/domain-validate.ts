/**
 * `virtseed_domain`'s config checks (pure), at ValidateResourceConfig and again at plan: the values the field
 * table allows, the rules between attributes, and — once the config is wholly known — the shared domain model's
 * own validation (src/domain `validateDomainSpec`) with its paths in Terraform's names. One diagnostic per path:
 * the model's check of an attribute the table already reported is left out.
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import { validateDomainSpec } from '../../../../src/domain';
import { DOMAIN_FIELDS } from '../../../../src/fields';
import { toDomainSpec, withDefaults } from './domain-state';
import { valueDiagnostics } from './fields';
import type { DomainState } from './model';
import { mapDiagnostics } from './paths';
import { isWhollyKnown, list, num, str, UNKNOWN } from './values';

/** The domain model's names → the resource's. */
const SPEC_PATHS = {
  rename: {
    memoryMiB: 'memory',
    disks: 'disk',
    interfaces: 'network_interface',
    serialLogFile: 'console_log',
    secureBoot: 'secure_boot',
    cpuMode: 'cpu_mode',
  },
};

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
    if (n.network === null && n.user !== true && n.user !== null && n.user !== UNKNOWN)
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
  d.push(...waitForDiagnostics(c), ...deviceDiagnostics(c));
  if (isWhollyKnown(c) && str(c.name) && num(c.memory) !== undefined) {
    const reported = new Set(d.map((x) => JSON.stringify(x.path)));
    const spec = toDomainSpec(withDefaults(c, null), { disks: [] });
    d.push(...mapDiagnostics(validateDomainSpec(spec), SPEC_PATHS).filter((x) => !reported.has(JSON.stringify(x.path))));
  }
  return d;
}
