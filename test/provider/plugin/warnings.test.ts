import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { warning } from '../../../src/diagnostics';
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { encodeMsgpack } from '../../../provider/src/plugin/cty';
import type { ResourceHandler } from '../../../provider/src/handler';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';
import { PlanWarnings } from '../../../provider/src/plugin/warnings';
import { Thing, THING_SCHEMA, thingHandler } from '../fixtures/thing';

const TYPE = impliedType(THING_SCHEMA);
const dv = (v: unknown) => ({ msgpack: encodeMsgpack(normalizeBlockValue(THING_SCHEMA, v), TYPE) });
const BIG = warning(['size'], 'Big thing', 'size is over 100.');

const thing = (over: Partial<Thing> = {}): Thing => ({
  id: null,
  name: 'alpha',
  size: 500,
  secret: null,
  labels: null,
  revision: null,
  disk: [],
  ...over,
});

/** The test thing, warning about a big size at validate and at plan. */
function warningThing(dir: string): ResourceHandler<Thing> {
  const base = thingHandler(dir);
  const big = (c: Thing | null) => (c && typeof c.size === 'number' && c.size > 100 ? [BIG] : []);
  return {
    ...base,
    validate: (config, ctx) => [...base.validate!(config, ctx), ...big(config)],
    plan: async (req, ctx) => {
      const r = await base.plan(req, ctx);
      return { ...r, diagnostics: [...r.diagnostics, ...big(req.config)] };
    },
  };
}

let dir: string;
let server: ProviderServer;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-warnings-'));
  server = new ProviderServer({
    providerSchema: PROVIDER_SCHEMA,
    resources: [warningThing(dir)],
    log: createLogger('error', () => undefined),
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const plan = (prior: Thing | null, config: Thing) =>
  server.PlanResourceChange({
    type_name: 'virtseed_test_thing',
    prior_state: dv(prior),
    proposed_new_state: dv(config),
    config: dv(config),
  });

describe('ValidateResourceConfig', () => {
  it('GIVEN a handler whose validate warns WHEN validated THEN no warning reaches Terraform', async () => {
    const res = await server.ValidateResourceConfig({ type_name: 'virtseed_test_thing', config: dv(thing()) });
    expect(res.diagnostics).toEqual([]);
  });

  it('GIVEN a handler whose validate warns and errs WHEN validated THEN only the error reaches Terraform', async () => {
    const res = await server.ValidateResourceConfig({ type_name: 'virtseed_test_thing', config: dv(thing({ name: 'Bad' })) });
    expect(res.diagnostics.map((d: { summary: string }) => d.summary)).toEqual(['Invalid thing name']);
  });
});

describe('PlanResourceChange', () => {
  it('GIVEN a replacement WHEN Terraform plans it with the prior state and then its create half THEN the warning comes once', async () => {
    const config = thing({ name: 'beta' });
    const first = await plan(thing({ id: 'thing-1', revision: 1 }), config);
    const second = await plan(null, config);
    expect([...first.diagnostics, ...second.diagnostics].map((d: { summary: string }) => d.summary)).toEqual(['Big thing']);
  });

  it('GIVEN two resources with the same warning WHEN planned THEN each gets it', async () => {
    const a = await plan(null, thing({ name: 'a' }));
    const b = await plan(null, thing({ name: 'b' }));
    expect([a.diagnostics.length, b.diagnostics.length]).toEqual([1, 1]);
  });
});

describe('a new walk in one process (ConfigureProvider again: a reattached test provider)', () => {
  const configure = () =>
    server.ConfigureProvider({
      config: { msgpack: encodeMsgpack(normalizeBlockValue(PROVIDER_SCHEMA, {}), impliedType(PROVIDER_SCHEMA)) },
    });

  it('GIVEN a warning given in one walk WHEN the process is configured again and plans the same THEN it warns again', async () => {
    await configure();
    const config = thing({ name: 'beta' });
    expect((await plan(null, config)).diagnostics).toHaveLength(1);
    expect((await plan(null, config)).diagnostics).toHaveLength(0);
    await configure();
    expect((await plan(null, config)).diagnostics.map((d: { summary: string }) => d.summary)).toEqual(['Big thing']);
  });
});

describe('PlanWarnings', () => {
  it('GIVEN a warning already returned for a resource WHEN it comes again with an error THEN only the error passes', () => {
    const w = new PlanWarnings();
    w.once('t', { name: 'x' }, [BIG]);
    const err = { ...BIG, severity: 'error' as const };
    expect(w.once('t', { name: 'x' }, [BIG, err])).toEqual([err]);
  });

  it('GIVEN the same warning text on another path WHEN returned THEN it passes (it is another warning)', () => {
    const w = new PlanWarnings();
    w.once('t', { name: 'x' }, [BIG]);
    const other = warning(['disk', 0], BIG.summary, BIG.detail);
    expect(w.once('t', { name: 'x' }, [other])).toEqual([other]);
  });

  it('GIVEN a config with an unknown value WHEN returned twice THEN the warning passes once', () => {
    const w = new PlanWarnings();
    const config = { name: Symbol('unknown') };
    expect([...w.once('t', config, [BIG]), ...w.once('t', config, [BIG])]).toEqual([BIG]);
  });
});
