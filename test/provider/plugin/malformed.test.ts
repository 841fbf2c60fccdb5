/**
 * Bad input at the provider's door: malformed DynamicValues (garbage bytes, truncated msgpack, wrong types, JSON
 * that is not JSON) and attributes the schema does not have, sent to every RPC of every real resource. Each must
 * come back as an error diagnostic; nothing may throw or crash the plugin server.
 */
import { PROVIDER_SCHEMA } from '../../../provider/src/config';
import { encodeMsgpack, t } from '../../../provider/src/plugin/cty';
import { createLogger } from '../../../provider/src/plugin/log';
import type { DiagnosticsResponse } from '../../../provider/src/plugin/messages';
import { impliedType } from '../../../provider/src/plugin/schema';
import { LibvirtProviderServer as ProviderServer } from '../../../provider/src/hosting';
import { resourceHandlers } from '../../../provider/src/registry';
import { encode as msgpackEncode } from '@msgpack/msgpack';

const quiet = createLogger('error', () => undefined);
const handlers = resourceHandlers();
const server = new ProviderServer({ providerSchema: PROVIDER_SCHEMA, resources: handlers, log: quiet });

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function garbage(rand: () => number): Buffer {
  const b = Buffer.alloc(Math.floor(rand() * 64));
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

type Rpc = (dv: { msgpack?: Buffer; json?: Buffer }, typeName: string) => Promise<DiagnosticsResponse>;
const RPCS: Record<string, Rpc> = {
  ValidateResourceConfig: (dv, type_name) => server.ValidateResourceConfig({ type_name, config: dv }),
  PlanResourceChange: (dv, type_name) => server.PlanResourceChange({ type_name, prior_state: dv, proposed_new_state: dv, config: dv }),
  ApplyResourceChange: (dv, type_name) => server.ApplyResourceChange({ type_name, prior_state: dv, planned_state: dv, config: dv }),
  ReadResource: (dv, type_name) => server.ReadResource({ type_name, current_state: dv }),
  UpgradeResourceState: (dv, type_name) =>
    server.UpgradeResourceState({ type_name, version: 0, raw_state: { json: dv.json ?? dv.msgpack } }),
  ConfigureProvider: (dv) => server.ConfigureProvider({ config: dv }),
};

function expectErrorDiagnostic(res: DiagnosticsResponse, what: string): void {
  expect({ what, errors: (res?.diagnostics ?? []).filter((d) => d.severity === 'ERROR').length > 0 }).toEqual({ what, errors: true });
}

describe('malformed DynamicValues reach the provider', () => {
  for (const h of handlers) {
    for (const [rpc, call] of Object.entries(RPCS)) {
      it(`GIVEN 200 random byte strings as ${h.typeName} values WHEN ${rpc} THEN each resolves with diagnostics, never a throw`, async () => {
        const rand = prng(h.typeName.length * 7919 + rpc.length);
        for (let i = 0; i < 200; i++) {
          const bytes = garbage(rand);
          const dv = i % 2 ? { msgpack: bytes } : { json: bytes };
          const res = await call(dv, h.typeName);
          expect(Array.isArray(res.diagnostics)).toBe(true);
        }
      });
    }
  }

  it.each(handlers.map((h) => h.typeName))(
    'GIVEN %s config with an attribute the schema lacks WHEN validated or planned THEN the diagnostic names it',
    async (typeName) => {
      const h = handlers.find((x) => x.typeName === typeName)!;
      const type = impliedType(h.schema) as { kind: 'object'; attributes: Record<string, unknown> };
      const value: Record<string, unknown> = { vstest_no_such_attribute: 'x' };
      for (const k of Object.keys(type.attributes)) value[k] = null;
      const dv = { msgpack: Buffer.from(msgpackEncode(value)) };
      for (const res of [
        await RPCS.ValidateResourceConfig(dv, typeName),
        await RPCS.PlanResourceChange(dv, typeName),
        await RPCS.ApplyResourceChange(dv, typeName),
      ]) {
        expectErrorDiagnostic(res, typeName);
        expect(res.diagnostics[0].detail).toContain('unknown attribute "vstest_no_such_attribute"');
      }
    },
  );

  it.each([
    ['truncated msgpack', { msgpack: Buffer.from(encodeMsgpack({ uri: 'qemu:///system' }, t.object({ uri: t.string }))).subarray(0, 5) }],
    ['a number where an object belongs', { msgpack: Buffer.from(msgpackEncode(42)) }],
    ['uri as a map', { msgpack: Buffer.from(msgpackEncode({ uri: { a: 1 } })) }],
    ['JSON that is not JSON', { json: Buffer.from('{"uri": ') }],
    ['an unknown provider attribute', { json: Buffer.from('{"uri": null, "url": "qemu:///system"}') }],
  ])('GIVEN %s WHEN the provider is configured THEN an error diagnostic, not a crash', async (_what, dv) => {
    expectErrorDiagnostic(await server.ConfigureProvider({ config: dv }), _what);
  });

  it('GIVEN state JSON that does not parse WHEN upgraded THEN an error diagnostic', async () => {
    const res = await server.UpgradeResourceState({
      type_name: 'virtseed_volume',
      version: 0,
      raw_state: { json: Buffer.from('{"id": ') },
    });
    expectErrorDiagnostic(res, 'state');
  });

  it('GIVEN a wrongly typed nested value WHEN planned THEN the diagnostic names the attribute path', async () => {
    const type = impliedType(handlers.find((h) => h.typeName === 'virtseed_volume')!.schema) as {
      kind: 'object';
      attributes: Record<string, unknown>;
    };
    const value: Record<string, unknown> = {};
    for (const k of Object.keys(type.attributes)) value[k] = null;
    value.capacity = { not: 'a number' };
    const res = await RPCS.PlanResourceChange({ msgpack: Buffer.from(msgpackEncode(value)) }, 'virtseed_volume');
    expectErrorDiagnostic(res, 'capacity');
    expect(res.diagnostics[0].detail).toContain('capacity: expected number');
  });
});
