/**
 * How the live changes of a domain update are carried out (provider/src/resources/private/domain-live.ts and the
 * graceful shutdown of domain-lifecycle.ts), with a recording libvirt client: which call each change makes, with
 * VIR_DOMAIN_AFFECT_LIVE | AFFECT_CONFIG, in which order; and which way a guest is asked to shut down.
 */
import { decideDomainChange } from '../../../provider/src/resources/private/domain-changes';
import { stopGuest } from '../../../provider/src/resources/private/domain-lifecycle';
import { liveSteps } from '../../../provider/src/resources/private/domain-live';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { VIR_DOMAIN_RUNNING, VIR_DOMAIN_SHUTOFF, type LibvirtClient } from '../../../src/libvirt';
import { handlerContext } from '../fixtures/context';
import { createdDomainState, diskState, nicState } from '../fixtures/domain';

const DOM = { name: 'vstest-unit', uuid: Buffer.alloc(16), id: 3 };
const NIC0 = nicState({ network: 'lab', user: false, restrict: false, mac: '52:54:00:00:00:01', model: 'virtio', link_state: 'up' });
const ROOT = diskState({ volume_id: '/p/root', target: 'vda', bus: 'virtio', readonly: false });

function state(over: Partial<DomainState> = {}): DomainState {
  return createdDomainState({ max_memory: 2048, max_vcpu: 4, type: 'kvm', disk: [ROOT], network_interface: [NIC0], ...over });
}

/** A client that records the live-change calls as `name(args)` lines. */
function recorder(): { client: LibvirtClient; calls: string[] } {
  const calls: string[] = [];
  const rec =
    (name: string) =>
    async (...args: unknown[]) => {
      calls.push(
        `${name}(${args
          .slice(1)
          .map((a) => (typeof a === 'string' ? a.replace(/\s*\n\s*/g, '') : String(a)))
          .join(', ')})`,
      );
    };
  const client = {
    domainSetMemoryFlags: rec('setMemory'),
    domainSetVcpusFlags: rec('setVcpus'),
    domainAttachDeviceFlags: rec('attach'),
    domainDetachDeviceFlags: rec('detach'),
    domainUpdateDeviceFlags: rec('update'),
  };
  return { client: client as unknown as LibvirtClient, calls };
}

async function run(prior: DomainState, planned: DomainState): Promise<string[]> {
  const { client, calls } = recorder();
  const refs = {
    disks: [{ source: { pool: 'default', volume: 'root' } }, { source: { pool: 'default', volume: 'data' } }],
    networks: ['lab', 'lab'],
  };
  for (const step of liveSteps(client, DOM, prior, planned, decideDomainChange(prior, planned).changes, refs)) await step.run();
  return calls;
}

describe('liveSteps', () => {
  test.each<[string, Partial<DomainState>, Partial<DomainState>, RegExp[]]>([
    ['memory within max_memory', {}, { memory: 1024 }, [/^setMemory\(1048576, 3\)$/]],
    ['vcpu within max_vcpu', {}, { vcpu: 3 }, [/^setVcpus\(3, 3\)$/]],
    [
      'a disk added',
      {},
      { disk: [ROOT, diskState({ volume_id: '/p/data', target: 'vdb', bus: 'virtio', readonly: false })] },
      [
        /^attach\(<disk type="volume" device="disk">.*<source pool="default" volume="data"\/><target dev="vdb" bus="virtio"\/><\/disk>, 3\)$/,
      ],
    ],
    [
      'a NIC removed',
      { network_interface: [NIC0, { ...NIC0, mac: '52:54:00:00:00:02' }] },
      {},
      [/^detach\(<interface type="network"><mac address="52:54:00:00:00:02"\/>.*, 3\)$/],
    ],
    [
      'a link taken down',
      {},
      { network_interface: [{ ...NIC0, link_state: 'down' }] },
      [/^update\(<interface .*<link state="down"\/><\/interface>, 3\)$/],
    ],
    [
      'a NIC removed and memory changed: removals first',
      { network_interface: [NIC0, { ...NIC0, mac: '52:54:00:00:00:02' }] },
      { memory: 1024 },
      [/^detach\(/, /^setMemory\(/],
    ],
  ])(
    'GIVEN %s WHEN applied live THEN the calls are as expected, on the live domain and its definition',
    async (_, priorOver, plannedOver, expected) => {
      const calls = await run(state(priorOver), state(plannedOver));
      expect(calls).toHaveLength(expected.length);
      calls.forEach((c, i) => expect(c).toMatch(expected[i]));
    },
  );
});

describe('stopGuest', () => {
  function guest(liveXml: string) {
    let state = VIR_DOMAIN_RUNNING;
    const asked: number[] = [];
    const client = {
      async domainGetState() {
        return { state, reason: 0 };
      },
      async domainGetXmlDesc() {
        return liveXml;
      },
      async domainShutdownFlags(_dom: unknown, flags: number) {
        asked.push(flags);
        state = VIR_DOMAIN_SHUTOFF;
      },
    };
    return { client: client as unknown as LibvirtClient, asked };
  }

  test.each<[string, string, number, string]>([
    [
      'a connected guest agent',
      "<domain><devices><channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0' state='connected'/></channel></devices></domain>",
      2,
      'agent',
    ],
    [
      'an agent channel nobody answers on',
      "<domain><devices><channel type='unix'><target type='virtio' name='org.qemu.guest_agent.0' state='disconnected'/></channel></devices></domain>",
      1,
      'acpi',
    ],
    ['no agent channel', '<domain><devices/></domain>', 1, 'acpi'],
  ])('GIVEN %s WHEN the guest is stopped THEN it is asked the right way', async (_, xml, flags, how) => {
    const { client, asked } = guest(xml);
    const r = await stopGuest(
      client,
      DOM,
      60,
      handlerContext(async () => client),
    );
    expect({ asked, how: r.asked, state: r.state, poweredOff: r.poweredOff }).toEqual({
      asked: [flags],
      how,
      state: 'off',
      poweredOff: false,
    });
  });
});
