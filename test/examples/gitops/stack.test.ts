import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdktf';
import { FleetFileError, readFleet } from '../../../examples/gitops/fleet';
import { GitOpsStack, gitopsPropsFromEnv } from '../../../examples/gitops/stack';

const EXAMPLE_FLEET = path.join(__dirname, '..', '..', '..', 'examples', 'gitops', 'fleet.json');
const ENV = { PG_CONN_STR: 'postgres://team@127.0.0.1:5432/team?sslmode=disable', VIRTSEED_IMAGE: '/images/debian.qcow2' };

describe('examples/gitops stack', () => {
  const app = Testing.app();
  const stack = new GitOpsStack(app, 'gitops', gitopsPropsFromEnv({ ...ENV, PG_SCHEMA_NAME: 'team_infra' }));
  const synth = JSON.parse(Testing.synth(stack));

  test('GIVEN the example WHEN synthesized THEN the state lives in the pg backend with the given connection string and schema', () => {
    const full = JSON.parse(fs.readFileSync(path.join(Testing.fullSynth(stack), 'stacks', 'gitops', 'cdk.tf.json'), 'utf8'));
    expect(full.terraform.backend).toEqual({ pg: { conn_str: ENV.PG_CONN_STR, schema_name: 'team_infra' } });
  });

  test("GIVEN the example's fleet.json WHEN synthesized THEN each VM is a domain named with the prefix on the fleet's isolated network", () => {
    const domains = Object.values(synth.resource.virtseed_domain) as Record<string, unknown>[];
    expect(domains.map((d) => [d.name, d.memory, d.max_memory])).toEqual([['gitops-web', 256, 1024]]);
    const networks = Object.values(synth.resource.virtseed_network) as Record<string, unknown>[];
    expect(networks).toEqual([expect.objectContaining({ name: 'gitops-net', mode: 'none' })]);
  });

  test('GIVEN the example WHEN synthesized THEN it makes its own storage pool and every volume and seed goes into it (no pool `default` needed)', () => {
    expect(Object.values(synth.resource.virtseed_pool)).toEqual([
      expect.objectContaining({ name: 'gitops-pool', type: 'dir', path: '/var/lib/libvirt/images/gitops-pool' }),
    ]);
    const pools = ['virtseed_volume', 'virtseed_cloudinit_seed'].flatMap((t) =>
      Object.values(synth.resource[t] as Record<string, { pool: string }>).map((r) => r.pool),
    );
    expect(pools.length).toBe(3); // base, root, seed
    expect([...new Set(pools)]).toEqual([expect.stringMatching(/^\$\{virtseed_pool\.pool_\w+\.name\}$/)]);
  });

  test('GIVEN a PG_CONN_STR with a password WHEN the props are read THEN synth refuses it, naming PGPASSFILE', () => {
    const env = { ...ENV, PG_CONN_STR: 'postgres://team:s3cret@127.0.0.1:5432/team' };
    expect(() => gitopsPropsFromEnv(env)).toThrow(/PG_CONN_STR holds a password.*PGPASSFILE/);
  });

  test('GIVEN a keyword/value connection string with a password WHEN the props are read THEN synth refuses it too', () => {
    expect(() => gitopsPropsFromEnv({ ...ENV, PG_CONN_STR: 'host=127.0.0.1 user=team password=x' })).toThrow(
      'PG_CONN_STR holds a password',
    );
  });

  test('GIVEN no PG_CONN_STR WHEN the props are read THEN the error names the variable', () => {
    expect(() => gitopsPropsFromEnv({ VIRTSEED_IMAGE: ENV.VIRTSEED_IMAGE })).toThrow('PG_CONN_STR is not set');
  });
});

describe('readFleet', () => {
  test('GIVEN the example fleet WHEN read THEN it has the documented shape', () => {
    expect(readFleet(EXAMPLE_FLEET)).toMatchObject({ prefix: 'gitops-', vms: [{ name: 'web', memoryMiB: 256 }] });
  });

  test('GIVEN a memory given as a string WHEN read THEN the error names the file and the path', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-gitops-fleet-'));
    try {
      const file = path.join(dir, 'fleet.json');
      const fleet = { prefix: 'a-', network: { address: '10.0.0.1/24' }, vms: [{ name: 'w', memoryMiB: '256', message: 'm' }] };
      fs.writeFileSync(file, JSON.stringify(fleet));
      expect(() => readFleet(file)).toThrow(new FleetFileError(file, 'vms[0].memoryMiB', 'a number of MiB', '256'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
