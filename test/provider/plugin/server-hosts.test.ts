/**
 * The provider's hosts in the protocol layer: `host` blocks, each resource's `host` choosing its connection (one per
 * URI, opened on first use), unknown host names at plan, and a refresh whose host does not answer keeping the last
 * known state with one warning per host. (What a `host` change does is the field table's rule: src/fields/host.ts.)
 */
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { HostUnreachableError } from '../../../provider/src/host';
import { encodeMsgpack, t, UNKNOWN } from '../../../provider/src/plugin/cty';
import type { DataSourceHandler, HandlerContext, ResourceHandler } from '../../../provider/src/handler';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';

const quiet = createLogger('error', () => undefined);
const PROVIDER_TYPE = impliedType(PROVIDER_SCHEMA);
const SCHEMA = { version: 0, attributes: { id: { type: t.string, computed: true }, host: { type: t.string, optional: true } } };
const TYPE = impliedType(SCHEMA);
const dv = (v: unknown) => ({ msgpack: encodeMsgpack(v, TYPE) });

type Probe = { id: string | null; host: string | null | typeof UNKNOWN };
type Seen = { client?: unknown; uri: string; hostName: string | null };

function probe(
  seen: Seen[],
  options: { hostAttribute?: 'replace' | 'handler' | 'none'; read?: (ctx: HandlerContext) => Promise<void> } = {},
): ResourceHandler<Probe> {
  return {
    typeName: 'virtseed_probe',
    schema: SCHEMA,
    plan: async (req, ctx) => {
      seen.push({ client: ctx.uri ? await ctx.client() : undefined, uri: ctx.uri, hostName: ctx.hostName });
      return { planned: req.proposed, requiresReplace: [], diagnostics: [] };
    },
    apply: async () => ({ newState: null, diagnostics: [] }),
    importState: async (id, ctx) => [{ id: `${id}@${ctx.uri}`, host: null }],
    read: async (req, ctx) => {
      await options.read?.(ctx);
      return { newState: req.current, diagnostics: [] };
    },
  };
}

async function configured(handler: ResourceHandler<Probe>, connect: (uri: string) => Promise<{ close(): Promise<void> }>) {
  const s = new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [handler], connector: { connect }, log: quiet });
  const config = normalizeBlockValue(PROVIDER_SCHEMA, {
    uri: 'qemu:///system',
    host: [
      { name: 'h1', uri: 'qemu+tls://10.0.0.1/system', migration_uri: null, max_memory: null, max_vcpu: null },
      { name: 'h2', uri: 'qemu+tls://10.0.0.2/system', migration_uri: null, max_memory: 2048, max_vcpu: null },
    ],
  });
  const res = await s.ConfigureProvider({ config: { msgpack: encodeMsgpack(config, PROVIDER_TYPE) } });
  expect(res.diagnostics).toEqual([]);
  return s;
}

const plan = (s: ProviderServer, prior: Probe | null, planned: Probe | null) =>
  s.PlanResourceChange({ type_name: 'virtseed_probe', prior_state: dv(prior), proposed_new_state: dv(planned), config: dv(planned) });

describe('resources on named hosts', () => {
  it('GIVEN resources on h2, h1 and the default host WHEN planned THEN each gets its host and one connection per URI', async () => {
    const seen: Seen[] = [];
    const connect = jest.fn(async (uri: string) => ({ uri, close: async () => undefined }));
    const s = await configured(probe(seen), connect);
    for (const host of ['h2', 'h1', null, 'h2']) await plan(s, null, { id: null, host });
    expect(seen.map((x) => [x.hostName, x.uri, (x.client as { uri: string }).uri])).toEqual([
      ['h2', 'qemu+tls://10.0.0.2/system', 'qemu+tls://10.0.0.2/system'],
      ['h1', 'qemu+tls://10.0.0.1/system', 'qemu+tls://10.0.0.1/system'],
      [null, 'qemu:///system', 'qemu:///system'],
      ['h2', 'qemu+tls://10.0.0.2/system', 'qemu+tls://10.0.0.2/system'],
    ]);
    expect(connect.mock.calls.map((c) => c[0])).toEqual(['qemu+tls://10.0.0.2/system', 'qemu+tls://10.0.0.1/system', 'qemu:///system']);
  });

  it('GIVEN a host name no host block has WHEN planned THEN the error is on host and lists the hosts', async () => {
    const s = await configured(probe([]), async () => ({ close: async () => undefined }));
    const res = await plan(s, null, { id: null, host: 'h9' });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Unknown host', attribute: { steps: [{ attribute_name: 'host' }] } }),
    ]);
    expect(res.diagnostics[0].detail).toContain(`host "h9" is none of the provider's host blocks (h1, h2)`);
  });

  it('GIVEN a host not known yet WHEN planned THEN the handler sees no URI and no connection is made', async () => {
    const seen: Seen[] = [];
    const connect = jest.fn(async () => ({ close: async () => undefined }));
    const s = await configured(probe(seen), connect);
    await plan(s, null, { id: null, host: UNKNOWN });
    expect(seen).toEqual([{ client: undefined, uri: '', hostName: null }]);
    expect(connect).not.toHaveBeenCalled();
  });

  it('GIVEN two resources on h2 whose host does not answer WHEN refreshed THEN both keep their state and one warning names h2', async () => {
    const handler = probe([], {
      read: async (ctx) => {
        await ctx.client();
      },
    });
    const s = await configured(handler, async (uri) => {
      if (uri.includes('10.0.0.2')) throw new Error('connect ECONNREFUSED 10.0.0.2:16514');
      return { close: async () => undefined };
    });
    const read = (id: string, host: string) => s.ReadResource({ type_name: 'virtseed_probe', current_state: dv({ id, host }) });
    const [a, b, c] = [await read('a', 'h2'), await read('b', 'h2'), await read('c', 'h1')];
    expect(a.new_state).toEqual(dv({ id: 'a', host: 'h2' }));
    expect(b.new_state).toEqual(dv({ id: 'b', host: 'h2' }));
    expect(a.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'WARNING',
        summary: 'Not refreshed: host h2 (qemu+tls://10.0.0.2/system) does not answer',
      }),
    ]);
    expect(a.diagnostics[0].detail).toMatch(/ECONNREFUSED .*keep their last known state/);
    expect([b.diagnostics, c.diagnostics]).toEqual([[], []]);
  });

  it('GIVEN h2 that did not answer WHEN more resources on h2 and h1 are refreshed THEN h2 is tried once per process and h1 connects', async () => {
    const handler = probe([], { read: async (ctx) => void (await ctx.client()) });
    const connect = jest.fn(async (uri: string) => {
      if (uri.includes('10.0.0.2')) throw new Error('connect ECONNREFUSED 10.0.0.2:16514');
      return { close: async () => undefined };
    });
    const s = await configured(handler, connect);
    const read = (id: string, host: string) => s.ReadResource({ type_name: 'virtseed_probe', current_state: dv({ id, host }) });
    for (const [id, host] of [
      ['a', 'h2'],
      ['b', 'h2'],
      ['c', 'h1'],
      ['d', 'h2'],
    ])
      await read(id, host);
    expect(connect.mock.calls.map((c) => c[0])).toEqual(['qemu+tls://10.0.0.2/system', 'qemu+tls://10.0.0.1/system']);
  });

  it('GIVEN the host that does not answer WHEN a handler needs it at apply THEN the error names the host block', async () => {
    const handler: ResourceHandler<Probe> = {
      ...probe([]),
      apply: async (_req, ctx) => {
        await ctx.client();
        return { newState: null, diagnostics: [] };
      },
    };
    const s = await configured(handler, async () => {
      throw new HostUnreachableError('x', new Error('never thrown as such'));
    });
    const res = await s.ApplyResourceChange({
      type_name: 'virtseed_probe',
      prior_state: dv({ id: 'a', host: 'h1' }),
      planned_state: dv(null),
    });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Cannot connect to libvirt host h1 at qemu+tls://10.0.0.1/system' }),
    ]);
  });

  it('GIVEN an import id h2:<id> WHEN imported THEN the handler gets <id> on h2 and the state records host h2', async () => {
    const s = await configured(probe([]), async () => ({ close: async () => undefined }));
    const res = await s.ImportResourceState({ type_name: 'virtseed_probe', id: 'h2:web1' });
    expect((res.imported_resources ?? []).map((r: { state: unknown }) => r.state)).toEqual([
      dv({ id: 'web1@qemu+tls://10.0.0.2/system', host: 'h2' }),
    ]);
    const plain = await s.ImportResourceState({ type_name: 'virtseed_probe', id: 'default/a:b' });
    expect((plain.imported_resources ?? []).map((r: { state: unknown }) => r.state)).toEqual([
      dv({ id: 'default/a:b@qemu:///system', host: null }),
    ]);
  });

  it('GIVEN a data source read with host h2 WHEN read THEN it reads h2 and its state says h2; an unknown host is an error on host', async () => {
    const seen: string[] = [];
    const data: DataSourceHandler<Probe> = {
      typeName: 'virtseed_probe',
      schema: SCHEMA,
      read: async ({ config }, ctx) => {
        seen.push(ctx.uri);
        return { state: { ...config, id: 'read' }, diagnostics: [] };
      },
    };
    const s = new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [], dataSources: [data], log: quiet });
    const config = normalizeBlockValue(PROVIDER_SCHEMA, { uri: null, host: [{ name: 'h2', uri: 'qemu+tls://10.0.0.2/system' }] });
    await s.ConfigureProvider({ config: { msgpack: encodeMsgpack(config, PROVIDER_TYPE) } });
    const res = await s.ReadDataSource({ type_name: 'virtseed_probe', config: dv({ id: null, host: 'h2' }) });
    expect(['state' in res ? res.state : undefined, seen]).toEqual([dv({ id: 'read', host: 'h2' }), ['qemu+tls://10.0.0.2/system']]);
    const unknown = await s.ReadDataSource({ type_name: 'virtseed_probe', config: dv({ id: null, host: 'h7' }) });
    expect(unknown.diagnostics).toEqual([
      expect.objectContaining({ summary: 'Unknown host', attribute: { steps: [{ attribute_name: 'host' }] } }),
    ]);
  });
});
