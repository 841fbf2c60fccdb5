import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { localStateValues } from './terraform';

let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-tfstate-'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function stateFile(name: string, state: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(state));
  return file;
}

describe('localStateValues', () => {
  test('GIVEN a version 4 state with a resource, a data source, count and for_each instances and a child module WHEN read THEN it gives the root module instances by the addresses terraform show -json prints', () => {
    const file = stateFile('full.tfstate', {
      version: 4,
      terraform_version: '1.11.0',
      serial: 3,
      lineage: 'x',
      outputs: {},
      resources: [
        {
          mode: 'managed',
          type: 'virtseed_pool',
          name: 'p',
          provider: 'p',
          instances: [{ schema_version: 0, attributes: { name: 'a', n: 1 } }],
        },
        { mode: 'data', type: 'virtseed_host', name: 'h', provider: 'p', instances: [{ schema_version: 0, attributes: { free: 2 } }] },
        {
          mode: 'managed',
          type: 'virtseed_volume',
          name: 'v',
          provider: 'p',
          instances: [
            { index_key: 0, schema_version: 0, attributes: { name: 'v0' } },
            { index_key: 1, schema_version: 0, attributes: { name: 'v1' } },
          ],
        },
        {
          mode: 'managed',
          type: 'virtseed_network',
          name: 'n',
          provider: 'p',
          instances: [{ index_key: 'a b', schema_version: 0, attributes: { name: 'n', dns: { enabled: true } } }],
        },
        {
          module: 'module.m',
          mode: 'managed',
          type: 'virtseed_pool',
          name: 'q',
          provider: 'p',
          instances: [{ attributes: { name: 'q' } }],
        },
      ],
    });
    expect(localStateValues(file)).toEqual({
      'virtseed_pool.p': { name: 'a', n: 1 },
      'data.virtseed_host.h': { free: 2 },
      'virtseed_volume.v[0]': { name: 'v0' },
      'virtseed_volume.v[1]': { name: 'v1' },
      'virtseed_network.n["a b"]': { name: 'n', dns: { enabled: true } },
    });
  });

  test('GIVEN an emptied state WHEN read THEN no resources', () => {
    expect(localStateValues(stateFile('empty.tfstate', { version: 4, resources: [] }))).toEqual({});
  });

  test('GIVEN no state file WHEN read THEN undefined (the caller asks terraform show -json)', () => {
    expect(localStateValues(path.join(dir, 'none.tfstate'))).toBeUndefined();
  });

  test('GIVEN a state of another format version WHEN read THEN it throws naming the version', () => {
    expect(() => localStateValues(stateFile('v3.tfstate', { version: 3, modules: [] }))).toThrow(/state format version 3, expected 4/);
  });
});
