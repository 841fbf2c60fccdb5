/** buildSeedIso / tryBuildSeedIso: validation and the ISO share one rendering. */
import { buildSeedIso, tryBuildSeedIso, validateSeed, type SeedSpec } from '../../src/seed';
import * as content from '../../src/seed/content';

jest.mock('../../src/seed/content', () => {
  const actual = jest.requireActual<typeof import('../../src/seed/content')>('../../src/seed/content');
  return { ...actual, seedContent: jest.fn(actual.seedContent) };
});
const renders = content.seedContent as jest.MockedFunction<typeof content.seedContent>;

const WARNS: SeedSpec = { hostname: 'vm', user_data: '#cloud-config\npackages: [b]\n', cloud_config: { packages: ['a'] } };
const BAD: SeedSpec = { hostname: 'vm', user_data: '#cloud-config\nusers:\n  - name: x\n    inactive: true\n' };

beforeEach(() => renders.mockClear());

describe('tryBuildSeedIso', () => {
  it('GIVEN a spec with warnings WHEN built THEN its content is rendered once for the checks and the ISO together', () => {
    tryBuildSeedIso(WARNS);
    expect(renders).toHaveBeenCalledTimes(1);
  });

  it('GIVEN a spec with warnings WHEN built THEN it gives validateSeed’s diagnostics and buildSeedIso’s image', () => {
    const { diagnostics, built } = tryBuildSeedIso(WARNS);
    expect(diagnostics.map((d) => d.summary)).toEqual(['User-data re-rendered by a merge']);
    expect(diagnostics).toEqual(validateSeed(WARNS, { requireLoadedSources: true }));
    expect(built && Buffer.from(built.iso).equals(Buffer.from(buildSeedIso(WARNS).iso))).toBe(true);
  });

  it('GIVEN a spec with an error WHEN built THEN there is no image and the diagnostics are validateSeed’s', () => {
    const result = tryBuildSeedIso(BAD);
    expect(result.built).toBeUndefined();
    expect(result.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    expect(result.diagnostics).toEqual(validateSeed(BAD, { requireLoadedSources: true }));
  });

  it('GIVEN a file source not yet loaded WHEN built THEN it is an error on that source, not an image', () => {
    const { diagnostics, built } = tryBuildSeedIso({ files: [{ path: '/a', source: 'a.txt' }] });
    expect([built, diagnostics.map((d) => [d.summary, d.path])]).toEqual([undefined, [['File source not loaded', ['files', 0, 'source']]]]);
  });
});
