/**
 * The HCL examples shown in the docs (examples/hcl/) are valid configurations for the real provider: each
 * resource's resource.tf and each data source's data-source.tf, with the provider example, passes `terraform init`,
 * `terraform validate` (which asks the provider to validate every resource and data source) and
 * `terraform fmt -check`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { isProviderInstalled, providerMirrorDirs } from '../../../constructs/scripts/schema';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'examples', 'hcl');
const installed = isProviderInstalled();
if (!installed) {
  console.warn(
    `SKIPPED examples.int.test: the virtseed provider is not installed (looked in ${providerMirrorDirs().join(', ')}); run scripts/install-provider.sh`,
  );
}
const describeIfInstalled = installed ? describe : describe.skip;

function terraform(cwd: string, args: string[]): string {
  const r = spawnSync('terraform', [...args, '-no-color'], {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' },
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}`;
  if (r.status !== 0) throw new Error(`terraform ${args.join(' ')} in ${cwd} exited ${r.status}:\n${out}`);
  return out;
}

describeIfInstalled('examples/hcl', () => {
  let work: string;
  beforeAll(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-docs-examples-'))));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  it('GIVEN the examples WHEN terraform fmt -check runs THEN they are formatted', () => {
    terraform(ROOT, ['fmt', '-check', '-recursive', EXAMPLES]);
  });

  const types = fs.readdirSync(path.join(EXAMPLES, 'resources')).sort();
  it.each(types)(
    'GIVEN the %s example with the provider example WHEN validated THEN terraform accepts it',
    (type) => {
      const dir = path.join(work, type);
      fs.mkdirSync(dir);
      fs.copyFileSync(path.join(EXAMPLES, 'provider', 'provider.tf'), path.join(dir, 'provider.tf'));
      fs.copyFileSync(path.join(EXAMPLES, 'resources', type, 'resource.tf'), path.join(dir, 'resource.tf'));
      terraform(dir, ['init', '-input=false']);
      expect(terraform(dir, ['validate'])).toContain('Success! The configuration is valid.');
    },
    240_000,
  );

  const dataSources = fs.readdirSync(path.join(EXAMPLES, 'data-sources')).sort();
  it.each(dataSources)(
    'GIVEN the %s data source example with the provider example WHEN validated THEN terraform accepts it',
    (type) => {
      const dir = path.join(work, `data.${type}`);
      fs.mkdirSync(dir);
      fs.copyFileSync(path.join(EXAMPLES, 'provider', 'provider.tf'), path.join(dir, 'provider.tf'));
      fs.copyFileSync(path.join(EXAMPLES, 'data-sources', type, 'data-source.tf'), path.join(dir, 'data-source.tf'));
      terraform(dir, ['init', '-input=false']);
      expect(terraform(dir, ['validate'])).toContain('Success! The configuration is valid.');
    },
    240_000,
  );
});
