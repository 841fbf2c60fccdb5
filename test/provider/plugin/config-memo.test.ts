import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { ConfigMemo, configKey } from '../../../provider/src/plugin/config-memo';
import { encodeMsgpack } from '../../../provider/src/plugin/cty';
import type { ResourceHandler } from '../../../provider/src/handler';
import { createLogger } from '../../../provider/src/plugin/log';
import { impliedType, normalizeBlockValue } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';
import { warning } from '../../../src/diagnostics';
import type { Diagnostic } from '../../../src/diagnostics';
import { Thing, THING_SCHEMA, thingHandler } from '../fixtures/thing';

const TYPE = impliedType(THING_SCHEMA);
const dv = (v: unknown) => ({ msgpack: encodeMsgpack(normalizeBlockValue(THING_SCHEMA, v), TYPE) });
const thing = (over: Partial<Thing> = {}): Thing => ({
  id: null,
  name: 'alpha',
  size: 5,
  secret: null,
  labels: null,
  revision: null,
  disk: [],
  ...over,
});

describe('configKey', () => {
  it('GIVEN equal bytes THEN equal keys; another type, other bytes or JSON instead of msgpack THEN other keys', () => {
    const a = dv(thing());
    expect(configKey('t', a)).toBe(configKey('t', dv(thing())));
    expect(configKey('t', a)).toMatch(/^[0-9a-f]{64}$/);
    expect(configKey('u', a)).not.toBe(configKey('t', a));
    expect(configKey('t', dv(thing({ size: 6 })))).not.toBe(configKey('t', a));
    expect(configKey('t', { json: Buffer.from(a.msgpack) })).not.toBe(configKey('t', a));
  });

  it('GIVEN no value or empty bytes THEN no key', () => {
    expect(configKey('t', undefined)).toBeUndefined();
    expect(configKey('t', null)).toBeUndefined();
    expect(configKey('t', { msgpack: Buffer.alloc(0) })).toBeUndefined();
  });

  it('GIVEN a config with a secret THEN the key does not contain its bytes', () => {
    expect(configKey('t', dv(thing({ secret: 'hunter2' })))).not.toContain(Buffer.from('hunter2').toString('hex'));
  });
});

describe('ConfigMemo', () => {
  it('GIVEN a key seen before THEN its value is served without computing again', () => {
    const memo = new ConfigMemo<number>();
    let calls = 0;
    expect(memo.get('k', () => ++calls)).toBe(1);
    expect(memo.get('k', () => ++calls)).toBe(1);
    expect(memo.peek('k')).toBe(1);
    expect(calls).toBe(1);
  });

  it('GIVEN kept values WHEN cleared THEN none is kept and the next get computes again', () => {
    const memo = new ConfigMemo<number>();
    let calls = 0;
    memo.get('k', () => ++calls);
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.peek('k')).toBeUndefined();
    expect(memo.get('k', () => ++calls)).toBe(2);
  });

  it('GIVEN no key THEN the value is computed each time and not kept', () => {
    const memo = new ConfigMemo<number>();
    let calls = 0;
    memo.get(undefined, () => ++calls);
    memo.get(undefined, () => ++calls);
    expect([calls, memo.size, memo.peek(undefined)]).toEqual([2, 0, undefined]);
  });

  it('GIVEN more keys than its capacity THEN the oldest are forgotten first', () => {
    const memo = new ConfigMemo<string>(2);
    for (const k of ['a', 'b', 'c']) memo.get(k, () => k.toUpperCase());
    expect([memo.peek('a'), memo.peek('b'), memo.peek('c'), memo.size]).toEqual([undefined, 'B', 'C', 2]);
  });

  it('GIVEN a capacity below 1 THEN RangeError', () => {
    expect(() => new ConfigMemo(0)).toThrow(RangeError);
  });

  it('GIVEN a compute that throws THEN nothing is kept', () => {
    const memo = new ConfigMemo<number>();
    expect(() =>
      memo.get('k', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(memo.size).toBe(0);
  });
});

describe('ProviderServer: validate once per config', () => {
  const BIG = warning(['size'], 'Big thing', 'size is over 100.');
  /** The test thing counting its validate calls, warning at validate about a big size; its plan returns what it got. */
  function counting(dir: string) {
    const base = thingHandler(dir);
    const seen: { validates: number; validated: (Diagnostic[] | undefined)[] } = { validates: 0, validated: [] };
    const handler: ResourceHandler<Thing> = {
      ...base,
      validate: (config, ctx) => {
        seen.validates++;
        return [...base.validate!(config, ctx), ...(typeof config.size === 'number' && config.size > 100 ? [BIG] : [])];
      },
      plan: async (req, ctx) => {
        seen.validated.push(req.validated);
        const r = await base.plan(req, ctx);
        return { ...r, diagnostics: [...(req.validated ?? []), ...r.diagnostics] };
      },
    };
    return { handler, seen };
  }
  const server = (handler: ResourceHandler<Thing>) =>
    new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: [handler], log: createLogger('error', () => undefined) });
  const plan = (s: ProviderServer, config: Thing) =>
    s.PlanResourceChange({ type_name: 'virtseed_test_thing', prior_state: dv(null), proposed_new_state: dv(config), config: dv(config) });

  it('GIVEN ValidateResourceConfig then PlanResourceChange of the same config THEN validate runs once and the plan gets its diagnostics, warnings included', async () => {
    const { handler, seen } = counting('/nonexistent');
    const s = server(handler);
    const config = thing({ size: 500 });
    const v = await s.ValidateResourceConfig({ type_name: 'virtseed_test_thing', config: dv(config) });
    expect(v.diagnostics).toEqual([]); // the warning belongs to the plan
    const p = await plan(s, config);
    expect(seen.validates).toBe(1);
    expect(seen.validated).toEqual([[BIG]]);
    expect(p.diagnostics.map((d: { summary: string }) => d.summary)).toEqual(['Big thing']);
  });

  it('GIVEN a plan of a config never validated in this process THEN the plan gets nothing and checks the config itself', async () => {
    const { handler, seen } = counting('/nonexistent');
    const s = server(handler);
    await s.ValidateResourceConfig({ type_name: 'virtseed_test_thing', config: dv(thing({ name: 'other' })) });
    await plan(s, thing());
    expect(seen.validated).toEqual([undefined]);
    expect(seen.validates).toBe(1);
  });

  it('GIVEN the same config validated twice THEN the errors are the same both times, validate run once', async () => {
    const { handler, seen } = counting('/nonexistent');
    const s = server(handler);
    const req = { type_name: 'virtseed_test_thing', config: dv(thing({ name: 'Bad' })) };
    const [a, b] = [await s.ValidateResourceConfig(req), await s.ValidateResourceConfig(req)];
    expect(a.diagnostics.map((d: { summary: string }) => d.summary)).toEqual(['Invalid thing name']);
    expect(b).toEqual(a);
    expect(seen.validates).toBe(1);
  });
});
