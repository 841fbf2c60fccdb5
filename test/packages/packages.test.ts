import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { constructSources, requiredPackages, rewriteFrameworkImports } from '../../packages/build/packages';

const ROOT = path.resolve(__dirname, '..', '..');

describe('construct package build', () => {
  it('GIVEN cdktf imports WHEN rewritten for cdktn THEN only module specifiers change', () => {
    const src = [
      "import { App } from 'cdktf';",
      'import * as cdktf from "cdktf";',
      "export { Token } from 'cdktf';",
      "const c = require('cdktf');",
      "import 'cdktf';",
      "import { x } from 'cdktf-cli';",
      "// cdktf invokes aspects; 'cdktf' in prose",
    ].join('\n');
    expect(rewriteFrameworkImports(src, 'cdktn')).toBe(
      [
        "import { App } from 'cdktn';",
        'import * as cdktf from "cdktn";',
        "export { Token } from 'cdktn';",
        "const c = require('cdktn');",
        "import 'cdktn';",
        "import { x } from 'cdktf-cli';",
        "// cdktf invokes aspects; 'cdktf' in prose",
      ].join('\n'),
    );
    expect(rewriteFrameworkImports(src, 'cdktf')).toBe(src);
  });

  it('GIVEN compiled JavaScript THEN its bare package requires are listed, builtins and relative paths not', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-reqs-'));
    try {
      fs.mkdirSync(path.join(dir, 'a'));
      fs.writeFileSync(path.join(dir, 'a', 'x.js'), 'require("yaml"); require("./y"); require("node:fs"); require("path");');
      fs.writeFileSync(path.join(dir, 'z.js'), "const a = () => require('ajv'); require('@scope/pkg/sub'); require(\"cdktf\");");
      fs.writeFileSync(path.join(dir, 'z.d.ts'), "import 'not-a-runtime-dep';");
      expect(requiredPackages(dir)).toEqual(['@scope/pkg', 'ajv', 'cdktf', 'yaml']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("GIVEN a tree of modules THEN the sources are what the compiler would take from constructs/index.ts and what a .ts file's lazy require loads: imports, exports, import(), import = require, require, JSON, not packages nor unreached files", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-sources-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
      fs.writeFileSync(path.join(dir, rel), text);
    };
    try {
      write('constructs/index.ts', "export * from './src/a';\nimport type { T } from '../src/t';\nexport type U = T;\n");
      write(
        'constructs/src/a.ts',
        "import data from './d.json';\nimport b = require('./b');\nexport const a = () => import('./c').then(() => [data, b]);\n",
      );
      write(
        'constructs/src/b.ts',
        "// require('./in-a-comment')\nexport const lazy = () => require('./lazy');\nexport const pkg = () => require('yaml');\n",
      );
      write('constructs/src/c.ts', "export { Construct } from 'constructs';\n");
      write('constructs/src/d.json', '{"x": 1}\n');
      write('constructs/src/lazy.ts', "export const x = require('../../src/lazier');\n");
      write('src/lazier.ts', 'export {};\n');
      write('constructs/src/in-a-comment.ts', 'export {};\n');
      write('constructs/src/unreached.ts', 'export {};\n');
      write('src/t.ts', 'export type T = number;\n');
      expect(constructSources(dir)).toEqual([
        'constructs/index.ts',
        'constructs/src/a.ts',
        'constructs/src/b.ts',
        'constructs/src/c.ts',
        'constructs/src/d.json',
        'constructs/src/lazy.ts',
        'src/lazier.ts',
        'src/t.ts',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('GIVEN this checkout THEN the package sources are what constructs/index.ts reaches, without provider or generated code', () => {
    const files = constructSources(ROOT);
    expect(files).toContain('constructs/index.ts');
    expect(files).toContain('constructs/src/virtual-machine.ts');
    expect(files).toContain('src/seed/index.ts');
    // src/seed/checks/schema.ts's lazy requires: without them an installed package compiles the schemas with ajv.
    expect(files).toEqual(
      expect.arrayContaining(['src/seed/schemas/validators.generated.ts', 'src/seed/schemas/cloud-config.validators.generated.ts']),
    );
    expect(files.filter((f) => f.startsWith('provider/') || f.startsWith('constructs/generated/') || f.startsWith('test/'))).toEqual([]);
  }, 60_000);
});
