import { docCommands } from '../helpers/doc-paths';

describe('docCommands', () => {
  test('GIVEN an indented marked block with comments WHEN read THEN its commands, without comments', () => {
    const md = '4. Then:\n   <!-- path: step -->\n   ```sh\n   # say\n   npm install a b   # why\n\n   npx x y\n   ```\n';
    expect(docCommands(md, 'step')).toEqual(['npm install a b', 'npx x y']);
  });

  test('GIVEN no such block WHEN read THEN the error names the path and the document', () => {
    expect(() => docCommands('```sh\nx\n```', 'step', 'guide.md')).toThrow('guide.md has no `<!-- path: step -->` line');
  });
});
