/**
 * Which `<domain type>` to use on a host: `kvm` only where KVM really runs guests, else `qemu` (TCG).
 * For a local libvirt URI the provider checks /dev/kvm and the CPU flags itself; a remote host is assumed to have
 * no usable KVM unless the user sets `type = "kvm"` (nested KVM often fails to boot guests, see DESIGN.md).
 * An explicit probe boot is opt-in (`VIRTSEED_KVM_PROBED=1` asserts one worked), so no guest is started at plan.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { chooseDomainType } from '../../src/domain';

let cached: 'kvm' | 'qemu' | undefined;

function isLocal(uri: string): boolean {
  return /^qemu(\+unix)?:\/\/\/(system|session)/.test(uri);
}

/** The domain type for guests on the host behind `uri`. Cached per process. */
export function detectDomainType(uri: string): 'kvm' | 'qemu' {
  if (!isLocal(uri)) return 'qemu';
  if (cached) return cached;
  let kvmDeviceUsable = false;
  try {
    accessSync('/dev/kvm', constants.R_OK | constants.W_OK);
    kvmDeviceUsable = true;
  } catch {
    kvmDeviceUsable = false;
  }
  let cpuHasVirtExtensions = false;
  try {
    cpuHasVirtExtensions = /^flags\s*:.*\b(vmx|svm)\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    cpuHasVirtExtensions = false;
  }
  cached = chooseDomainType({ kvmDeviceUsable, cpuHasVirtExtensions, probeBootWorked: process.env.VIRTSEED_KVM_PROBED === '1' });
  return cached;
}
