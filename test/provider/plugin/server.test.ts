import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { decodeMsgpack, encodeMsgpack, t, UNKNOWN } from '../../../provider/src/plugin/cty';
import type { HandlerContext, ResourceHandler } from '../../../provider/src/handler';
import type { DynamicValueMsg } from '../../../provider/src/plugin/messages';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';
import { Thing, THING_SCHEMA, thingHandler } from '../fixtures/thing';

const TYPE = impliedType(THING_SCHEMA);
const quiet = createLogger('error', () => undefined);
const dv = (v: unknown) => ({ msgpack: encodeMsgpack(normalizeBlockValue(THING_SCHEMA, v), TYPE) });
/** The value of a DynamicValue the server returned (which must be msgpack, as the server always encodes). */
const decoded = (m: DynamicValueMsg | undefined): unknown => {
  if (!m?.msgpack) throw new Error(`not a msgpack DynamicValue: ${JSON.stringify(m)}`);
  return decodeMsgpack(m.msgpack, TYPE);
};
const val = (m: DynamicValueMsg | undefined) => decoded(m) as Thing;

const thing = (over: Partial<Thing> = {}): Thing => ({
  id: 'thing-1',
  name: 'alpha',
  size: 1,
  secret: 's3cret',
  labels: null,
  revision: 1,
  disk: [{ label: 'root', size_gb: 10, serial: 'root-0' }],
  ...over,
});

let dir: string;
let server: ProviderServer;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-server-'));
  server = new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [thingHandler(dir)], log: quiet });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('GetProviderSchema', () => {
  it('GIVEN a registered handler WHEN the schema is asked THEN it lists the resource and the provider uri', async () => {
    const res = await server.GetProviderSchema();
    expect(Object.keys(res.resource_schemas)).toEqual(['virtseed_test_thing']);
    expect(res.provider.block.attributes[0].name).toBe('uri');
  });
});

describe('ValidateResourceConfig', () => {
  it('GIVEN a negative nested disk size WHEN validated THEN the diagnostic points at disk[0].size_gb', async () => {
    const res = await server.ValidateResourceConfig({
      type_name: 'virtseed_test_thing',
      config: dv(thing({ id: null, revision: null, disk: [{ label: 'r', size_gb: -1, serial: null }] })),
    });
    expect(res.diagnostics[0].attribute?.steps).toEqual([
      { attribute_name: 'disk' },
      { element_key_int: 0 },
      { attribute_name: 'size_gb' },
    ]);
  });

  it('GIVEN an unknown name WHEN validated THEN no diagnostic is raised for it', async () => {
    const res = await server.ValidateResourceConfig({ type_name: 'virtseed_test_thing', config: dv({ ...thing(), name: UNKNOWN }) });
    expect(res.diagnostics).toEqual([]);
  });

  it('GIVEN an unregistered type WHEN validated THEN an error diagnostic names it', async () => {
    const res = await server.ValidateResourceConfig({ type_name: 'virtseed_nope', config: dv(thing()) });
    expect(res.diagnostics[0].detail).toContain('virtseed_nope');
  });
});

describe('PlanResourceChange', () => {
  it('GIVEN a changed name WHEN planned THEN requires_replace holds the name path', async () => {
    const res = await server.PlanResourceChange({
      type_name: 'virtseed_test_thing',
      prior_state: dv(thing()),
      proposed_new_state: dv(thing({ name: 'beta' })),
      config: dv(thing({ name: 'beta' })),
    });
    expect(res.requires_replace).toEqual([{ steps: [{ attribute_name: 'name' }] }]);
  });

  it('GIVEN a create WHEN planned THEN computed attributes are unknown in the planned state', async () => {
    const res = await server.PlanResourceChange({
      type_name: 'virtseed_test_thing',
      prior_state: dv(null),
      proposed_new_state: dv(thing({ id: null, revision: null })),
      config: dv(thing({ id: null, revision: null })),
    });
    expect(val(res.planned_state)).toMatchObject({ id: UNKNOWN, revision: UNKNOWN, name: 'alpha' });
  });

  it('GIVEN prior private bytes and a handler that sets none WHEN planned THEN they pass through', async () => {
    const res = await server.PlanResourceChange({
      type_name: 'virtseed_test_thing',
      prior_state: dv(thing()),
      proposed_new_state: dv(thing()),
      config: dv(thing()),
      prior_private: Buffer.from('opaque'),
    });
    expect(res.planned_private?.toString()).toBe('opaque');
  });
});

describe('ApplyResourceChange', () => {
  it('GIVEN a create WHEN applied THEN the new state is complete and the handler private is returned', async () => {
    const planned = thing({
      id: UNKNOWN,
      revision: UNKNOWN,
      disk: [{ label: 'root', size_gb: null, serial: UNKNOWN }],
    });
    const res = await server.ApplyResourceChange({
      type_name: 'virtseed_test_thing',
      prior_state: dv(null),
      planned_state: dv(planned),
      config: dv(planned),
    });
    expect(val(res.new_state)).toMatchObject({
      id: expect.stringMatching(/^thing-/),
      revision: 1,
      disk: [{ label: 'root', serial: 'root-0', size_gb: null }],
    });
    expect(res.private?.toString()).toBe('rev-1');
  });

  it('GIVEN a destroy WHEN applied THEN the new state is null', async () => {
    const res = await server.ApplyResourceChange({
      type_name: 'virtseed_test_thing',
      prior_state: dv(thing()),
      planned_state: dv(null),
      config: dv(null),
    });
    expect(decoded(res.new_state)).toBeNull();
  });
});

describe('ReadResource', () => {
  it('GIVEN the backing file is gone WHEN read THEN the new state is null (drift)', async () => {
    const res = await server.ReadResource({ type_name: 'virtseed_test_thing', current_state: dv(thing()), private: Buffer.from('p') });
    expect(decoded(res.new_state)).toBeNull();
    expect(res.private?.toString()).toBe('p');
  });
});

describe('UpgradeResourceState', () => {
  it('GIVEN version-0 raw JSON WHEN upgraded THEN the handler maps it and the result is complete msgpack', async () => {
    const json = Buffer.from(JSON.stringify({ id: 'thing-1', name: 'alpha', capacity: 7, gone_attr: 1 }));
    const res = await server.UpgradeResourceState({ type_name: 'virtseed_test_thing', version: 0, raw_state: { json } });
    expect(val(res.upgraded_state)).toEqual({
      id: 'thing-1',
      name: 'alpha',
      size: 7,
      secret: null,
      labels: null,
      revision: null,
      disk: [],
    });
  });

  it('GIVEN current-version raw JSON WHEN upgraded THEN it is passed through unchanged', async () => {
    const current = normalizeBlockValue(THING_SCHEMA, thing());
    const res = await server.UpgradeResourceState({
      type_name: 'virtseed_test_thing',
      version: 1,
      raw_state: { json: Buffer.from(JSON.stringify(current)) },
    });
    expect(val(res.upgraded_state)).toEqual(current);
  });

  it('GIVEN a state from a newer schema version WHEN upgraded THEN an error diagnostic is returned', async () => {
    const res = await server.UpgradeResourceState({ type_name: 'virtseed_test_thing', version: 9, raw_state: { json: Buffer.from('{}') } });
    expect(res.diagnostics[0].severity).toBe('ERROR');
  });
});

describe('ImportResourceState', () => {
  it('GIVEN an id without a backing file WHEN imported THEN the exception becomes an error diagnostic', async () => {
    const res = await server.ImportResourceState({ type_name: 'virtseed_test_thing', id: 'thing-x' });
    expect(res.diagnostics[0]).toMatchObject({ severity: 'ERROR', detail: 'no thing with id thing-x' });
  });
});

describe('handler context', () => {
  const probeSchema = { version: 0, attributes: { id: { type: t.string, computed: true } } };
  function probe(onPlan: (ctx: HandlerContext) => Promise<void>): ResourceHandler<unknown> {
    return {
      typeName: 'virtseed_probe',
      schema: probeSchema,
      plan: async (req, ctx) => (await onPlan(ctx), { planned: req.proposed, requiresReplace: [], diagnostics: [] }),
      apply: async () => ({ newState: null, diagnostics: [] }),
      read: async (req) => ({ newState: req.current, diagnostics: [] }),
    };
  }
  const planReq = {
    type_name: 'virtseed_probe',
    prior_state: null,
    proposed_new_state: { msgpack: encodeMsgpack({ id: 'x' }, impliedType(probeSchema)) },
    config: null,
  };
  /** A provider server with the probe resource (`onPlan` runs in its plan) and `connect` as its connector. */
  const probeServer = (onPlan: (ctx: HandlerContext) => Promise<void>, connect: (uri: string) => Promise<{ close(): Promise<void> }>) =>
    new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [probe(onPlan)], connector: { connect }, log: quiet });
  /** ConfigureProvider with a provider block that sets no uri. */
  const configure = (s: ProviderServer) =>
    s.ConfigureProvider({ config: { msgpack: encodeMsgpack({ uri: null }, t.object({ uri: t.string })) } });

  it('GIVEN a provider block without uri WHEN a handler asks for the client THEN the connector gets qemu:///system once', async () => {
    const connect = jest.fn(async () => ({ close: async () => undefined }));
    const s = probeServer(async (ctx) => void (await ctx.client(), await ctx.client()), connect);
    await configure(s);
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics).toEqual([]);
    expect(connect.mock.calls).toEqual([['qemu:///system']]);
  });

  it('GIVEN a client whose connection was lost WHEN a handler asks again THEN the provider connects again', async () => {
    const clients = [
      { isClosed: false, close: async () => undefined },
      { isClosed: false, close: async () => undefined },
    ];
    type Client = (typeof clients)[number];
    const connect = jest.fn(async (): Promise<Client> => clients[connect.mock.calls.length - 1]);
    const got: unknown[] = [];
    const s = probeServer(async (ctx) => void got.push(await ctx.client()), connect);
    await configure(s);
    await s.PlanResourceChange(planReq);
    clients[0].isClosed = true;
    await s.PlanResourceChange(planReq);
    expect(connect).toHaveBeenCalledTimes(2);
    expect(got).toEqual([clients[0], clients[1]]);
  });

  it('GIVEN a host that could not be reached WHEN later calls ask for the client THEN they get the same error without connecting again', async () => {
    const connect = jest.fn(async (): Promise<{ close(): Promise<void> }> => {
      throw new Error('Connection timed out during banner exchange');
    });
    const errors: string[] = [];
    const s = probeServer(async (ctx) => void (await ctx.client().catch((e: Error) => errors.push(e.message))), connect);
    await configure(s);
    await s.PlanResourceChange(planReq);
    await s.PlanResourceChange(planReq);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(errors).toEqual([
      'cannot connect to libvirt at qemu:///system: Connection timed out during banner exchange',
      'cannot connect to libvirt at qemu:///system: Connection timed out during banner exchange',
    ]);
  });

  describe('a second ConfigureProvider in one process (a test harness reattached terraform: a new walk)', () => {
    it('GIVEN an open client WHEN configured again THEN the old client is closed and the next call connects afresh', async () => {
      const closed: number[] = [];
      const clients = [0, 1].map((i) => ({ isClosed: false, close: async () => void closed.push(i) }));
      type Client = (typeof clients)[number];
      const connect = jest.fn(async (): Promise<Client> => clients[connect.mock.calls.length - 1]);
      const got: unknown[] = [];
      const s = probeServer(async (ctx) => void got.push(await ctx.client()), connect);
      await configure(s);
      await s.PlanResourceChange(planReq);
      await configure(s);
      await new Promise((r) => setImmediate(r));
      expect(closed).toEqual([0]);
      await s.PlanResourceChange(planReq);
      expect(got).toEqual([clients[0], clients[1]]);
    });

    it('GIVEN a host that could not be reached WHEN configured again THEN the new walk tries to connect again', async () => {
      const connect = jest.fn(async (): Promise<{ close(): Promise<void> }> => {
        throw new Error('Connection refused');
      });
      const s = probeServer(async (ctx) => void (await ctx.client().catch(() => undefined)), connect);
      await configure(s);
      await s.PlanResourceChange(planReq);
      await s.PlanResourceChange(planReq);
      expect(connect).toHaveBeenCalledTimes(1);
      await configure(s);
      await s.PlanResourceChange(planReq);
      expect(connect).toHaveBeenCalledTimes(2);
    });

    it('GIVEN notes of one walk WHEN configured again THEN the handlers see new notes; configured once, the same', async () => {
      const notes: Set<string>[] = [];
      const s = probeServer(
        async (ctx) => void (notes.push(ctx.notes), ctx.notes.add('seen')),
        async () => ({ close: async () => undefined }),
      );
      await configure(s);
      await s.PlanResourceChange(planReq);
      await s.PlanResourceChange(planReq);
      await configure(s);
      await s.PlanResourceChange(planReq);
      expect(notes[0]).toBe(notes[1]);
      expect(notes[2]).not.toBe(notes[0]);
      expect([...notes[2]]).toEqual(['seen']);
    });
  });

  it('GIVEN a uri with an unknown parameter WHEN validated THEN the diagnostic names it at uri', async () => {
    const res = await server.ValidateProviderConfig({
      config: { msgpack: encodeMsgpack({ uri: 'qemu+ssh://h/system?keyfle=/k' }, t.object({ uri: t.string })) },
    });
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Invalid libvirt URI', attribute: { steps: [{ attribute_name: 'uri' }] } }),
    ]);
    expect(res.diagnostics[0].detail).toContain('unknown parameter "keyfle"');
  });

  it('GIVEN a handler that throws WHEN planned THEN the RPC resolves with an error diagnostic', async () => {
    const s = new ProviderServer({
      providerSchema: PROVIDER_SCHEMA,
      resources: [
        probe(async () => {
          throw new Error('boom');
        }),
      ],
      log: quiet,
    });
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics).toEqual([expect.objectContaining({ severity: 'ERROR', detail: 'boom' })]);
  });

  it('GIVEN a handler that throws WHEN planned THEN the summary names the action and resource type, never the RPC', async () => {
    const s = new ProviderServer({
      providerSchema: PROVIDER_SCHEMA,
      resources: [
        probe(async () => {
          throw new Error('boom');
        }),
      ],
      log: quiet,
    });
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics[0].summary).toBe('Planning virtseed_probe failed');
  });

  it('GIVEN libvirtd not listening WHEN a handler needs the host THEN one error names the URI, the reason and what to check', async () => {
    const connect = jest.fn(async () => {
      throw new Error('connect ENOENT /run/libvirt/libvirt-sock');
    });
    const s = probeServer(async (ctx) => void (await ctx.client()), connect);
    await configure(s);
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Cannot connect to libvirt at qemu:///system' }),
    ]);
    expect(res.diagnostics[0].detail).toMatch(
      /^connect ENOENT \/run\/libvirt\/libvirt-sock\. Check that libvirtd .* is running on this machine.*virsh -c 'qemu:\/\/\/system' version/,
    );
  });

  it('GIVEN a connector error with its own fix WHEN a handler needs the host THEN the detail is that error alone', async () => {
    const connect = jest.fn(async () => {
      throw Object.assign(new Error('Cannot connect to qemu:///system (step: connect): ENOENT. Fix: start libvirtd'), {
        fix: 'start libvirtd',
      });
    });
    const s = probeServer(async (ctx) => void (await ctx.client()), connect);
    await configure(s);
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics[0].detail).toBe('Cannot connect to qemu:///system (step: connect): ENOENT. Fix: start libvirtd.');
  });

  it('GIVEN an ssh host that cannot be reached WHEN a handler needs it THEN what to check is about the remote host and ssh', async () => {
    const connect = jest.fn(async () => {
      throw new Error('ssh exited with status 255');
    });
    const s = probeServer(async (ctx) => void (await ctx.client()), connect);
    await s.ConfigureProvider({
      config: { msgpack: encodeMsgpack({ uri: 'qemu+ssh://root@192.0.2.1/system' }, t.object({ uri: t.string })) },
    });
    const res = await s.PlanResourceChange(planReq);
    expect(res.diagnostics[0].summary).toBe('Cannot connect to libvirt at qemu+ssh://root@192.0.2.1/system');
    expect(res.diagnostics[0].detail).toMatch(/ssh with a key/);
  });

  it('GIVEN StopProvider WHEN a handler looks at its signal THEN it is aborted', async () => {
    let aborted = false;
    const s = new ProviderServer({
      providerSchema: PROVIDER_SCHEMA,
      resources: [probe(async (ctx) => void (aborted = ctx.signal.aborted))],
      log: quiet,
    });
    await s.StopProvider();
    await s.PlanResourceChange(planReq);
    expect(aborted).toBe(true);
  });

  it('GIVEN an invalid uri WHEN configured THEN the diagnostic points at uri', async () => {
    const res = await server.ConfigureProvider({ config: { msgpack: encodeMsgpack({ uri: 'nope' }, t.object({ uri: t.string })) } });
    expect(res.diagnostics[0].attribute?.steps).toEqual([{ attribute_name: 'uri' }]);
  });
});
