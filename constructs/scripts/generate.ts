/**
 * `npm run generate`: regenerates constructs/generated/ from the installed virtseed provider's schema.
 *
 *   node dist/constructs/scripts/generate.js [--schema FILE] [--out DIR]
 *
 * --schema FILE  generate from a schema JSON (output of `terraform providers schema -json`) instead of asking
 *                Terraform; e.g. test/constructs/fixtures/provider-schema.json
 * --out DIR      write there instead of constructs/generated/
 */
import * as fs from 'fs';
import * as path from 'path';
import { generateBindings } from './bindings';
import { readProviderSchemaFromFile, readProviderSchemaFromTerraform } from './schema';

interface Args {
  schema?: string;
  out: string;
}

function repoRoot(): string {
  // Works from constructs/scripts (tsx) and dist/constructs/scripts (compiled).
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, 'package.json')) || !fs.existsSync(path.join(dir, 'constructs'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`cannot find the repository root above ${__dirname}`);
    dir = parent;
  }
  return dir;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { out: path.join(repoRoot(), 'constructs', 'generated') };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--schema' || flag === '--out') && value !== undefined) {
      args[flag === '--schema' ? 'schema' : 'out'] = path.resolve(value);
      i++;
    } else {
      throw new Error(`unknown or incomplete argument '${flag}'; usage: generate [--schema FILE] [--out DIR]`);
    }
  }
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const schema = args.schema ? readProviderSchemaFromFile(args.schema) : readProviderSchemaFromTerraform();
  const files = await generateBindings(schema, args.out);
  process.stderr.write(`generate: wrote ${files.length} files to ${args.out}\n`);
}

main().catch((e: Error) => {
  process.stderr.write(`generate: ${e.message}\n`);
  process.exit(1);
});
