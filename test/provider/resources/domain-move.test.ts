import { isMove, planMove, unmoved } from '../../../provider/src/resources/private/domain-move';
import type { HandlerContext } from '../../../provider/src/handler';
import { VIR_DOMAIN_RUNNING, type LibvirtClient } from '../../../src/libvirt';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { UNKNOWN } from '../../../provider/src/plugin/cty';

const state = (over: Partial<DomainState>): DomainState => ({ name: 'web', host: 'h1', disk: [], ...over }) as DomainState;
type Disk = Extract<DomainState['disk'], unknown[]>[number];
const disk = (volume_id: Disk['volume_id'], file: string | null = null): Disk => ({
  volume_id,
  file,
  target: 'vda',
  bus: 'virtio',
  readonly: false,
  cache: null,
  io: null,
  discard: null,
  serial: null,
  rotation_rate: null,
});

describe('domain moves', () => {
  test('GIVEN a host change WHEN asked THEN it is a move; the same host, or one not known yet, is not', () => {
    expect(isMove(state({ host: 'h1' }), state({ host: 'h3' }))).toBe(true);
    expect(isMove(state({ host: null }), state({ host: 'h1' }))).toBe(true);
    expect(isMove(state({ host: 'h1' }), state({ host: 'h1' }))).toBe(false);
    expect(isMove(state({ host: 'h1' }), state({ host: UNKNOWN }))).toBe(false);
  });

  test('GIVEN a move with new volumes and seed and a memory change WHEN unmoved THEN only the memory change is left', () => {
    const prior = state({ host: 'h1', memory: 512, disk: [disk('/h1/root')], cloudinit_seed_id: '/h1/seed', ignition_id: null });
    const planned = state({
      host: 'h3',
      memory: 1024,
      disk: [disk(UNKNOWN as never)],
      cloudinit_seed_id: UNKNOWN as never,
      ignition_id: null,
    });
    expect(unmoved(prior, planned)).toEqual({ ...prior, memory: 1024 });
  });

  test('GIVEN a disk from a file WHEN unmoved THEN it stays as planned (files are not made anew by a move)', () => {
    const prior = state({ disk: [disk(null, '/images/a.img')] });
    const planned = state({ host: 'h2', disk: [disk(null, '/images/b.img')] });
    expect(unmoved(prior, planned).disk).toEqual([disk(null, '/images/b.img')]);
  });
});

describe('planMove', () => {
  /** A handler context whose every host is one stub client: the domain runs there and has `snapshots`. */
  function contextWith(snapshots: string[]): HandlerContext<LibvirtClient> {
    const client = {
      domainLookupByUuid: (uuid: Uint8Array) => Promise.resolve({ name: 'web', uuid, id: 1 }),
      domainGetState: () => Promise.resolve({ state: VIR_DOMAIN_RUNNING, reason: 1 }),
      domainListAllSnapshots: (dom: unknown) => Promise.resolve(snapshots.map((name) => ({ name, dom }))),
    } as unknown as LibvirtClient;
    return { client: () => Promise.resolve(client), hostConfig: () => undefined } as unknown as HandlerContext<LibvirtClient>;
  }
  const running = (host: string) => state({ host, running: true, uuid: '49630dd6-cf17-4e05-901c-7a3833f7aa22' });

  test('GIVEN a running domain without snapshots WHEN moved THEN the move is live', async () => {
    const move = await planMove(contextWith([]), running('h1'), running('h3'), false);
    expect(move.live).toBe(true);
  });

  test('GIVEN a running domain with snapshots WHEN moved THEN it is replaced, and the plan names the snapshots and why', async () => {
    const move = await planMove(contextWith(['virtseed-auto-1', 'before-upgrade']), running('h1'), running('h3'), false);
    expect(move.live).toBe(false);
    expect(move.why).toContain('2 snapshot(s) on h1 (virtseed-auto-1, before-upgrade), which libvirt does not migrate');
  });
});
