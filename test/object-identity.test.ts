/** validateNameAndUuid (src/object-identity.ts): the name and UUID rules pool and network specs share. */
import { validateNameAndUuid } from '../src/object-identity';

describe('validateNameAndUuid', () => {
  it('GIVEN a name at the maximum length and a UUID WHEN validated THEN there is no problem', () => {
    expect(validateNameAndUuid({ name: 'a'.repeat(63), uuid: '0f8fad5b-d9cb-469f-a165-70867728950e' }, 'pool', 63)).toEqual([]);
  });

  it('GIVEN a name one longer than the maximum WHEN validated THEN the error names the kind and the length', () => {
    expect(validateNameAndUuid({ name: 'a'.repeat(65) }, 'network', 64)).toEqual([
      expect.objectContaining({ path: ['name'], summary: 'Invalid network name', detail: expect.stringContaining('use 1-64 letters') }),
    ]);
  });

  it('GIVEN a name starting with a dot and a malformed UUID WHEN validated THEN both are errors', () => {
    expect(validateNameAndUuid({ name: '.a', uuid: 'not-a-uuid' }, 'pool', 63).map((d) => d.path)).toEqual([['name'], ['uuid']]);
  });
});
