/**
 * virtseed_placement's plan with fake hosts (one fresh provider process per test: jest.isolateModules): what the
 * hosts report and the placements decided before count; an existing placement keeps its host unless pin or
 * rebalance changes; a down host is skipped with one warning; no fitting host fails naming each one.
 */
import { TCG_ONLY, type HostConfig } from '../../../provider/src/host';
import type * as HostModule from '../../../provider/src/host';
import type { HandlerContext, ResourceHandler } from '../../../provider/src/handler';
import type { PlacementState } from '../../../provider/src/resources/private/model';
import { renderDomainXml } from '../../../src/domain';

type Domain = { name: string; memoryMiB: number; group?: string };
type FakeHost = { memoryKiB?: number; cpus?: number; domains?: Domain[]; down?: boolean };

const noop = () => undefined;

/** The provider process of the test: its modules are loaded fresh (jest.isolateModules), the error class too. */
let HostUnreachableError: typeof HostModule.HostUnreachableError;

function ctxOf(hosts: Record<string, FakeHost>, limits: Record<string, Partial<HostConfig>> = {}): HandlerContext<never> {
  const configs: HostConfig[] = Object.keys(hosts).map((name) => ({
    name,
    uri: `qemu+tls://${name}/system`,
    migrationUri: '',
    ...limits[name],
  }));
  return {
    client: (async (name: string) => {
      const h = hosts[name];
      if (h.down) throw new HostUnreachableError(`qemu+tls://${name}/system`, new Error('connect ECONNREFUSED'), name);
      const domains = h.domains ?? [];
      return {
        nodeGetInfo: async () => ({ memoryKiB: h.memoryKiB ?? 4 * 1024 * 1024, cpus: h.cpus ?? 2 }),
        connectListAllDomains: async () => domains.map((d) => ({ name: d.name })),
        domainGetXmlDesc: async (ref: { name: string }) => {
          const d = domains.find((x) => x.name === ref.name)!;
          return renderDomainXml({
            name: d.name,
            type: 'qemu',
            memoryMiB: d.memoryMiB,
            vcpu: 1,
            disks: [],
            interfaces: [],
            ...(d.group ? { metadata: { 'anti-affinity': d.group } } : {}),
          });
        },
      };
    }) as never,
    uri: '',
    hostName: null,
    hosts: configs,
    hostConfig: (n) => configs.find((c) => c.name === n),
    signal: new AbortController().signal,
    log: { trace: noop, debug: noop, info: noop, warn: noop, error: noop },
    host: TCG_ONLY,
    notes: new Set(),
  };
}

/** The placement handler of a fresh provider process. */
function freshHandler(): ResourceHandler<PlacementState, never> {
  let handler: ResourceHandler<PlacementState, never> | undefined;
  jest.isolateModules(() => {
    /* eslint-disable @typescript-eslint/no-require-imports -- a fresh module registry needs require */
    handler = (require('../../../provider/src/resources/placement') as typeof import('../../../provider/src/resources/placement'))
      .placement;
    HostUnreachableError = (require('../../../provider/src/host') as typeof HostModule).HostUnreachableError;
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  return handler!;
}

const config = (name: string, over: Partial<PlacementState> = {}): PlacementState => ({
  id: null,
  name,
  memory: 256,
  vcpu: null,
  hosts: null,
  policy: null,
  anti_affinity: null,
  pin: null,
  rebalance: null,
  host: null,
  reason: null,
  ...over,
});

async function plan(
  h: ResourceHandler<PlacementState, never>,
  ctx: HandlerContext<never>,
  c: PlacementState,
  prior: PlacementState | null = null,
) {
  return h.plan({ prior, proposed: c, config: c }, ctx);
}

describe('virtseed_placement plan', () => {
  it('GIVEN three hosts with domains WHEN six placements are planned one after the other THEN each sees the ones before (spread)', async () => {
    const h = freshHandler();
    const ctx = ctxOf(
      { h1: { domains: [{ name: 'old', memoryMiB: 512 }] }, h2: {}, h3: {} },
      { h1: { maxMemoryMiB: 1024 }, h2: { maxMemoryMiB: 1024 }, h3: { maxMemoryMiB: 1024 } },
    );
    const hosts: unknown[] = [];
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) hosts.push((await plan(h, ctx, config(n))).planned?.host);
    expect(hosts).toEqual(['h2', 'h3', 'h2', 'h3', 'h1', 'h2']);
  });

  it('GIVEN anti-affinity WHEN a group member is on h1 in libvirt and another was just placed on h2 THEN h3', async () => {
    const h = freshHandler();
    const ctx = ctxOf({
      h1: { domains: [{ name: 'web-1', memoryMiB: 256, group: 'web' }] },
      h2: {},
      h3: { domains: [{ name: 'x', memoryMiB: 2048 }] },
    });
    expect((await plan(h, ctx, config('web-2', { anti_affinity: 'web' }))).planned?.host).toBe('h2');
    const r = await plan(h, ctx, config('web-3', { anti_affinity: 'web' }));
    expect(r.planned).toMatchObject({ host: 'h3', reason: 'spread: h3 (2304 MiB committed with web-3, 2 domains)' });
    expect(r.diagnostics).toEqual([]);
  });

  it('GIVEN an existing placement on a busy host WHEN planned again (inputs changed, no pin or rebalance) THEN it keeps its host', async () => {
    const h = freshHandler();
    const ctx = ctxOf({ h1: { domains: [{ name: 'a', memoryMiB: 3000 }] }, h2: {} });
    const prior = config('a', { id: 'a', host: 'h1', reason: 'spread: h1 (...)', policy: 'spread', vcpu: 1 });
    const r = await plan(h, ctx, config('a', { memory: 512 }), prior);
    expect(r.planned).toMatchObject({ host: 'h1', reason: 'spread: h1 (...)' });
    expect(r.requiresReplace).toEqual([]);
  });

  it('GIVEN an existing placement WHEN rebalance changes THEN it is decided again and the move is told', async () => {
    const h = freshHandler();
    const ctx = ctxOf({
      h1: {
        domains: [
          { name: 'a', memoryMiB: 256 },
          { name: 'b', memoryMiB: 3000 },
        ],
      },
      h2: {},
    });
    const prior = config('a', { id: 'a', host: 'h1', reason: 'r', policy: 'spread', vcpu: 1 });
    const r = await plan(h, ctx, config('a', { rebalance: '2026-11-25' }), prior);
    expect(r.planned?.host).toBe('h2');
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: 'a moves from h1 to h2' })]);
  });

  it('GIVEN a pin to a full host WHEN planned THEN the error is on pin and says why', async () => {
    const h = freshHandler();
    const ctx = ctxOf({ h1: {}, h2: { domains: [{ name: 'x', memoryMiB: 1000 }] } }, { h2: { maxMemoryMiB: 1024 } });
    const r = await plan(h, ctx, config('a', { pin: 'h2' }));
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        path: ['pin'],
        summary: 'No host for a',
        detail: expect.stringMatching(/^h2 is full: 1000 of 1024 MiB of memory committed, a needs 256\. Pin another host/),
      }),
    ]);
  });

  it('GIVEN a host that does not answer WHEN two placements are planned THEN it is skipped with one warning naming it', async () => {
    const h = freshHandler();
    const ctx = ctxOf({ h1: { down: true }, h2: {} });
    const [a, b] = [await plan(h, ctx, config('a')), await plan(h, ctx, config('b'))];
    expect([a.planned?.host, b.planned?.host]).toEqual(['h2', 'h2']);
    expect(a.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        summary: 'Host h1 skipped: it does not answer',
        detail: expect.stringContaining('ECONNREFUSED'),
      }),
    ]);
    expect(b.diagnostics).toEqual([]);
  });

  it('GIVEN a process that serves a second walk (new notes: a reattached test provider) WHEN planned THEN the walk reads the hosts afresh, decides anew and warns again', async () => {
    const h = freshHandler();
    const hosts: Record<string, FakeHost> = { h1: { down: true }, h2: {} };
    const first = ctxOf(hosts, { h2: { maxMemoryMiB: 1024 } });
    expect((await plan(h, first, config('a', { memory: 512 }))).diagnostics).toHaveLength(1);
    hosts.h2.domains = [{ name: 'other', memoryMiB: 768 }];
    const sameWalk = await plan(h, first, config('b', { memory: 512 }));
    expect([sameWalk.planned?.host, sameWalk.diagnostics]).toEqual(['h2', []]); // the walk's picture: h2 has 512 left
    const next = await plan(h, ctxOf(hosts, { h2: { maxMemoryMiB: 1024 } }), config('b', { memory: 512 }));
    expect(next.diagnostics.map((d) => d.summary)).toEqual(['Host h1 skipped: it does not answer', expect.any(String)]);
    expect(next.diagnostics[1]).toMatchObject({ severity: 'error' }); // 768 MiB are taken now: b does not fit
  });

  it('GIVEN no host that fits WHEN planned THEN the error names each host and why', async () => {
    const h = freshHandler();
    const ctx = ctxOf({
      h1: { down: true },
      h2: {
        cpus: 1,
        domains: [
          { name: 'x', memoryMiB: 64 },
          { name: 'y', memoryMiB: 64 },
          { name: 'z', memoryMiB: 64 },
          { name: 'w', memoryMiB: 64 },
        ],
      },
    });
    const r = await plan(h, ctx, config('a'));
    expect(r.diagnostics.find((d) => d.severity === 'error')).toMatchObject({
      summary: 'No host for a',
      detail: expect.stringMatching(
        /^h1 does not answer \(connect ECONNREFUSED\); h2 is full: 4 of 4 vCPUs committed, a needs 1\. Add a host/,
      ),
    });
    expect(r.planned?.host).not.toEqual(expect.any(String));
  });

  it('GIVEN two placements planned at the same time WHEN decided THEN both get hosts and a warning to chain them', async () => {
    const h = freshHandler();
    const ctx = ctxOf({ h1: {}, h2: {} });
    const [a, b] = await Promise.all([plan(h, ctx, config('a')), plan(h, ctx, config('b'))]);
    expect(new Set([a.planned?.host, b.planned?.host])).toEqual(new Set(['h1', 'h2']));
    expect(a.diagnostics.map((d) => d.summary)).toContain('Placements planned at the same time');
  });

  it('GIVEN a provider without host blocks WHEN planned THEN an error says to add them', async () => {
    const h = freshHandler();
    const r = await plan(h, ctxOf({}), config('a'));
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: 'error', summary: 'No hosts to place on' })]);
  });
});
