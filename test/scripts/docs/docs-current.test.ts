/**
 * The committed provider docs (docs/index.md, docs/resources/*.md, docs/data-sources/*.md) are exactly what `npm run docs` generates from
 * the schema the provider serves, and that schema documents every attribute and block. New resources and
 * attributes are caught here: add a description, an example under examples/hcl/, and run `npm run docs`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { committedDocs, driftedFiles, expectedDocs, importableTypes, repoRoot, servedSchema } from '../../../scripts/docs/generate';
import { undocumented } from '../../../scripts/docs/render';

const root = repoRoot();

describe('provider docs', () => {
  it('GIVEN the served schema and examples/hcl WHEN the docs are generated THEN they equal the committed docs', async () => {
    const expected = await expectedDocs(root);
    const drifted = driftedFiles(expected, committedDocs(root));
    if (drifted.length) throw new Error(`docs are out of date (run \`npm run docs\` and commit): ${drifted.join(', ')}`);
    expect(expected.size).toBeGreaterThanOrEqual(2);
  });

  it('GIVEN the provider schema WHEN walked THEN every attribute and block of the provider, resources and data sources has a description', async () => {
    const schema = await servedSchema();
    const missing: string[] = [];
    const walk = (label: string, block: Parameters<typeof undocumented>[0]) => {
      if (!block.description?.trim()) missing.push(`${label} (its own description)`);
      missing.push(...undocumented(block).map((p) => `${label}.${p}`));
    };
    walk('provider', schema.provider.block);
    for (const [type, s] of Object.entries(schema.resource_schemas)) walk(type, s.block);
    for (const [type, s] of Object.entries(schema.data_source_schemas ?? {})) walk(`data.${type}`, s.block);
    expect(missing).toEqual([]);
    expect(Object.keys(schema.resource_schemas).length).toBeGreaterThan(0);
  });

  it('GIVEN each resource type and data source WHEN its examples are looked up THEN resource.tf (data-source.tf) exists, and import.sh exactly when the type can be imported', async () => {
    const schema = await servedSchema();
    const importable = importableTypes();
    const problems: string[] = [];
    for (const type of Object.keys(schema.resource_schemas)) {
      const dir = path.join(root, 'examples', 'hcl', 'resources', type);
      if (!fs.existsSync(path.join(dir, 'resource.tf'))) problems.push(`missing ${path.relative(root, dir)}/resource.tf`);
      const hasImport = fs.existsSync(path.join(dir, 'import.sh'));
      if (importable.has(type) && !hasImport) problems.push(`${type} can be imported: add ${path.relative(root, dir)}/import.sh`);
      if (!importable.has(type) && hasImport) problems.push(`${type} cannot be imported: remove ${path.relative(root, dir)}/import.sh`);
    }
    for (const type of Object.keys(schema.data_source_schemas ?? {})) {
      const file = path.join('examples', 'hcl', 'data-sources', type, 'data-source.tf');
      if (!fs.existsSync(path.join(root, file))) problems.push(`missing ${file}`);
    }
    const dirs = fs.readdirSync(path.join(root, 'examples', 'hcl', 'resources'));
    for (const d of dirs)
      if (!(d in schema.resource_schemas)) problems.push(`examples/hcl/resources/${d} is not a resource type of the provider`);
    const dataDirs = fs.readdirSync(path.join(root, 'examples', 'hcl', 'data-sources'));
    for (const d of dataDirs)
      if (!(d in (schema.data_source_schemas ?? {}))) problems.push(`examples/hcl/data-sources/${d} is not a data source of the provider`);
    expect(problems).toEqual([]);
  });
});
