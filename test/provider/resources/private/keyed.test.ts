/** The per-resource key and keyed digests of write-only inputs (provider/src/resources/private/keyed.ts). */
import { createHmac } from 'node:crypto';
import { keyedDigest, keyedInstanceId, keyFor, keyOf, privateWithKey } from '../../../../provider/src/resources/private/keyed';

const KEY = Buffer.alloc(32, 7);

describe('private state key', () => {
  test('GIVEN a key WHEN stored in a private state and read back THEN it is the same, other keys kept', () => {
    const priv = privateWithKey(Buffer.from('{"other":1}'), KEY);
    expect(keyOf(priv)?.equals(KEY)).toBe(true);
    expect(JSON.parse(priv.toString('utf8'))).toMatchObject({ other: 1 });
  });

  test.each([undefined, Buffer.alloc(0), Buffer.from('not json'), Buffer.from('{"hmac_key":"c2hvcnQ="}')])(
    'GIVEN a private state without a valid key (%p) WHEN read THEN there is none, and keyFor makes a new random one',
    (priv) => {
      expect(keyOf(priv)).toBeUndefined();
      const a = keyFor(priv);
      expect(a).toHaveLength(32);
      expect(keyFor(priv).equals(a)).toBe(false);
    },
  );
});

describe('keyed digests', () => {
  test('GIVEN bytes WHEN digested THEN the value is the HMAC-SHA256 under the key, and another key gives another', () => {
    const bytes = Buffer.from('password: hunter2');
    expect(keyedDigest(KEY, bytes)).toBe(`hmac-sha256:${createHmac('sha256', KEY).update(bytes).digest('hex')}`);
    expect(keyedDigest(Buffer.alloc(32, 8), bytes)).not.toBe(keyedDigest(KEY, bytes));
  });

  test('GIVEN content ids WHEN keyed THEN the id has the prefix and 16 hex digits, changes with the content and the key', () => {
    const id = keyedInstanceId('iid-', KEY, 'iid-0123456789abcdef');
    expect(id).toMatch(/^iid-[0-9a-f]{16}$/);
    expect(keyedInstanceId('iid-', KEY, 'iid-0123456789abcdef')).toBe(id);
    expect(keyedInstanceId('iid-', KEY, 'iid-fedcba9876543210')).not.toBe(id);
    expect(keyedInstanceId('iid-', Buffer.alloc(32, 9), 'iid-0123456789abcdef')).not.toBe(id);
  });
});
