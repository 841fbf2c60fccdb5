/**
 * The committed bindings' documentation links point at pages that exist: every `{@link ...}` and header URL in
 * constructs/generated/** is a relative path to a file in this repository, and its `#anchor` is an `<a id>` or a
 * heading of that page. Also the rewrite itself (constructs/scripts/doc-links.ts) on small inputs.
 */
import * as fs from 'fs';
import * as path from 'path';
import { nestedStructPaths, pascalCase, rewriteDocLinks } from '../../../constructs/scripts/doc-links';

const ROOT = path.join(__dirname, '..', '..', '..');
const GENERATED = path.join(ROOT, 'constructs', 'generated');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Anchors of a Markdown page: explicit `<a id>` and GitHub heading slugs. */
function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8');
  const ids = [...text.matchAll(/<a id="([^"]+)"><\/a>/g)].map((m) => m[1]!);
  const headings = [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
    m[1]!
      .toLowerCase()
      .replace(/[^a-z0-9 _-]/g, '')
      .replace(/ /g, '-'),
  );
  return new Set([...ids, ...headings]);
}

describe('documentation links in the generated bindings', () => {
  const files = tsFiles(GENERATED);

  it('GIVEN the committed bindings WHEN scanned THEN no link points at the Terraform Registry', () => {
    const offending = files.filter((f) => fs.readFileSync(f, 'utf8').includes('registry.terraform.io/providers'));
    expect(offending.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('GIVEN every {@link} and header link WHEN resolved from its file THEN the page and the anchor exist', () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const targets = [...text.matchAll(/\{@link (\S+)/g), ...text.matchAll(/^\/\/ (\.\.\/\S+)$/gm)].map((m) => m[1]!);
      for (const target of targets) {
        if (!target.includes('/')) continue; // {@link SomeSymbol}
        count++;
        const [rel, anchor] = target.split('#') as [string, string | undefined];
        const page = path.resolve(path.dirname(file), rel);
        const where = `${path.relative(ROOT, file)}: ${target}`;
        if (!fs.existsSync(page)) broken.push(`${where} (no such file)`);
        else if (anchor && !anchorsOf(page).has(anchor)) broken.push(`${where} (no anchor #${anchor} in ${path.relative(ROOT, page)})`);
      }
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(50);
  });
});

describe('rewriteDocLinks', () => {
  const structs = nestedStructPaths({
    virtseed_cloudinit_seed: { block: { block_types: { network: { block: { block_types: { interface: { block: {} } } } } } } },
  });

  it('GIVEN nested blocks WHEN mapped THEN struct names carry their block paths', () => {
    expect([...structs]).toEqual([
      ['CloudinitSeedNetwork', 'network'],
      ['CloudinitSeedNetworkInterface', 'network.interface'],
    ]);
    expect(pascalCase('user_data_part')).toBe('UserDataPart');
  });

  it('GIVEN registry links at the top level, in a nested struct and for import WHEN rewritten THEN they are relative page links with the page anchors', () => {
    const base = 'https://registry.terraform.io/providers/virtseed/virtseed/0.1.0/docs';
    const source = [
      `// ${base}/resources/cloudinit_seed`,
      'export interface CloudinitSeedConfig {',
      `  * Docs at Terraform Registry: {@link ${base}/resources/cloudinit_seed#hostname CloudinitSeed#hostname}`,
      'export interface CloudinitSeedNetworkInterface {',
      `  * Docs at Terraform Registry: {@link ${base}/resources/cloudinit_seed#mtu CloudinitSeed#mtu}`,
      'export class CloudinitSeed extends cdktf.TerraformResource {',
      `  * Refer to the {@link ${base}/resources/cloudinit_seed#import import section}`,
      `  * {@link ${base}#uri VirtseedProvider#uri}`,
    ].join('\n');
    expect(rewriteDocLinks(source, '../../../..', structs).split('\n')).toEqual([
      '// ../../../../docs/resources/cloudinit_seed.md',
      'export interface CloudinitSeedConfig {',
      '  * Docs: {@link ../../../../docs/resources/cloudinit_seed.md#hostname CloudinitSeed#hostname}',
      'export interface CloudinitSeedNetworkInterface {',
      '  * Docs: {@link ../../../../docs/resources/cloudinit_seed.md#network.interface.mtu CloudinitSeed#mtu}',
      'export class CloudinitSeed extends cdktf.TerraformResource {',
      '  * Refer to the {@link ../../../../docs/resources/cloudinit_seed.md#import import section}',
      '  * {@link ../../../../docs/index.md#uri VirtseedProvider#uri}',
    ]);
  });
});
