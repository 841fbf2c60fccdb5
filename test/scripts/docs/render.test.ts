/** The registry-layout docs renderer (scripts/docs/render.ts) on a small schema built with the provider's own types. */
import { t } from '../../../provider/src/plugin/cty';
import { toProtoSchema, type ResourceSchema } from '../../../provider/src/plugin/schema';
import { pageName, renderDocs, typeName, undocumented, type ProviderSchemaResponse } from '../../../scripts/docs/render';

const PROVIDER: ResourceSchema = {
  version: 0,
  description: 'Test provider.',
  attributes: { uri: { type: t.string, optional: true, description: 'Where.' } },
};
const THING: ResourceSchema = {
  version: 0,
  description: 'A thing.',
  attributes: {
    name: { type: t.string, required: true, description: 'Name.' },
    labels: { type: t.map(t.string), optional: true, sensitive: true, description: 'Labels.' },
    size: { type: t.number, optional: true, computed: true, description: 'Size in bytes.' },
    id: { type: t.string, computed: true, description: 'Id.' },
  },
  blocks: {
    disk: {
      nesting: 'list',
      minItems: 1,
      block: {
        description: 'A disk.',
        attributes: { label: { type: t.string, required: true, description: 'Label.' }, serial: { type: t.string, computed: true } },
        blocks: { part: { nesting: 'single', block: { attributes: { n: { type: t.number, optional: true, description: 'N.' } } } } },
      },
    },
  },
};

function schema(): ProviderSchemaResponse {
  return {
    provider: toProtoSchema(PROVIDER),
    resource_schemas: { test_thing: toProtoSchema(THING) },
  };
}

function render(importable: boolean) {
  return renderDocs({
    providerName: 'test',
    schema: schema(),
    indexTemplate: '# test Provider\n\n{{example}}\n\n{{schema}}\n\n{{resources}}\n',
    providerExample: 'provider "test" {}\n',
    examples: { test_thing: { resource: 'resource "test_thing" "a" {}\n', importScript: 'terraform import test_thing.a x\n' } },
    importable: new Set(importable ? ['test_thing'] : []),
  });
}

describe('renderDocs', () => {
  it('GIVEN a provider with one resource WHEN rendered THEN docs/index.md and docs/resources/<name>.md exist', () => {
    expect([...render(true).keys()]).toEqual(['docs/index.md', 'docs/resources/thing.md']);
  });

  it('GIVEN the index template WHEN rendered THEN the placeholders hold the example, the schema and links to the resource pages', () => {
    const index = render(true).get('docs/index.md')!;
    expect(index).toMatch(/^---\npage_title: "test Provider"\nsubcategory: ""\ndescription: \|-\n {2}Test provider\.\n---\n/);
    expect(index).toContain('```terraform\nprovider "test" {}\n```');
    expect(index).toContain('### Optional\n\n- <a id="uri"></a>`uri` (String) Where.\n');
    expect(index).toContain('- [`test_thing`](resources/thing.md)');
    expect(index).not.toContain('{{');
  });

  it('GIVEN required, optional, optional+computed and computed attributes WHEN rendered THEN each is in its group with type and flags', () => {
    const page = render(true).get('docs/resources/thing.md')!;
    const section = (heading: string) => page.split(heading)[1]!.split(/\n#{2,3} /)[0]!;
    expect(section('### Required\n')).toBe(
      '\n- <a id="disk"></a>`disk` (Block List, Min: 1) A disk. (see [below for nested schema](#nestedblock--disk))\n- <a id="name"></a>`name` (String) Name.\n',
    );
    expect(section('### Optional\n')).toBe(
      '\n- <a id="labels"></a>`labels` (Map of String, Sensitive) Labels.\n- <a id="size"></a>`size` (Number, computed when not set) Size in bytes.\n',
    );
    expect(section('### Read-Only\n')).toBe('\n- <a id="id"></a>`id` (String) Id.\n\n<a id="nestedblock--disk"></a>');
  });

  it('GIVEN nested blocks WHEN rendered THEN each has a section with dotted anchors for its attributes', () => {
    const page = render(true).get('docs/resources/thing.md')!;
    expect(page).toContain(
      '<a id="nestedblock--disk"></a>\n### Nested Schema for `disk`\n\nA disk.\n\nRequired:\n\n- <a id="disk.label"></a>`label` (String) Label.\n',
    );
    expect(page).toContain('Read-Only:\n\n- <a id="disk.serial"></a>`serial` (String)\n');
    expect(page).toContain('- <a id="disk.part"></a>`part` (Block) (see [below for nested schema](#nestedblock--disk--part))');
    expect(page).toContain(
      '<a id="nestedblock--disk--part"></a>\n### Nested Schema for `disk.part`\n\nOptional:\n\n- <a id="disk.part.n"></a>`n` (Number) N.\n',
    );
  });

  it('GIVEN an importable type with import.sh WHEN rendered THEN the Import section shows the script', () => {
    const page = render(true).get('docs/resources/thing.md')!;
    expect(page).toContain('## Example Usage\n\n```terraform\nresource "test_thing" "a" {}\n```\n');
    expect(page).toMatch(
      /<a id="import"><\/a>\n## Import\n\nImport is supported using the following syntax:\n\n```shell\nterraform import test_thing.a x\n```\n$/,
    );
  });

  it('GIVEN a type that cannot be imported WHEN rendered THEN the Import section says so', () => {
    expect(render(false).get('docs/resources/thing.md')).toMatch(
      /## Import\n\n`test_thing` cannot be imported: create it with Terraform\.\n$/,
    );
  });

  it('GIVEN a template without {{schema}} WHEN rendered THEN it throws', () => {
    expect(() => renderDocs({ providerName: 'test', schema: schema(), indexTemplate: '# x', examples: {}, importable: new Set() })).toThrow(
      /\{\{schema\}\}/,
    );
  });
});

describe('undocumented', () => {
  it('GIVEN attributes and blocks without description WHEN walked THEN their dotted paths are listed', () => {
    expect(undocumented(schema().resource_schemas.test_thing!.block)).toEqual(['disk.serial', 'disk.part']);
  });
});

describe('typeName / pageName', () => {
  it('GIVEN cty type JSON WHEN named THEN the registry names are used', () => {
    expect([
      typeName('string'),
      typeName('bool'),
      typeName(['list', 'string']),
      typeName(['map', ['set', 'number']]),
      typeName(['object', {}]),
    ]).toEqual(['String', 'Boolean', 'List of String', 'Map of Set of Number', 'Object']);
    expect(() => typeName('nope')).toThrow(/not a cty type/);
  });

  it('GIVEN a type name WHEN paged THEN the provider prefix is dropped', () => {
    expect(pageName('virtseed', 'virtseed_cloudinit_seed')).toBe('cloudinit_seed');
  });
});

describe('renderDocs with data sources', () => {
  it('GIVEN a data source WHEN rendered THEN docs/data-sources/<name>.md has its example, arguments and attributes', () => {
    const files = renderDocs({
      providerName: 'test',
      schema: {
        ...schema(),
        data_source_schemas: {
          test_lookup: toProtoSchema({
            version: 0,
            description: 'Looks up.',
            attributes: {
              name: { type: t.string, required: true, description: 'Name.' },
              id: { type: t.string, computed: true, description: 'Id.' },
            },
          }),
        },
      },
      indexTemplate: '{{schema}}',
      examples: {},
      dataSourceExamples: { test_lookup: 'data "test_lookup" "a" { name = "x" }\n' },
      importable: new Set(),
    });
    const page = files.get('docs/data-sources/lookup.md')!;
    expect(page).toContain(
      '# test_lookup (Data Source)\n\nLooks up.\n\n## Example Usage\n\n```terraform\ndata "test_lookup" "a" { name = "x" }\n```\n',
    );
    expect(page).toContain('### Required\n\n- <a id="name"></a>`name` (String) Name.\n');
    expect(page).toMatch(/### Read-Only\n\n- <a id="id"><\/a>`id` \(String\) Id\.\n$/);
  });

  it('GIVEN data sources and an index template with {{data_sources}} WHEN rendered THEN the index links each data source page', () => {
    const files = renderDocs({
      providerName: 'test',
      schema: {
        ...schema(),
        data_source_schemas: {
          test_lookup: toProtoSchema({
            version: 0,
            attributes: { name: { type: t.string, required: true, description: 'Name.' } },
          }) as never,
        },
      },
      indexTemplate: '{{schema}}\n\n{{resources}}\n\n{{data_sources}}\n',
      examples: {},
      importable: new Set(),
    });
    expect(files.get('docs/index.md')).toContain('- [`test_thing`](resources/thing.md)\n\n- [`test_lookup`](data-sources/lookup.md)\n');
    expect(files.get('docs/data-sources/lookup.md')).toContain('This data source exports no attributes beyond its arguments.');
  });
});
