import * as fs from 'fs';
import * as path from 'path';
import { adaptToNoImplicitOverride, GENERATED_HEADER, listFiles } from '../../../constructs/scripts/bindings';

const GENERATED = path.join(__dirname, '..', '..', '..', 'constructs', 'generated');

describe('constructs/generated', () => {
  test('GIVEN the committed bindings WHEN each file is read THEN its first line is the generated-file header', () => {
    const files = listFiles(GENERATED);
    expect(files.length).toBeGreaterThan(0);
    const withoutHeader = files.filter((f) => fs.readFileSync(path.join(GENERATED, f), 'utf8').split('\n')[0] !== GENERATED_HEADER);
    expect(withoutHeader).toEqual([]);
  });

  test('GIVEN the committed bindings WHEN listed THEN there is one module per virtseed resource and the provider', () => {
    expect(listFiles(GENERATED)).toEqual(
      expect.arrayContaining([
        'virtseed/index.ts',
        'virtseed/provider/index.ts',
        'virtseed/volume/index.ts',
        'virtseed/cloudinit-seed/index.ts',
        'virtseed/ignition/index.ts',
        'virtseed/domain/index.ts',
      ]),
    );
  });
});

describe('adaptToNoImplicitOverride', () => {
  test('GIVEN a generated resource method overriding the base class WHEN adapted THEN it gets the override keyword', () => {
    const out = adaptToNoImplicitOverride('  protected synthesizeAttributes(): { [name: string]: any } {');
    expect(out).toBe('  protected override synthesizeAttributes(): { [name: string]: any } {');
  });

  test('GIVEN code without overrides WHEN adapted THEN it is unchanged', () => {
    const src = 'export class X { public get name() { return 1; } }';
    expect(adaptToNoImplicitOverride(src)).toBe(src);
  });
});
