/**
 * The generated bindings link every class and property to "Docs at Terraform Registry"
 * (`https://registry.terraform.io/providers/<source>/<version>/docs[/resources/<name>][#anchor]`), pages that do
 * not exist for a provider that is not published there. This rewrites those links to the registry-layout docs in
 * this repository and package (docs/index.md, docs/resources/<name>.md, docs/data-sources/<name>.md, written by
 * `npm run docs`), as paths
 * relative to the generated file, with the anchors those pages carry: `#<attr>` at the top level and
 * `#<block>.<path>.<attr>` for attributes of nested blocks (found from the interface the link sits in).
 */
import { PROVIDER_NAME, PROVIDER_SOURCE, PROVIDER_VERSION } from './schema';

const REGISTRY_DOCS = `https://registry.terraform.io/providers/${PROVIDER_SOURCE}/${PROVIDER_VERSION}/docs`;

/** A block of `terraform providers schema -json` (only what the rewrite needs). */
interface JsonBlock {
  block_types?: Record<string, { block: JsonBlock }>;
}

/** The PascalCase name cdktf gives a snake_case schema name (`cloudinit_seed` -> `CloudinitSeed`). */
export function pascalCase(name: string): string {
  return name
    .split(/[_-]/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
}

/**
 * Nested-block struct names of a resource's bindings (`CloudinitSeedNetworkInterface`) and their block paths
 * (`network.interface`), for every nested block of every resource, and of the provider block when given
 * (`VirtseedProviderHost` → `host`).
 */
export function nestedStructPaths(resources: Record<string, { block: JsonBlock }>, provider?: { block: JsonBlock }): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (structPrefix: string, block: JsonBlock, path: string[]): void => {
    for (const [name, nested] of Object.entries(block.block_types ?? {})) {
      const struct = structPrefix + pascalCase(name);
      const p = [...path, name];
      out.set(struct, p.join('.'));
      walk(struct, nested.block, p);
    }
  };
  for (const [type, schema] of Object.entries(resources)) {
    walk(pascalCase(type.startsWith(`${PROVIDER_NAME}_`) ? type.slice(PROVIDER_NAME.length + 1) : type), schema.block, []);
  }
  if (provider) walk(`${pascalCase(PROVIDER_NAME)}Provider`, provider.block, []);
  return out;
}

/**
 * Rewrites the registry links in one generated file.
 * @param source the file's text
 * @param toRepoRoot relative path from the file's directory (where it is committed) to the repository root,
 *   e.g. `../../../..` for constructs/generated/virtseed/volume/index.ts
 * @param structs result of {@link nestedStructPaths}
 */
export function rewriteDocLinks(source: string, toRepoRoot: string, structs: ReadonlyMap<string, string>): string {
  const pattern = new RegExp(`${escapeRegExp(REGISTRY_DOCS)}(/(?:resources|data-sources)/[a-z0-9_]+)?(#[A-Za-z0-9_]+)?`, 'g');
  let struct = '';
  return source
    .split('\n')
    .map((line) => {
      const decl = /^export (?:interface|class) (\w+)/.exec(line);
      if (decl) struct = decl[1]!.replace(/OutputReference$|List$/, '');
      return line
        .replace('Docs at Terraform Registry: ', 'Docs: ')
        .replace(pattern, (_m, resource: string | undefined, anchor: string | undefined) => {
          const page = resource ? `docs${resource}.md` : 'docs/index.md';
          const blockPath = structs.get(struct);
          // A data source page has no Import section (data sources are read, never imported): link the page.
          if (anchor === '#import' && resource?.startsWith('/data-sources/')) anchor = undefined;
          const a = anchor && anchor !== '#import' && blockPath ? `#${blockPath}.${anchor.slice(1)}` : (anchor ?? '');
          return `${toRepoRoot}/${page}${a}`;
        });
    })
    .join('\n');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
