import { docBlock, docCommands } from '../helpers/doc-paths';

describe('docCommands', () => {
  test('GIVEN an indented marked block with comments WHEN read THEN its commands, without comments', () => {
    const md = '4. Then:\n   <!-- path: step -->\n   ```sh\n   # say\n   npm install a b   # why\n\n   npx x y\n   ```\n';
    expect(docCommands(md, 'step')).toEqual(['npm install a b', 'npx x y']);
  });

  test('GIVEN no such block WHEN read THEN the error names the path and the document', () => {
    expect(() => docCommands('```sh\nx\n```', 'step', 'guide.md')).toThrow('guide.md has no `<!-- path: step -->` line');
  });
});

describe('docBlock', () => {
  test('GIVEN an indented marked hcl block WHEN read THEN its text as written, comments kept, indentation of the fence removed', () => {
    const md = '1. Write:\n   <!-- path: hosts -->\n   ```hcl\n   provider "x" {\n     uri = "a" # default\n   }\n   ```\n';
    expect(docBlock(md, 'hosts', 'hcl')).toBe('provider "x" {\n  uri = "a" # default\n}');
  });

  test('GIVEN a marked block of another language WHEN read as hcl THEN the error names the path, the language and the document', () => {
    expect(() => docBlock('<!-- path: hosts -->\n```sh\nx\n```', 'hosts', 'hcl', 'fleet.md')).toThrow(
      'fleet.md has no `<!-- path: hosts -->` line before a ```hcl block',
    );
  });
});
