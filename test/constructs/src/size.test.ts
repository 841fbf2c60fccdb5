import { Size } from '../../../constructs/src/size';

describe('Size', () => {
  test('GIVEN 10 GiB WHEN converted to bytes THEN it is 10 * 1024^3', () => {
    expect(Size.gibibytes(10).toBytes()).toBe(10737418240);
  });

  test('GIVEN 1536 MiB WHEN converted to MiB THEN it is 1536', () => {
    expect(Size.mebibytes(1536).toMebibytes()).toBe(1536);
  });

  test('GIVEN a negative amount WHEN a size is made THEN it throws', () => {
    expect(() => Size.gibibytes(-1)).toThrow(/invalid amount -1/);
  });
});
