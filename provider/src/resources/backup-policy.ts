/**
 * `virtseed_backup_policy`: backups of a running domain into a directory, declared (docs/backups.md "A backup
 * policy"). Its state is what the directory holds (read by src/ops/backups `readBackups`); a plan that finds the
 * latest backup older than `max_age` plans one more (`latest` unknown, with a warning), and the apply takes it
 * (src/ops/backups `createBackup`: incremental when the latest's checkpoint is still on the domain) and prunes to
 * `keep` (`pruneBackups`, with the removed backups' checkpoints). Destroy forgets the policy; the backups stay.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { backupDue, formatAge } from '../../../src/backup';
import { Diagnostic, error, warning } from '../../../src/diagnostics';
import { BACKUP_POLICY_FIELDS } from '../../../src/fields';
import { LibvirtError, type LibvirtClient } from '../../../src/libvirt';
import { BackupRefusedError, createBackup, pruneBackups, readBackups } from '../../../src/ops/backups';
import type { ResourceHandler } from '../handler';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf, valueDiagnostics, withTableDefaults } from './private/fields';
import type { BackupPolicyState } from './private/model';
import { num, str, UNKNOWN } from './private/values';

const isUnknown = (v: unknown): boolean => v === UNKNOWN;

const SCHEMA: ResourceSchema = schemaOf(BACKUP_POLICY_FIELDS);

/** Config checks, each on the attribute it is about. */
function validateConfig(c: BackupPolicyState): Diagnostic[] {
  const d = valueDiagnostics(BACKUP_POLICY_FIELDS, c);
  const keep = num(c.keep);
  if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1))
    d.push(error(['keep'], 'Invalid keep', `keep is ${keep}; expected a whole number of backups, at least 1.`));
  const maxAge = num(c.max_age);
  if (maxAge !== undefined && !(Number.isInteger(maxAge) && maxAge >= 60))
    d.push(error(['max_age'], 'Invalid max_age', `max_age is ${maxAge}; expected a whole number of seconds, at least 60 (86400: daily).`));
  const dir = str(c.dir);
  if (dir !== undefined && !path.isAbsolute(dir))
    d.push(error(['dir'], 'Invalid dir', `dir is "${dir}"; expected an absolute path on the domain's host (e.g. /srv/backups).`));
  return d;
}

/** The state's view of the directory: latest backup, its time, every backup. */
async function observed(dir: string, domain: string): Promise<Pick<BackupPolicyState, 'latest' | 'latest_taken_at' | 'backups'>> {
  const all = await readBackups(dir, domain);
  const latest = all.at(-1);
  return { latest: latest?.id ?? null, latest_taken_at: latest?.takenAt ?? null, backups: all.map((m) => m.id) };
}

export const backupPolicy: ResourceHandler<BackupPolicyState, LibvirtClient> = {
  typeName: 'virtseed_backup_policy',
  schema: SCHEMA,

  validate(config) {
    return validateConfig(config);
  },

  async plan({ prior, proposed, config }) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    const diagnostics = validateConfig(config);
    const planned: BackupPolicyState = withTableDefaults(BACKUP_POLICY_FIELDS, proposed, config);
    const dir = str(planned.dir);
    const domain = str(planned.domain);
    planned.id = dir !== undefined && domain !== undefined ? path.join(dir, domain) : UNKNOWN;
    const requiresReplace = prior ? replacePaths(BACKUP_POLICY_FIELDS, prior, planned) : [];
    if (!prior || requiresReplace.length)
      return { planned: { ...planned, latest: UNKNOWN, latest_taken_at: UNKNOWN, backups: UNKNOWN }, requiresReplace, diagnostics };
    Object.assign(planned, { latest: prior.latest, latest_taken_at: prior.latest_taken_at, backups: prior.backups });
    const maxAge = num(planned.max_age);
    if (maxAge === undefined || diagnostics.some((x) => x.severity === 'error')) return { planned, requiresReplace, diagnostics };
    const due = backupDue(str(prior.latest_taken_at) ?? null, maxAge, new Date());
    if (due.due) {
      diagnostics.push(
        warning(
          [],
          `Backup of ${domain ?? '?'} due`,
          due.ageMs === undefined
            ? `${dir ?? '?'} holds no backup of ${domain ?? '?'}: this apply takes a full one and keeps the ${num(planned.keep) ?? '?'} latest.`
            : `The latest backup of ${domain ?? '?'}, ${str(prior.latest) ?? '?'}, was taken ${str(prior.latest_taken_at) ?? '?'}, ${formatAge(due.ageMs)} ago: more than max_age (${maxAge} s). This apply takes the next one (incremental while the latest's checkpoint is on the domain) and keeps the ${num(planned.keep) ?? '?'} latest.`,
        ),
      );
      return { planned: { ...planned, latest: UNKNOWN, latest_taken_at: UNKNOWN, backups: UNKNOWN }, requiresReplace, diagnostics };
    }
    // A smaller keep than the backups there are prunes at apply (which ones: the chains decide); a larger one removes nothing.
    const keep = num(planned.keep);
    const count = Array.isArray(prior.backups) ? prior.backups.length : 0;
    if (planned.keep !== prior.keep && keep !== undefined && count > keep) planned.backups = UNKNOWN;
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ planned }, ctx) {
    if (!planned) return { newState: null, diagnostics: [] };
    const dir = str(planned.dir) ?? '';
    const domain = str(planned.domain) ?? '';
    const keep = num(planned.keep) ?? 1;
    const client = await ctx.client();
    let dom;
    try {
      dom = await client.domainLookupByName(domain, { signal: ctx.signal });
    } catch (err) {
      if (!(err instanceof LibvirtError)) throw err;
      return { newState: null, diagnostics: [error(['domain'], 'Domain not found', `domain is "${domain}": ${err.message}.`)] };
    }
    if (isUnknown(planned.latest)) {
      try {
        const r = await createBackup(client, dom, dir, { now: () => new Date(), signal: ctx.signal, log: (l) => ctx.log.info(l) });
        ctx.log.info(`backup policy ${domain}: took ${r.manifest.id} (${r.manifest.consistency}) in ${r.jobSeconds.toFixed(1)} s`);
      } catch (err) {
        if (!(err instanceof BackupRefusedError)) throw err;
        return { newState: null, diagnostics: [error(['domain'], `Cannot back up ${domain}`, `${domain}: ${err.problem}. ${err.fix}`)] };
      }
    }
    if (isUnknown(planned.backups)) await pruneBackups(dir, domain, keep, { client, dom });
    return { newState: { ...planned, id: path.join(dir, domain), ...(await observed(dir, domain)) }, diagnostics: [] };
  },

  // What the directory holds now: backups removed outside Terraform (by hand, `virtseed backup prune`, the folder
  // deleted) are gone from `backups` and `latest`; with none left (or the latest older than max_age) the next plan
  // takes one.
  async read({ current }) {
    const dir = str(current.dir);
    const domain = str(current.domain);
    if (dir === undefined || domain === undefined) return { newState: current, diagnostics: [] };
    return { newState: { ...current, id: path.join(dir, domain), ...(await observed(dir, domain)) }, diagnostics: [] };
  },

  // The id is the policy's own: `<dir>/<domain>` (docs/resources/backup_policy.md "Import"). `keep` and `max_age`
  // are nowhere on the host: null, so the plan after import sets them from the configuration (an update in place).
  async importState(id, ctx) {
    const [dir, domain] = [path.dirname(id), path.basename(id)];
    if (!path.isAbsolute(id) || id.endsWith('/') || dir === id || !domain)
      throw new Error(`cannot import backup policy "${id}": expected <dir>/<domain>, an absolute path (e.g. /srv/backups/web1)`);
    const client = await ctx.client();
    try {
      await client.domainLookupByName(domain, { signal: ctx.signal });
    } catch (err) {
      if (!(err instanceof LibvirtError)) throw err;
      throw new Error(`cannot import backup policy "${id}": libvirt has no domain ${domain} (${err.message})`);
    }
    const st = await fsp.stat(dir).catch(() => null);
    if (!st?.isDirectory()) throw new Error(`cannot import backup policy "${id}": ${dir} is not a directory on this host`);
    const base: BackupPolicyState = {
      id: path.join(dir, domain),
      host: ctx.hostName,
      domain,
      dir,
      keep: null,
      max_age: null,
      latest: null,
      latest_taken_at: null,
      backups: null,
    };
    return [{ ...base, ...(await observed(dir, domain)) }];
  },
};
