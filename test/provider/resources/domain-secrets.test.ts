/** The domain's write-only display passwords (provider/src/resources/private/domain-secrets.ts): digests, the
 *  compared view, and the passwords an apply gives libvirt but not the state. */
import {
  comparable,
  hasWriteOnlyPassword,
  passwordTwinDiagnostics,
  withConfigPasswords,
  withoutConfigPasswords,
  withPasswordDigests,
} from '../../../provider/src/resources/private/domain-secrets';
import { keyedDigest } from '../../../provider/src/resources/private/keyed';
import type { DomainState } from '../../../provider/src/resources/private/model';
import { UNKNOWN } from '../../../provider/src/resources/private/values';

const KEY = Buffer.alloc(32, 7);
const display = (over: Record<string, unknown> = {}) => ({
  type: 'vnc' as const,
  listen: null,
  socket: null,
  port: null,
  password: null,
  password_wo: null,
  password_keyed_digest: null,
  display_uri: null,
  ...over,
});
const state = (...graphics: Record<string, unknown>[]) => ({ graphics }) as unknown as DomainState;

describe('write-only display passwords', () => {
  test('GIVEN password_wo WHEN digested THEN the HMAC under the key; unknown without a key; null without password_wo', () => {
    const config = state(display({ password_wo: 'Cv8n2Qx7' }), display());
    const planned = state(display(), display());
    expect(withPasswordDigests(planned, config, KEY)).toEqual([
      display({ password_keyed_digest: keyedDigest(KEY, Buffer.from('Cv8n2Qx7')) }),
      display(),
    ]);
    expect((withPasswordDigests(planned, config, undefined) as { password_keyed_digest: unknown }[])[0]!.password_keyed_digest).toBe(
      UNKNOWN,
    );
    expect(hasWriteOnlyPassword(config)).toBe(true);
    expect(hasWriteOnlyPassword(planned)).toBe(false);
  });

  test('GIVEN a digest WHEN compared THEN it stands in for the password, so equal digests are no change', () => {
    const d = keyedDigest(KEY, Buffer.from('x'));
    expect(comparable(state(display({ password_keyed_digest: d }))).graphics).toEqual([display({ password: d, password_keyed_digest: d })]);
    expect(comparable(state(display({ password: 'kept' }))).graphics).toEqual([display({ password: 'kept' })]);
  });

  test('GIVEN password_wo WHEN applied THEN libvirt gets it as password and the new state does not hold it', () => {
    const config = state(display({ password_wo: 'Cv8n2Qx7' }));
    const effective = withConfigPasswords(state(display()), config);
    expect((effective.graphics as { password: unknown }[])[0]!.password).toBe('Cv8n2Qx7');
    expect(withoutConfigPasswords(effective, config).graphics).toEqual([display()]);
    // A password that is not the config's write-only one (a failed apply returns the prior state) stays.
    expect(withoutConfigPasswords(state(display({ password: 'prior' })), config).graphics).toEqual([display({ password: 'prior' })]);
  });

  test('GIVEN password and password_wo together WHEN validated THEN an error on the twin names both, not the values', () => {
    const d = passwordTwinDiagnostics(state(display({ password: 'a', password_wo: 'Cv8n2Qx7' })));
    expect(d).toEqual([
      expect.objectContaining({ severity: 'error', path: ['graphics', 0, 'password_wo'], summary: 'Conflicting attributes' }),
    ]);
    expect(JSON.stringify(d)).not.toContain('Cv8n2Qx7');
  });
});
