import * as fs from 'node:fs';
import * as path from 'node:path';
import { installBlock, installPaths } from '../../packages/build/install-paths';

const README = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');

describe('installPaths', () => {
  it("GIVEN the README WHEN its install paths are read THEN each starts from the framework's init, installs the packages, the provider, and deploys with the lock step skipped", () => {
    const paths = installPaths(README);
    expect(paths.cdktf).toEqual([
      expect.stringMatching(/^npx --yes cdktf-cli@0\.21 init --template typescript --local /),
      'npm install --save-dev typescript@5',
      'npm install virtseed @virtseed/cdktf',
      'npm install --save-dev cdktf-cli@0.21',
      'npx virtseed provider install',
      expect.stringMatching(/^npx cdktf deploy .*--skip-provider-lock/),
    ]);
    expect(paths.cdktn[0]).toMatch(/^npx --yes cdktn-cli@0\.24 init --template typescript --local /);
    expect(paths.cdktn).toEqual(
      expect.arrayContaining([
        'npm install virtseed @virtseed/cdktn',
        'npm install --save-dev cdktn-cli@0.24',
        expect.stringMatching(/^npx cdktn deploy .*--skip-provider-lock/),
      ]),
    );
    expect(paths.hcl).toEqual(expect.arrayContaining(['npx virtseed provider install', 'terraform init']));
  });

  it('GIVEN a block with comments WHEN read THEN comment lines and trailing comments are left out', () => {
    const text = ['cdktf', 'cdktn', 'hcl']
      .map((n) => `<!-- install-path: ${n} -->\n\`\`\`sh\n# say\nnpm install x   # why\n\n\`\`\`\n`)
      .join('');
    expect(installPaths(text).hcl).toEqual(['npm install x']);
    expect(installBlock(text, 'cdktf')).toBe('```sh\nnpm install x\n```');
  });

  it('GIVEN a README without one of the paths WHEN read THEN the error names it', () => {
    expect(() => installPaths('<!-- install-path: cdktf -->\n```sh\nx\n```\n')).toThrow(/no install path "cdktn"/);
  });
});
