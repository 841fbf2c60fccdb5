/**
 * Which `<domain type>` to use on a host: `kvm` only where KVM really runs guests, else `qemu` (TCG).
 * For a local libvirt URI the provider checks /dev/kvm and the CPU flags itself; a remote host is assumed to have
 * no usable KVM unless the user sets `type = "kvm"` (nested KVM often fails to boot guests: docs/FACTS.md, "Real guests").
 * An explicit probe boot is opt-in (`VIRTSEED_KVM_PROBED=1` asserts one worked), so no guest is started at plan.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { chooseDomainType } from '../../src/domain';
import type { HostFacts } from './host';

function isLocal(uri: string): boolean {
  return /^qemu(\+unix)?:\/\/\/(system|session)/.test(uri);
}

function localDomainType(): 'kvm' | 'qemu' {
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
  return chooseDomainType({ kvmDeviceUsable, cpuHasVirtExtensions, probeBootWorked: process.env.VIRTSEED_KVM_PROBED === '1' });
}

/** Host facts read from this machine; the local answer is looked up once per probe (one probe per provider process). */
export function createHostProbe(): HostFacts {
  let local: 'kvm' | 'qemu' | undefined;
  return { domainType: (uri) => (isLocal(uri) ? (local ??= localDomainType()) : 'qemu') };
}
