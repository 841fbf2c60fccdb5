/**
 * The one decision of what an apply does to a domain's guest (provider/src/resources/private/domain-changes.ts), as
 * a table of prior → planned changes: each changed attribute's impact now, the domain's `change_impact`, the
 * replacement, the restart and whether the guest's addresses may change.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { changeWarning, decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { createdDomainState, diskState, nicState } from '../fixtures/domain';

const NIC0 = nicState({
  network: 'vstest-core-net',
  user: false,
  restrict: false,
  mac: '52:54:00:00:00:01',
  model: 'virtio',
  link_state: 'up',
});

const NIC1 = { ...NIC0, network: 'vstest-core-dmz', mac: '52:54:00:00:00:02' } as const;
const NIC2 = { ...NIC0, network: 'vstest-core-lan', mac: '52:54:00:00:00:03' } as const;
const ROOT = diskState({ volume_id: '/p/root', file: null, target: 'vda', bus: 'virtio', readonly: false });
const DATA1 = { ...ROOT, volume_id: '/p/data1', target: 'vdb' };
const DATA2 = { ...ROOT, volume_id: '/p/data2', target: 'vdc' };

/** A running guest with a root disk and a NIC on a libvirt network. */
function state(over: Partial<DomainState> = {}): DomainState {
  return createdDomainState({
    addresses: ['10.0.0.2'],
    ip_address: '10.0.0.2',
    disk: [diskState({ volume_id: '/p/root', file: null, target: 'vda', bus: 'virtio', readonly: false })],
    network_interface: [NIC0],
    ...over,
  });
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
/** Live changes of a running guest (its NICs may change: addresses unknown). */
const lives = { impact: 'live', replace: [], restart: false, reprovisionNow: false, touchesGuest: true };
/** A running guest restarted (not re-provisioned). */
const restarts = { impact: 'restart', replace: [], restart: true, reprovisionNow: false, touchesGuest: true };
/** The domain replaced because of `path`. */
const replaces = (path: string) => ({ impact: 'replace', replace: [[path]], restart: false, reprovisionNow: false, touchesGuest: true });

describe('decideDomainChange', () => {
  test.each<[string, Partial<DomainState>, Partial<DomainState>, Expected]>([
    ['nothing changes', {}, {}, { changes: {}, impact: 'none', ...none, touchesGuest: false }],
    [
      'only wait_timeout changes',
      {},
      { wait_timeout: 30 },
      { changes: { wait_timeout: 'none' }, impact: 'none', ...none, touchesGuest: false },
    ],
    ['memory of a running guest', {}, { memory: 1024 }, { changes: { memory: 'restart: above max_memory 512' }, ...restarts }],
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
      { changes: { instance_id: 'replace: reprovision = "recreate"' }, ...replaces('instance_id') },
    ],
    [
      'an unknown instance-id under recreate',
      { reprovision: 'recreate' },
      { reprovision: 'recreate', instance_id: UNKNOWN },
      { changes: { instance_id: 'replace: reprovision = "recreate"' }, ...replaces('instance_id') },
    ],
    ['firmware', {}, { firmware: 'efi' }, { changes: { firmware: 'replace' }, ...replaces('firmware') }],
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
          nicState({
            network: 'vstest-core-net2',
            user: false,
            restrict: false,
            mac: '52:54:00:00:00:02',
            model: 'virtio',
            link_state: 'up',
          }),
        ],
      },
      { changes: { 'network_interface[1]': 'live: user = false' }, ...lives },
    ],
    [
      'memory within max_memory',
      { max_memory: 4096 },
      { memory: 2048, max_memory: 4096 },
      { changes: { memory: 'live: within max_memory 4096' }, ...lives, touchesGuest: false },
    ],
    [
      'vcpu within max_vcpu under KVM',
      { type: 'kvm', max_vcpu: 4 },
      { type: 'kvm', vcpu: 2, max_vcpu: 4 },
      { changes: { vcpu: 'live: within max_vcpu 4' }, ...lives, touchesGuest: false },
    ],
    [
      'vcpu above max_vcpu under KVM',
      { type: 'kvm', max_vcpu: 2 },
      { type: 'kvm', vcpu: 4, max_vcpu: 2 },
      { changes: { vcpu: 'restart: above max_vcpu 2' }, ...restarts },
    ],
    [
      'vcpu within max_vcpu under TCG (no hot-plug there)',
      { max_vcpu: 4 },
      { vcpu: 2, max_vcpu: 4 },
      { changes: { vcpu: 'restart: type = "qemu"' }, ...restarts },
    ],
    [
      'a NIC unplugged (link state)',
      {},
      { network_interface: [{ ...NIC0, link_state: 'down' }] },
      { changes: { 'network_interface[0].link_state': 'live' }, ...lives },
    ],
    [
      'a virtio disk added',
      {},
      {
        disk: [
          ...(state().disk as never[]),
          diskState({ volume_id: '/p/data', file: null, target: 'vdb', bus: 'virtio', readonly: false }),
        ],
      },
      { changes: { 'disk[1]': 'live: bus = "virtio"' }, ...lives, touchesGuest: false },
    ],
    [
      'a sata disk added',
      {},
      {
        disk: [...(state().disk as never[]), diskState({ volume_id: '/p/data', file: null, target: 'sda', bus: 'sata', readonly: false })],
      },
      { changes: { 'disk[1]': 'restart: bus = "sata"' }, ...restarts },
    ],
    [
      'autostart of a shut-off guest',
      { running: false },
      { running: false, autostart: true },
      { changes: { autostart: 'live' }, impact: 'live', ...none, touchesGuest: false },
    ],
    [
      'a disk bus changed',
      {},
      { disk: [diskState({ volume_id: '/p/root', file: null, target: 'sda', bus: 'sata', readonly: false })] },
      { changes: { 'disk[0].target': 'restart', 'disk[0].bus': 'restart' }, ...restarts },
    ],
    [
      'the middle of three disks removed',
      { disk: [ROOT, DATA1, DATA2] },
      { disk: [ROOT, DATA2] },
      { changes: { 'disk[1]': 'live: bus = "virtio"' }, ...lives, touchesGuest: false },
    ],
    [
      'the first of two data disks removed and one added after the other',
      { disk: [ROOT, DATA1, DATA2] },
      { disk: [ROOT, DATA2, { ...DATA1, volume_id: '/p/data3', target: 'vdd' }] },
      { changes: { 'disk[1]': 'live: bus = "virtio"', 'disk[2]': 'live: bus = "virtio"' }, ...lives, touchesGuest: false },
    ],
    [
      'two disks in a new order (a new boot disk)',
      { disk: [ROOT, DATA1] },
      { disk: [DATA1, ROOT] },
      {
        changes: {
          'disk[0].volume_id': 'restart',
          'disk[0].target': 'restart',
          'disk[1].volume_id': 'restart',
          'disk[1].target': 'restart',
        },
        ...restarts,
        touchesGuest: true,
      },
    ],
    [
      'the middle of three NICs removed',
      { network_interface: [NIC0, NIC1, NIC2] },
      { network_interface: [NIC0, NIC2] },
      { changes: { 'network_interface[1]': 'live: user = false' }, ...lives },
    ],
    [
      'the link of a NIC after a removed one taken down',
      { network_interface: [NIC0, NIC1, NIC2] },
      { network_interface: [NIC0, { ...NIC2, link_state: 'down' }] },
      { changes: { 'network_interface[1]': 'live: user = false', 'network_interface[1].link_state': 'live' }, ...lives },
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

describe('changeWarning', () => {
  test.each<[string, Partial<DomainState>, Partial<DomainState>, string, string]>([
    [
      'memory within max_memory and a vCPU above max_vcpu',
      { type: 'kvm', max_memory: 4096, max_vcpu: 2, vcpu: 2 },
      { type: 'kvm', max_memory: 4096, max_vcpu: 2, vcpu: 4, memory: 2048 },
      'Domain web1 restarts',
      'web1: memory 512 → 2048 MiB (live: within max_memory 4096), vcpu 2 → 4 (restart: above max_vcpu 2)',
    ],
    [
      'the middle disk removed and a NIC added',
      { disk: [ROOT, DATA1, DATA2] },
      { disk: [ROOT, DATA2], network_interface: [NIC0, NIC1] },
      'Domain web1 changes live (no restart)',
      'web1: disk[1] (target vdb) removed (live: bus = "virtio"), network_interface[1] (mac 52:54:00:00:00:02) added (live: user = false)',
    ],
  ])('GIVEN %s WHEN planned THEN the warning names each change with its impact', (_, priorOver, plannedOver, summary, detail) => {
    expect(changeWarning('web1', decideDomainChange(state(priorOver), state(plannedOver)))).toEqual([
      expect.objectContaining({ severity: 'warning', summary, detail }),
    ]);
  });
});

describe('the plan warning of a sensitive change', () => {
  test('GIVEN a running guest whose display password changes WHEN warned THEN the warning names the change, not the values', () => {
    const display = {
      type: 'vnc',
      listen: '127.0.0.1',
      socket: null,
      port: null,
      password_wo: null,
      password_keyed_digest: null,
      display_uri: null,
    };
    const prior = { ...createdDomainState(), running: true, graphics: [{ ...display, password: 'OldPw-1a' }] } as unknown as DomainState;
    const planned = { ...prior, graphics: [{ ...display, password: 'NewPw-2b' }] } as unknown as DomainState;
    const text = JSON.stringify(changeWarning('web1', decideDomainChange(prior, planned)));
    expect(text).toContain('graphics[0].password changed (sensitive) (live');
    expect(text).not.toMatch(/OldPw-1a|NewPw-2b/);
  });
});
