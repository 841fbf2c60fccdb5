/**
 * `npm run docs` (first step; typedoc writes docs/constructs next): regenerates the registry-layout provider docs
 * (docs/index.md, docs/resources/*.md, docs/data-sources/*.md) from the schema the provider serves
 * (GetProviderSchema of the handlers in provider/src/registry.ts) plus templates/index.md.tmpl and the examples
 * under examples/hcl/.
 *
 *   tsx scripts/docs/generate.ts [--check]
 *
 * --check  write nothing; exit 1 listing the files that differ from what would be generated.
 *
 * Example files: examples/hcl/provider/provider.tf, examples/hcl/resources/<type>/resource.tf and, for types
 * that can be imported, examples/hcl/resources/<type>/import.sh; examples/hcl/data-sources/<type>/data-source.tf.
 */
import * as fs from 'fs';
import * as path from 'path';
import { PROVIDER_SCHEMA } from '../../provider/src/config';
import { LibvirtProviderServer } from '../../provider/src/hosting';
import { dataSourceHandlers, resourceHandlers } from '../../provider/src/registry';
import { renderDocs, type ProviderSchemaResponse, type ResourceExamples } from './render';

export const PROVIDER_NAME = 'virtseed';

/** The repository root (the directory with package.json above this file, from source or from dist/). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'templates'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

/** The provider's schema exactly as its GetProviderSchema RPC returns it. */
export async function servedSchema(): Promise<ProviderSchemaResponse> {
  const server = new LibvirtProviderServer({
    providerSchema: PROVIDER_SCHEMA,
    resources: resourceHandlers(),
    dataSources: dataSourceHandlers(),
  });
  return server.GetProviderSchema();
}

/** Resource types whose handler supports `terraform import`. */
export function importableTypes(): Set<string> {
  return new Set(
    resourceHandlers()
      .filter((h) => typeof h.importState === 'function')
      .map((h) => h.typeName),
  );
}

function readIfExists(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** What the docs should contain: file contents by path relative to `root`. */
export async function expectedDocs(root: string = repoRoot()): Promise<Map<string, string>> {
  const schema = await servedSchema();
  const examples: Record<string, ResourceExamples> = {};
  for (const type of Object.keys(schema.resource_schemas)) {
    const dir = path.join(root, 'examples', 'hcl', 'resources', type);
    const resource = readIfExists(path.join(dir, 'resource.tf'));
    const importScript = readIfExists(path.join(dir, 'import.sh'));
    examples[type] = { ...(resource !== undefined ? { resource } : {}), ...(importScript !== undefined ? { importScript } : {}) };
  }
  const dataSourceExamples: Record<string, string> = {};
  for (const type of Object.keys(schema.data_source_schemas ?? {})) {
    const example = readIfExists(path.join(root, 'examples', 'hcl', 'data-sources', type, 'data-source.tf'));
    if (example !== undefined) dataSourceExamples[type] = example;
  }
  const providerExample = readIfExists(path.join(root, 'examples', 'hcl', 'provider', 'provider.tf'));
  return renderDocs({
    providerName: PROVIDER_NAME,
    schema,
    indexTemplate: fs.readFileSync(path.join(root, 'templates', 'index.md.tmpl'), 'utf8'),
    ...(providerExample !== undefined ? { providerExample } : {}),
    examples,
    dataSourceExamples,
    importable: importableTypes(),
  });
}

/** Generated files currently on disk (docs/index.md, docs/resources/*.md, docs/data-sources/*.md), by path
 *  relative to `root`. */
export function committedDocs(root: string = repoRoot()): Map<string, string> {
  const out = new Map<string, string>();
  const index = path.join(root, 'docs', 'index.md');
  if (fs.existsSync(index)) out.set('docs/index.md', fs.readFileSync(index, 'utf8'));
  for (const sub of ['resources', 'data-sources']) {
    const dir = path.join(root, 'docs', sub);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) out.set(`docs/${sub}/${f}`, fs.readFileSync(path.join(dir, f), 'utf8'));
  }
  return out;
}

/** Paths whose committed content differs from the expected (missing, stale or extra files). */
export function driftedFiles(expected: Map<string, string>, committed: Map<string, string>): string[] {
  const paths = new Set([...expected.keys(), ...committed.keys()]);
  return [...paths].filter((p) => expected.get(p) !== committed.get(p)).sort();
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const root = repoRoot();
  const expected = await expectedDocs(root);
  const drifted = driftedFiles(expected, committedDocs(root));
  if (check) {
    if (drifted.length) {
      process.stderr.write(`docs: out of date (run \`npm run docs\`): ${drifted.join(', ')}\n`);
      process.exit(1);
    }
    return;
  }
  for (const p of drifted) {
    const file = path.join(root, p);
    const content = expected.get(p);
    if (content === undefined) fs.rmSync(file);
    else {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
    }
  }
  process.stderr.write(`docs: ${expected.size} files, ${drifted.length} updated\n`);
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`docs: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
}
