/**
 * The domain's write-only display passwords (`graphics[*].password_wo`, docs/write-only.md): the keyed digest a
 * plan gives each display, the view of a state that plans compare (a digest in place of the password), and the
 * planned state an apply defines (each password from the config). The key is the domain's, kept in its private
 * state (./keyed.ts). Pure; nothing here logs a password or a digest.
 */
import { DOMAIN_FIELDS, twinConflicts } from '../../../../src/fields';
import { error, type Diagnostic } from '../../../../src/diagnostics';
import { keyedDigest } from './keyed';
import type { DomainState } from './model';
import { list, str, UNKNOWN } from './values';

type Graphics = DomainState['graphics'];

/** `graphics[i].password` and `password_wo` both set (they are exclusive), as diagnostics on the twin. */
export function passwordTwinDiagnostics(config: DomainState): Diagnostic[] {
  return twinConflicts(DOMAIN_FIELDS.fields, config).map((c) =>
    error(c.path, 'Conflicting attributes', `Set either ${c.of} or ${c.twin} (its write-only form), not both.`),
  );
}

/** True when the config gives a display a write-only password (known or not). */
export function hasWriteOnlyPassword(config: DomainState): boolean {
  return list(config.graphics).some((g) => g.password_wo !== null && g.password_wo !== undefined);
}

/**
 * `planned`'s displays with `password_keyed_digest` set from the config's `password_wo` (same index): the HMAC
 * under `key`; unknown without a key (made at apply) or while the password is unknown; null without one.
 */
export function withPasswordDigests(planned: DomainState, config: DomainState, key: Buffer | undefined): Graphics {
  const given = list(config.graphics);
  if (!Array.isArray(planned.graphics)) return planned.graphics;
  return planned.graphics.map((g, i) => {
    const wo = given[i]?.password_wo;
    if (wo === null || wo === undefined) return { ...g, password_wo: null, password_keyed_digest: null };
    const password = str(wo);
    const digest = key && password !== undefined ? keyedDigest(key, Buffer.from(password, 'utf8')) : UNKNOWN;
    return { ...g, password_wo: null, password_keyed_digest: digest };
  });
}

/** `s` with each display's keyed digest (where it has one) in place of its password: what a plan compares, so a
 *  changed write-only password is a change of `graphics[i].password` (live) and an unchanged one none. */
export function comparable(s: DomainState): DomainState {
  if (!Array.isArray(s.graphics)) return s;
  return {
    ...s,
    graphics: s.graphics.map((g) =>
      g.password_keyed_digest !== null && g.password_keyed_digest !== undefined ? { ...g, password: g.password_keyed_digest } : g,
    ),
  };
}

/** `planned` with each display's `password_wo` from the config as its `password` (what libvirt is given). */
export function withConfigPasswords(planned: DomainState, config: DomainState | null): DomainState {
  const given = list(config?.graphics);
  if (!Array.isArray(planned.graphics)) return planned;
  return {
    ...planned,
    graphics: planned.graphics.map((g, i) => {
      const password = str(given[i]?.password_wo);
      return password !== undefined ? { ...g, password } : g;
    }),
  };
}

/** `applied`'s displays without the config's write-only passwords (what the new state holds); a password that is
 *  not one of them (a failed apply returns the prior state) stays. */
export function withoutConfigPasswords(applied: DomainState, config: DomainState | null): DomainState {
  if (!Array.isArray(applied.graphics)) return applied;
  const given = list(config?.graphics);
  return {
    ...applied,
    graphics: applied.graphics.map((g, i) => {
      const secret = str(given[i]?.password_wo);
      return { ...g, password: secret !== undefined && g.password === secret ? null : g.password, password_wo: null };
    }),
  };
}
