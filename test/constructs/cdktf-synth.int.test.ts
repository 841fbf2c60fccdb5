// `cdktf synth` of the top-level cdktf.json (app: examples/${VIRTSEED_EXAMPLE:-basic}/main.ts) with the real CLI.
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

describe('cdktf synth of examples/basic', () => {
  let out: string;
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-cdktf-out-'));
  });
  afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

  test('GIVEN VIRTSEED_IMAGE WHEN cdktf synth runs THEN stacks/basic/cdk.tf.json holds the volumes, the seed and the domain', () => {
    execFileSync('npx', ['cdktf', 'synth', '--output', out], {
      cwd: ROOT,
      env: { ...process.env, CHECKPOINT_DISABLE: '1', VIRTSEED_IMAGE: '/nonexistent/test.qcow2', VIRTSEED_EXAMPLE: 'basic' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const config = JSON.parse(fs.readFileSync(path.join(out, 'stacks', 'basic', 'cdk.tf.json'), 'utf8'));
    const names = (type: string): unknown[] => Object.values(config.resource[type] ?? {}).map((r) => (r as { name: unknown }).name);
    expect(names('virtseed_volume').sort()).toEqual(['virtseed-basic-base', 'virtseed-basic-root']);
    expect(names('virtseed_cloudinit_seed')).toEqual(['virtseed-basic-seed']);
    expect(names('virtseed_domain')).toEqual(['virtseed-basic']);
    expect(config.terraform.required_providers.virtseed).toEqual({ source: 'virtseed/virtseed', version: '0.1.0' });
  }, 120_000);
});
