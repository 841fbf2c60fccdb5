/**
 * Checks of what cloud-init's schema allows but its code (cloud-init 22.4, the version the schema is derived from)
 * rejects or ignores. Input cloud-init would reject is an error; input it accepts but that has no effect is a
 * warning with the path (docs/seed-fidelity.md, "Which cloud-init: the schema and the rules").
 */
import { error, warning, type AttributePath, type Diagnostic } from '../../diagnostics';
import type { CloudConfig, SeedSpec } from '../model';
import { isPlainObject } from '../private/yaml';

/**
 * Errors in one cloud-config object beyond the schema: a relative `write_files[].path` (cc_write_files writes it
 * relative to cloud-init's working directory, not where the user meant; a virtseed rule since the first release).
 */
export function cloudConfigRuleErrors(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (Array.isArray(config.write_files)) {
    config.write_files.forEach((w: unknown, i) => {
      if (isPlainObject(w) && typeof w.path === 'string' && !w.path.startsWith('/')) {
        out.push(
          error(
            [...base, 'write_files', i, 'path'],
            'Invalid cloud-config',
            `Got ${JSON.stringify(w.path)}; expected an absolute guest path such as "/etc/app.conf" (cloud-init would write a relative path relative to its own working directory).`,
          ),
        );
      }
    });
  }
  return out;
}

/** What python's `int(text, 8)` accepts (cc_write_files `decode_perms`). */
const OCTAL = /^\s*[+]?(0[oO])?[0-7](_?[0-7])*\s*$/;

/**
 * Warnings for one cloud-config object:
 * - `write_files[].permissions` strings cloud-init cannot decode as octal (it logs "Undecodable permissions" and
 *   writes the file with mode 0644);
 * - `users[].inactive` / `users[].expiredate` on a `system: true` user: cc_users_groups passes them to
 *   `useradd --system`, which creates system users without aging information (shadow-utils; Debian 12 checked), so
 *   they are silently not applied.
 */
export function cloudConfigRuleWarnings(config: Record<string, unknown>, base: AttributePath): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (Array.isArray(config.users)) {
    config.users.forEach((u: unknown, i) => {
      if (!isPlainObject(u) || u.system !== true) return;
      for (const key of ['inactive', 'expiredate'] as const) {
        if (u[key] === undefined || u[key] === null) continue;
        out.push(
          warning(
            [...base, 'users', i, key],
            'Account aging ignored for a system user',
            `users[${i}]${typeof u.name === 'string' ? ` (${u.name})` : ''} has system: true, and useradd creates system users without aging information, so ${key} ${JSON.stringify(u[key])} is not applied. Remove system: true to apply it, or remove ${key}.`,
          ),
        );
      }
    });
  }
  if (Array.isArray(config.write_files)) {
    config.write_files.forEach((w: unknown, i) => {
      if (isPlainObject(w) && typeof w.permissions === 'string' && !OCTAL.test(w.permissions)) {
        out.push(
          warning(
            [...base, 'write_files', i, 'permissions'],
            'Permissions ignored',
            `Got ${JSON.stringify(w.permissions)}; cloud-init reads permissions as an octal number (e.g. "0644") and writes the file with mode 0644 instead.`,
          ),
        );
      }
    });
  }
  return out;
}

/** True when a cloud-config `users` value creates the distro's default user (cc_users_groups). */
function createsDefaultUser(users: unknown): boolean {
  if (users === undefined || users === null) return true; // no `users`: cloud-init's default [default]
  if (typeof users === 'string') return users.split(',').some((u) => u.trim() === 'default');
  if (Array.isArray(users))
    return users.some((u) => u === 'default' || (isPlainObject(u) && u.name === 'default') || (Array.isArray(u) && u[0] === 'default'));
  if (isPlainObject(users)) return 'default' in users;
  return true;
}

/**
 * Warnings for accepted-but-ineffective input of the merged cloud-config (`sources`: the cloud-config sources in
 * merge order, by SeedSpec key, so a warning points at the input that set the key):
 * - `users` without a `default` entry: the default user is not created, so meta-data `public_keys`, top-level
 *   `ssh_authorized_keys` and the `user` override (all for the default user) reach no user;
 * - `preserve_hostname: true`: cc_set_hostname and cc_update_hostname skip, so `hostname`/`fqdn` are not applied.
 */
export function ineffectiveInputWarnings(
  spec: SeedSpec,
  sources: readonly { name: string; config: CloudConfig }[],
  merged: CloudConfig,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const m = merged as Record<string, unknown>;
  const setBy = (key: string): AttributePath => {
    const last = [...sources].reverse().find((s) => (s.config as Record<string, unknown>)[key] !== undefined);
    return last ? [last.name, key] : [key];
  };
  if (!createsDefaultUser(m.users)) {
    const where = setBy('users');
    const why = `${where.join('.')} has no "default" entry, so cloud-init does not create the default user`;
    if (spec.public_keys && spec.public_keys.length > 0) {
      out.push(
        warning(
          ['public_keys'],
          'SSH keys for no user',
          `public_keys go to the default user, but ${why}: these keys reach no user. Add "default" to users, or put the keys in users[].ssh_authorized_keys.`,
        ),
      );
    }
    if (Array.isArray(m.ssh_authorized_keys) && m.ssh_authorized_keys.length > 0) {
      out.push(
        warning(
          setBy('ssh_authorized_keys'),
          'SSH keys for no user',
          `Top-level ssh_authorized_keys go to the default user, but ${why}: these keys reach no user. Add "default" to users, or move the keys to users[].ssh_authorized_keys.`,
        ),
      );
    }
    if (m.user !== undefined) {
      out.push(
        warning(
          setBy('user'),
          'Default user override ignored',
          `"user" overrides the default user, but ${why}: it has no effect. Add "default" to users.`,
        ),
      );
    }
  }
  if (m.preserve_hostname === true) {
    const given: AttributePath[] = [];
    if (spec.hostname !== undefined) given.push(['hostname']);
    if (spec.fqdn !== undefined) given.push(['fqdn']);
    for (const k of ['hostname', 'fqdn']) if (m[k] !== undefined && !(k === 'fqdn' && spec.fqdn !== undefined)) given.push(setBy(k));
    for (const path of given) {
      out.push(
        warning(
          path,
          'Host name not applied',
          `${setBy('preserve_hostname').join('.')} is true, so cloud-init's set_hostname and update_hostname modules skip and this host name is not set. Remove preserve_hostname, or the host name.`,
        ),
      );
    }
  }
  return out;
}
