/**
 * virtseed_domain's pure decisions with a fake HandlerContext and libvirt client: the re-provision plan
 * (reprovision_action, previous_instance_id, warning, replacement), the shutdown wait's reaction to StopProvider, and
 * the flags a destroy undefines with.
 */
import { UNKNOWN } from '../../../provider/src/plugin/cty';
import { TCG_ONLY } from '../../../provider/src/host';
import type { HandlerContext } from '../../../provider/src/handler';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { domain } from '../../../provider/src/resources/domain';
import { stopDomain, undefineFlags } from '../../../provider/src/resources/private/domain-lifecycle';
import { renderDomainXml } from '../../../src/domain';
import {
  LibvirtError,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_SHUTOFF,
  VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA,
  VIR_DOMAIN_UNDEFINE_MANAGED_SAVE,
  VIR_DOMAIN_UNDEFINE_NVRAM,
  VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA,
  VIR_DOMAIN_UNDEFINE_TPM,
  VIR_ERR_NO_DOMAIN,
} from '../../../src/libvirt';
import { diskState, domainState, nicState } from '../fixtures/domain';
import type { DomainDiskState, DomainInterfaceState } from '../../../provider/src/resources/private/model';

type State = DomainState;

const DOM = { name: 'vstest-unit', uuid: Buffer.from('00112233445566778899aabbccddeeff', 'hex'), id: 7 };
const UUID = '00112233-4455-6677-8899-aabbccddeeff';

/** A libvirt client whose guest never reacts to ACPI shutdown (unless `offAfterShutdown`). */
function fakeClient(opts: { offAfterShutdown?: boolean; existingInstanceId?: string } = {}) {
  let state = VIR_DOMAIN_RUNNING;
  const calls: string[] = [];
  const client = {
    calls,
    async domainGetState() {
      return { state, reason: 0 };
    },
    async domainShutdownFlags() {
      calls.push('shutdown');
      if (opts.offAfterShutdown) state = VIR_DOMAIN_SHUTOFF;
    },
    async domainDestroy() {
      calls.push('destroy');
      state = VIR_DOMAIN_SHUTOFF;
    },
    async domainCreate() {
      calls.push('create');
      state = VIR_DOMAIN_RUNNING;
    },
    async domainLookupByUuid() {
      return DOM;
    },
    async domainLookupByName() {
      if (!opts.existingInstanceId) throw new LibvirtError(VIR_ERR_NO_DOMAIN, 10, 2, 'Domain not found');
      return DOM;
    },
    async domainGetXmlDesc() {
      return renderDomainXml({
        name: DOM.name,
        uuid: UUID,
        type: 'qemu',
        memoryMiB: 512,
        vcpu: 1,
        disks: [],
        interfaces: [],
        // A domain created by this apply has no instance-id yet when defineDomain reads its definition back.
        metadata: opts.existingInstanceId === undefined ? {} : { 'instance-id': opts.existingInstanceId },
      });
    },
    async domainDefineXml() {
      calls.push('define');
      return DOM;
    },
    async networkLookupByName(name: string) {
      return { name, uuid: Buffer.alloc(16) };
    },
  };
  return client;
}

function ctxWith(client: unknown, signal = new AbortController().signal): HandlerContext<never> {
  const noop = () => undefined;
  return {
    client: async () => client as never,
    uri: 'qemu:///system',
    hostName: null,
    hosts: [],
    hostConfig: () => undefined,
    signal,
    log: { trace: noop, debug: noop, info: noop, warn: noop, error: noop },
    host: TCG_ONLY,
    notes: new Set(),
  };
}

/** A config value of the schema with every attribute null except the given ones. */
function config(over: Partial<State> = {}): State {
  return domainState({
    name: 'vstest-unit',
    memory: 512,
    type: 'qemu',
    instance_id: 'iid-1',
    disk: [diskState({ file: '/var/lib/libvirt/images/vstest-unit.qcow2' })],
    network_interface: [nicState({ user: true })],
    ...over,
  });
}

/** The state after creating `config(over)`. */
async function created(over: Partial<State> = {}): Promise<State> {
  const { planned } = await domain.plan({ prior: null, proposed: config(over), config: config(over) }, ctxWith(fakeClient()));
  return { ...planned!, id: UUID, uuid: UUID, addresses: ['10.213.7.100'], ip_address: '10.213.7.100' };
}

async function planFrom(prior: State, over: Partial<State>, ctx = ctxWith(fakeClient())) {
  const c = config(over);
  const proposed: State = {
    ...c,
    id: prior.id,
    uuid: prior.uuid,
    console_log: prior.console_log,
    reprovision_action: prior.reprovision_action,
    previous_instance_id: prior.previous_instance_id,
    addresses: prior.addresses,
    ip_address: prior.ip_address,
  };
  return domain.plan({ prior, proposed, config: c }, ctx);
}

describe('virtseed_domain plan', () => {
  test('GIVEN the default policy WHEN instance_id changes THEN the plan records a reboot with the previous id and warns, without replacing', async () => {
    const prior = await created();
    const r = await planFrom(prior, { instance_id: 'iid-2' });
    expect(r.planned).toMatchObject({ reprovision_action: 'reboot', previous_instance_id: 'iid-1', uuid: UUID });
    expect(r.requiresReplace).toEqual([]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', path: ['instance_id'], detail: expect.stringContaining('iid-1 → iid-2') }),
    ]);
  });

  test('GIVEN reprovision = "recreate" WHEN instance_id changes THEN instance_id requires replacement and the UUID becomes unknown', async () => {
    const prior = await created({ reprovision: 'recreate' });
    const r = await planFrom(prior, { reprovision: 'recreate', instance_id: 'iid-2' });
    expect(r.requiresReplace).toEqual([['instance_id']]);
    expect(r.planned).toMatchObject({ reprovision_action: 'recreate', uuid: UNKNOWN, id: UNKNOWN });
  });

  test('GIVEN the old domain still exists WHEN Terraform plans the create half of a recreate THEN the action is none (the same at apply, when it is gone)', async () => {
    const prior = await created({ reprovision: 'recreate' });
    const ctx = ctxWith(fakeClient({ existingInstanceId: 'iid-1' })); // one provider process plans both halves
    // Terraform hands the replace half's planned private state to the create half, which names the old domain.
    const first = await planFrom(prior, { reprovision: 'recreate', instance_id: 'iid-2' }, ctx);
    const c = config({ reprovision: 'recreate', instance_id: 'iid-2' });
    const r = await domain.plan({ prior: null, proposed: c, config: c, priorPrivate: first.plannedPrivate }, ctx);
    expect(r.diagnostics).toEqual([]);
    expect(r.planned).toMatchObject({ reprovision_action: 'none', previous_instance_id: null });
  });

  test('GIVEN reprovision = "recreate" WHEN instance_id is unknown at plan THEN replacement is planned and the action is unknown', async () => {
    const prior = await created({ reprovision: 'recreate' });
    const r = await planFrom(prior, { reprovision: 'recreate', instance_id: UNKNOWN });
    expect(r.requiresReplace).toEqual([['instance_id']]);
    expect(r.planned!.reprovision_action).toBe(UNKNOWN);
  });

  test('GIVEN reprovision = "next-boot" WHEN instance_id changes THEN the plan records next-boot and replaces nothing', async () => {
    const prior = await created({ reprovision: 'next-boot' });
    const r = await planFrom(prior, { reprovision: 'next-boot', instance_id: 'iid-2' });
    expect(r.planned).toMatchObject({ reprovision_action: 'next-boot', previous_instance_id: 'iid-1' });
    expect(r.requiresReplace).toEqual([]);
  });

  test('GIVEN a past re-provision in the state WHEN memory changes with the same instance_id THEN the action resets to none', async () => {
    const prior = { ...(await created()), reprovision_action: 'reboot', previous_instance_id: 'iid-0' };
    const r = await planFrom(prior, { memory: 1024 });
    expect(r.planned).toMatchObject({ reprovision_action: 'none', previous_instance_id: null, memory: 1024, uuid: UUID });
    expect(r.requiresReplace).toEqual([]);
    // No re-provision warning; the one warning says the guest restarts (issue 20: never a silent restart).
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', path: [], summary: 'Domain vstest-unit restarts' })]);
  });

  test('GIVEN a past re-provision in the state WHEN nothing changes THEN the planned value equals the prior (empty plan)', async () => {
    const prior = { ...(await created()), reprovision_action: 'reboot', previous_instance_id: 'iid-0' };
    const r = await planFrom(prior, {});
    expect(r.planned).toEqual(prior);
  });
});

describe('virtseed_domain firmware', () => {
  test('GIVEN no firmware in the config WHEN planned THEN firmware is bios and secure_boot false', async () => {
    expect(await created()).toMatchObject({ firmware: 'bios', secure_boot: false });
  });

  test('GIVEN a BIOS domain WHEN firmware becomes efi THEN the plan replaces the domain because of firmware', async () => {
    const r = await planFrom(await created(), { firmware: 'efi' });
    expect(r.requiresReplace).toEqual([['firmware']]);
    expect(r.planned).toMatchObject({ firmware: 'efi', uuid: UNKNOWN, id: UNKNOWN });
  });

  test('GIVEN a UEFI domain WHEN secure_boot is turned on THEN the plan replaces the domain because of secure_boot', async () => {
    const r = await planFrom(await created({ firmware: 'efi' }), { firmware: 'efi', secure_boot: true });
    expect(r.requiresReplace).toEqual([['secure_boot']]);
  });

  test('GIVEN state written before firmware existed (null) WHEN planned without firmware THEN nothing is replaced', async () => {
    const prior = { ...(await created()), firmware: null, secure_boot: null };
    const r = await planFrom(prior, {});
    expect(r.requiresReplace).toEqual([]);
    expect(r.planned).toMatchObject({ firmware: 'bios', secure_boot: false, uuid: UUID });
  });

  test.each<[string, Record<string, unknown>, string[], RegExp]>([
    ['secure boot without UEFI', { secure_boot: true }, ['secure_boot'], /only available with firmware 'efi'/],
    ['an unknown firmware', { firmware: 'uefi' }, ['firmware'], /Got "uefi"; expected 'bios' or 'efi'/],
  ])('GIVEN %s WHEN the config is validated THEN a diagnostic names the attribute and the fix', (_name, over, path, detail) => {
    // Object.assign: the protocol layer hands in any string, not only the values the state type allows.
    const diagnostics = domain.validate!(Object.assign(config(), over), ctxWith(fakeClient()));
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'error', path, detail: expect.stringMatching(detail) })]);
  });
});

describe('virtseed_domain plan: addresses and the guest agent', () => {
  test('GIVEN a new domain WHEN planned THEN addresses and ip_address are unknown and qemu_agent defaults to false', async () => {
    const c = config();
    const { planned } = await domain.plan({ prior: null, proposed: c, config: c }, ctxWith(fakeClient()));
    expect(planned).toMatchObject({ addresses: UNKNOWN, ip_address: UNKNOWN, qemu_agent: false });
  });

  test('GIVEN a change that restarts the guest WHEN planned THEN its addresses become unknown', async () => {
    const r = await planFrom(await created(), { memory: 1024 });
    expect(r.planned).toMatchObject({ addresses: UNKNOWN, ip_address: UNKNOWN });
  });

  test('GIVEN qemu_agent turned on WHEN planned THEN the definition changes and the addresses become unknown', async () => {
    const r = await planFrom(await created(), { qemu_agent: true });
    expect(r.planned).toMatchObject({ qemu_agent: true, addresses: UNKNOWN });
  });

  test('GIVEN a guest without addresses (ip_address null) WHEN nothing changes THEN the plan is empty', async () => {
    const prior = { ...(await created()), addresses: [], ip_address: null };
    const r = await planFrom(prior, {});
    expect(r.planned).toEqual(prior);
  });

  test('GIVEN state written before addresses existed (null) WHEN nothing else changes THEN the addresses become unknown, the rest is kept', async () => {
    const prior = { ...(await created()), addresses: null, ip_address: null };
    const r = await planFrom(prior, {});
    expect(r.planned).toEqual({ ...prior, addresses: UNKNOWN, ip_address: UNKNOWN });
    expect(r.requiresReplace).toEqual([]);
  });

  test('GIVEN only wait_timeout changes WHEN planned THEN the addresses in state are kept', async () => {
    const r = await planFrom(await created(), { wait_timeout: 30 });
    expect(r.planned).toMatchObject({ addresses: ['10.213.7.100'], ip_address: '10.213.7.100' });
  });
});

describe('virtseed_domain shutdown wait', () => {
  test('GIVEN a guest that ignores ACPI WHEN StopProvider aborts the wait THEN it returns at once without powering off', async () => {
    const client = fakeClient();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const t0 = Date.now();
    const r = await stopDomain(client as never, DOM, 600, ctxWith(client, stop.signal));
    expect(r).toBe('interrupted');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(client.calls).toEqual(['shutdown']);
  });

  test('GIVEN a guest that ignores ACPI WHEN the timeout passes THEN it is powered off', async () => {
    const client = fakeClient();
    expect(await stopDomain(client as never, DOM, 0, ctxWith(client))).toBe('off');
    expect(client.calls).toEqual(['shutdown', 'destroy']);
  });

  test('GIVEN a guest that shuts down WHEN waiting THEN it is not powered off', async () => {
    const client = fakeClient({ offAfterShutdown: true });
    expect(await stopDomain(client as never, DOM, 60, ctxWith(client))).toBe('off');
    expect(client.calls).toEqual(['shutdown']);
  });

  test('GIVEN a re-provision reboot WHEN StopProvider interrupts the shutdown THEN apply reports an error, does not start, and keeps the old instance_id pending', async () => {
    const prior = await created();
    const { planned } = await planFrom(prior, { instance_id: 'iid-2' });
    const client = fakeClient();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const r = await domain.apply({ prior, planned, config: config({ instance_id: 'iid-2' }) }, ctxWith(client, stop.signal));
    expect(client.calls).toEqual(['define', 'shutdown']);
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'Interrupted' })]);
    expect(r.newState).toMatchObject({ instance_id: 'iid-1', reprovision_action: 'none', uuid: UUID, running: true });
  });
});

describe('virtseed_domain plan: disks and NICs told apart by identity, not position', () => {
  const disk = (file: string) => diskState({ file });
  const nic = (network: string) => nicState({ network, user: false });
  const DISKS = [disk('/i/root.qcow2'), disk('/i/a.raw'), disk('/i/b.raw')];
  const NICS = [nic('lab'), nic('dmz'), nic('lan')];

  /** A plan from `prior` to `c` with the proposed value Terraform makes: computed block attributes the config
   *  leaves null carried over from the prior element at the same index. */
  async function planLikeTerraform(prior: State, c: State) {
    const proposed: State = {
      ...c,
      id: prior.id,
      uuid: prior.uuid,
      console_log: prior.console_log,
      addresses: prior.addresses,
      ip_address: prior.ip_address,
      disk: (c.disk as DomainDiskState[]).map((d, j) => ({
        ...d,
        target: d.target ?? (prior.disk as DomainDiskState[])[j]?.target ?? null,
      })),
      network_interface: (c.network_interface as DomainInterfaceState[]).map((n, j) => ({
        ...n,
        mac: n.mac ?? (prior.network_interface as DomainInterfaceState[])[j]?.mac ?? null,
      })),
    };
    return domain.plan({ prior, proposed, config: c }, ctxWith(fakeClient()));
  }

  async function three(): Promise<State> {
    return { ...(await created({ disk: DISKS, network_interface: NICS })), running: true };
  }

  test('GIVEN three disks WHEN the middle one is removed THEN the others keep their targets and the plan removes only that one, live', async () => {
    const prior = await three();
    expect((prior.disk as DomainDiskState[]).map((d) => d.target)).toEqual(['vda', 'vdb', 'vdc']);
    const r = await planLikeTerraform(prior, config({ disk: [DISKS[0], DISKS[2]], network_interface: NICS }));
    expect((r.planned!.disk as DomainDiskState[]).map((d) => d.target)).toEqual(['vda', 'vdc']);
    expect(r.planned).toMatchObject({ change_impact: 'live', change_impacts: { 'disk[1]': 'live: bus = "virtio"' } });
  });

  test('GIVEN a disk removed from the middle WHEN one is added at the end THEN it gets a target no other disk has', async () => {
    const [d0, , d2] = (await three()).disk as DomainDiskState[];
    const prior = { ...(await three()), disk: [d0, d2] };
    const r = await planLikeTerraform(prior, config({ disk: [DISKS[0], DISKS[2], disk('/i/c.raw')], network_interface: NICS }));
    expect((r.planned!.disk as DomainDiskState[]).map((d) => d.target)).toEqual(['vda', 'vdc', 'vdd']);
    expect(r.planned).toMatchObject({ change_impact: 'live', change_impacts: { 'disk[2]': 'live: bus = "virtio"' } });
  });

  test('GIVEN three NICs WHEN the middle one is removed THEN the others keep their MACs and the plan removes only that one, live', async () => {
    const prior = await three();
    const macs = (prior.network_interface as DomainInterfaceState[]).map((n) => n.mac);
    const r = await planLikeTerraform(prior, config({ disk: DISKS, network_interface: [NICS[0], NICS[2]] }));
    expect((r.planned!.network_interface as DomainInterfaceState[]).map((n) => n.mac)).toEqual([macs[0], macs[2]]);
    expect(r.planned).toMatchObject({ change_impact: 'live', change_impacts: { 'network_interface[1]': 'live: user = false' } });
  });

  test('GIVEN a NIC removed from the middle WHEN one is added at the end THEN its derived MAC is one no other NIC has', async () => {
    const prior = await three();
    const [n0, , n2] = prior.network_interface as DomainInterfaceState[];
    const [m0, m2] = [n0.mac, n2.mac];
    const less = { ...prior, network_interface: [n0, n2] };
    const r = await planLikeTerraform(less, config({ disk: DISKS, network_interface: [NICS[0], NICS[2], nic('lab')] }));
    const planned = (r.planned!.network_interface as DomainInterfaceState[]).map((n) => n.mac);
    expect(planned.slice(0, 2)).toEqual([m0, m2]);
    expect(new Set(planned).size).toBe(3);
    expect(r.planned).toMatchObject({ change_impact: 'live', change_impacts: { 'network_interface[2]': 'live: user = false' } });
  });

  test('GIVEN two disks WHEN their order is swapped THEN the plan restarts the guest (a new boot disk)', async () => {
    const prior = await three();
    const r = await planLikeTerraform(prior, config({ disk: [DISKS[1], DISKS[0], DISKS[2]], network_interface: NICS }));
    expect(r.planned).toMatchObject({ change_impact: 'restart' });
  });
});

describe('undefineFlags (what a destroy removes with the definition)', () => {
  const always = VIR_DOMAIN_UNDEFINE_MANAGED_SAVE | VIR_DOMAIN_UNDEFINE_SNAPSHOTS_METADATA | VIR_DOMAIN_UNDEFINE_NVRAM;
  test.each([
    [
      'libvirt 9.0: checkpoints (a backup left one) and TPM state too',
      9_000_000,
      always | VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA | VIR_DOMAIN_UNDEFINE_TPM,
    ],
    ['libvirt 8.9.0: the first with the TPM flag', 8_009_000, always | VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA | VIR_DOMAIN_UNDEFINE_TPM],
    ['libvirt 6.0: checkpoints, no TPM flag', 6_000_000, always | VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA],
    ['libvirt 5.6.0: the first with checkpoints', 5_006_000, always | VIR_DOMAIN_UNDEFINE_CHECKPOINTS_METADATA],
    ['libvirt 5.5: neither', 5_005_000, always],
  ])('%s', (_what, version, flags) => {
    expect(undefineFlags(version)).toBe(flags);
  });
});
