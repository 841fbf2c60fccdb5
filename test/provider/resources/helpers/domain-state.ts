/** A whole `virtseed_domain` state for unit tests of the plan decisions: a running guest with a seed. */
import type { DomainState } from '../../../../provider/src/resources/private/model';

export function domainState(over: Partial<DomainState> = {}): DomainState {
  return {
    id: 'u',
    uuid: 'u',
    name: 'vstest-unit',
    memory: 512,
    vcpu: 1,
    type: 'qemu',
    cpu_mode: null,
    firmware: 'bios',
    secure_boot: false,
    kernel: null,
    initrd: null,
    cmdline: null,
    cloudinit_seed_id: 'seed',
    ignition_id: null,
    instance_id: 'iid-1',
    reprovision: 'reboot',
    running: true,
    shutdown_timeout: 60,
    console_log: '/var/log/libvirt/qemu/vstest-unit-console.log',
    wait_for: 'none',
    wait_timeout: 600,
    reprovision_action: 'none',
    previous_instance_id: null,
    qemu_agent: false,
    addresses: [],
    ip_address: null,
    disk: [],
    network_interface: [],
    ...over,
  };
}
