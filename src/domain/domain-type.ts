/** Facts about the host, gathered by the caller (the provider probes; this module does no I/O). */
export interface DomainTypeProbe {
  /** `/dev/kvm` exists and the libvirt daemon can open it. */
  kvmDeviceUsable: boolean;
  /** The host CPU flags include `vmx` or `svm`. */
  cpuHasVirtExtensions: boolean;
  /** A probe guest booted under KVM (nested KVM can hang after the BIOS); undefined = not tried. */
  probeBootWorked?: boolean;
}

/**
 * Picks `<domain type>`: 'kvm' only when the device is usable, the CPU has virtualisation extensions and a probe
 * boot worked; otherwise 'qemu' (TCG). A probe that was not tried counts as failed (docs/FACTS.md, "Real guests").
 */
export function chooseDomainType(probe: DomainTypeProbe): 'kvm' | 'qemu' {
  return probe.kvmDeviceUsable && probe.cpuHasVirtExtensions && probe.probeBootWorked === true ? 'kvm' : 'qemu';
}
