/**
 * PostgreSQL for the tests of Terraform's `pg` state backend: the database scripts/ensure-postgres.sh makes (and
 * starts the cluster for, when none runs), queries through psql, and the test's own schema dropped at the end.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** What ensure-postgres.sh --env prints: the connection string (no password) and the pgpass file. */
export interface PgDatabase {
  readonly connStr: string;
  readonly passFile: string;
}

/** Runs scripts/ensure-postgres.sh for database/role `name`; throws with its output when it fails. */
export function ensurePostgres(name: string): PgDatabase {
  const r = spawnSync('bash', [path.join(ROOT, 'scripts', 'ensure-postgres.sh'), '--name', name, '--env'], {
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`scripts/ensure-postgres.sh --name ${name} --env exited ${r.status}:\n${r.stdout}${r.stderr}`);
  const value = (key: string) => new RegExp(`^export ${key}='([^']*)'$`, 'm').exec(r.stdout)?.[1];
  const connStr = value('PG_CONN_STR');
  const passFile = value('PGPASSFILE');
  if (!connStr || !passFile) throw new Error(`unexpected output of ensure-postgres.sh --env:\n${r.stdout}`);
  return { connStr, passFile };
}

/** The password in the database's pgpass file (for tests that check it is never printed). */
export function pgPassword(db: PgDatabase): string {
  return fs.readFileSync(db.passFile, 'utf8').trim().split(':').pop()!;
}

/** Runs `sql` as the database's role; returns psql's unaligned, tuples-only output. Throws with psql's output. */
export function psql(db: PgDatabase, sql: string): string {
  const r = spawnSync('psql', ['-X', '-q', '-w', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', db.connStr, '-c', sql], {
    encoding: 'utf8',
    env: { ...process.env, PGPASSFILE: db.passFile },
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`psql -c "${sql}" exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout.trim();
}

/** Drops the schema (with Terraform's `states` table in it) when it exists. */
export function dropSchema(db: PgDatabase, schema: string): void {
  psql(db, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
