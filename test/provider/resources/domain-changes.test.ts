/**
 * The one decision of what an apply does to a domain's guest (provider/src/resources/private/domain-changes.ts), as
 * a table of prior → planned changes: each changed attribute's impact now, the domain's `change_impact`, the
 * replacement, the restart and whether the guest's addresses may change.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import type { DomainState } from '../../../provider/src/resources/private/model';

function state(over: Partial<DomainState> = {}): DomainState {
  return {
    id: 'u',
    uuid: 'u',
    name: 'vstest-core-unit',
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
    console_log: '/var/log/libvirt/qemu/vstest-core-unit-console.log',
    wait_for: 'none',
    wait_timeout: 600,
    snapshot_before: 'none',
    snapshot_keep: 1,
    reprovision_action: 'none',
    previous_instance_id: null,
    qemu_agent: false,
    addresses: ['10.0.0.2'],
    ip_address: '10.0.0.2',
    disk: [{ volume_id: '/p/root', file: null, target: 'vda', bus: 'virtio', readonly: false }],
    network_interface: [{ network: 'vstest-core-net', user: false, restrict: false, mac: '52:54:00:00:00:01', model: 'virtio' }],
    ...over,
  };
}

interface Expected {
  changes: Record<string, string>;
  impact: string;
  replace: (string | number)[][];
  restart: boolean;
  reprovisionNow: boolean;
  touchesGuest: boolean;
}

const none = { replace: [], restart: false, reprovisionNow: false };

describe('decideDomainChange', () => {
  test.each<[string, Partial<DomainState>, Partial<DomainState>, Expected]>([
    ['nothing changes', {}, {}, { changes: {}, impact: 'none', ...none, touchesGuest: false }],
    [
      'only wait_timeout changes',
      {},
      { wait_timeout: 30 },
      { changes: { wait_timeout: 'none' }, impact: 'none', ...none, touchesGuest: false },
    ],
    [
      'memory of a running guest',
      {},
      { memory: 1024 },
      { changes: { memory: 'restart' }, impact: 'restart', replace: [], restart: true, reprovisionNow: false, touchesGuest: true },
    ],
    [
      'memory of a shut-off guest that stays off',
      { running: false },
      { running: false, memory: 1024 },
      { changes: { memory: 'none: the guest is shut off' }, impact: 'none', ...none, touchesGuest: false },
    ],
    [
      'memory of a shut-off guest this apply starts',
      { running: false },
      { memory: 1024 },
      {
        changes: { memory: 'none: the guest starts with it', running: 'live' },
        impact: 'live',
        ...none,
        touchesGuest: true,
      },
    ],
    [
      'a running guest stopped',
      {},
      { running: false, vcpu: 2 },
      { changes: { vcpu: 'none: the guest is stopped', running: 'live' }, impact: 'live', ...none, touchesGuest: true },
    ],
    [
      'a new instance-id under reboot',
      {},
      { instance_id: 'iid-2' },
      {
        changes: { instance_id: 'restart: reprovision = "reboot"' },
        impact: 'restart',
        replace: [],
        restart: true,
        reprovisionNow: true,
        touchesGuest: true,
      },
    ],
    [
      'a new instance-id under next-boot',
      { reprovision: 'next-boot' },
      { reprovision: 'next-boot', instance_id: 'iid-2' },
      { changes: { instance_id: 'next-boot: reprovision = "next-boot"' }, impact: 'none', ...none, touchesGuest: false },
    ],
    [
      'a new instance-id under recreate',
      { reprovision: 'recreate' },
      { reprovision: 'recreate', instance_id: 'iid-2' },
      {
        changes: { instance_id: 'replace: reprovision = "recreate"' },
        impact: 'replace',
        replace: [['instance_id']],
        restart: false,
        reprovisionNow: false,
        touchesGuest: true,
      },
    ],
    [
      'an unknown instance-id under recreate',
      { reprovision: 'recreate' },
      { reprovision: 'recreate', instance_id: UNKNOWN },
      {
        changes: { instance_id: 'replace: reprovision = "recreate"' },
        impact: 'replace',
        replace: [['instance_id']],
        restart: false,
        reprovisionNow: false,
        touchesGuest: true,
      },
    ],
    [
      'firmware',
      {},
      { firmware: 'efi' },
      {
        changes: { firmware: 'replace' },
        impact: 'replace',
        replace: [['firmware']],
        restart: false,
        reprovisionNow: false,
        touchesGuest: true,
      },
    ],
    [
      'state from before firmware existed',
      { firmware: null, secure_boot: null },
      {},
      { changes: {}, impact: 'none', ...none, touchesGuest: false },
    ],
    [
      'a NIC added',
      {},
      {
        network_interface: [
          ...(state().network_interface as never[]),
          { network: 'vstest-core-net2', user: false, restrict: false, mac: '52:54:00:00:00:02', model: 'virtio' },
        ],
      },
      {
        changes: { 'network_interface[1]': 'restart' },
        impact: 'restart',
        replace: [],
        restart: true,
        reprovisionNow: false,
        touchesGuest: true,
      },
    ],
    [
      'a disk bus changed',
      {},
      { disk: [{ volume_id: '/p/root', file: null, target: 'sda', bus: 'sata', readonly: false }] },
      {
        changes: { 'disk[0].target': 'restart', 'disk[0].bus': 'restart' },
        impact: 'restart',
        replace: [],
        restart: true,
        reprovisionNow: false,
        touchesGuest: true,
      },
    ],
    [
      'state from before addresses existed',
      { addresses: null, ip_address: null },
      {},
      { changes: {}, impact: 'none', ...none, touchesGuest: true },
    ],
  ])('GIVEN %s WHEN decided THEN the impacts, replacement and restart are as expected', (_, priorOver, plannedOver, expected) => {
    const d = decideDomainChange(state(priorOver), state(plannedOver));
    expect({
      changes: Object.fromEntries(d.changes.map((c) => [c.name, c.reason ? `${c.impact}: ${c.reason}` : c.impact])),
      impact: d.impact,
      replace: d.replace,
      restart: d.restart,
      reprovisionNow: d.reprovisionNow,
      touchesGuest: d.touchesGuest,
    }).toEqual(expected);
  });
});
