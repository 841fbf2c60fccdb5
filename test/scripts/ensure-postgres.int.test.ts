/**
 * scripts/ensure-postgres.sh against Debian's PostgreSQL (installed and started by the script when missing or down):
 * a role and database of the test's own name, the password in a root-only pgpass file and never printed, the
 * connection string without it, a second run that keeps the same password, and a server on 127.0.0.1 only.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pgPassword, psql } from '../helpers/postgres';

const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'ensure-postgres.sh');
const NAME = 'vstest_gitops_ensure';
const PASSFILE = `/etc/virtseed/postgres/${NAME}.pgpass`;

jest.setTimeout(600_000);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function ensure(...args: string[]): Run {
  const r = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 600_000 });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

let first: Run;
let second: Run;

beforeAll(() => {
  first = ensure('--name', NAME);
  if (first.code !== 0) throw new Error(`ensure-postgres.sh --name ${NAME} exited ${first.code}:\n${first.stdout}${first.stderr}`);
  second = ensure('--name', NAME, '--env');
});

afterAll(() => {
  const drop = `DROP DATABASE IF EXISTS ${NAME}; DROP ROLE IF EXISTS ${NAME};`;
  spawnSync('runuser', ['-u', 'postgres', '--', 'psql', '-X', '-q', '-d', 'postgres'], { input: drop, encoding: 'utf8' });
  fs.rmSync(PASSFILE, { force: true });
});

describe('scripts/ensure-postgres.sh', () => {
  test('GIVEN a name WHEN run THEN stdout is the connection string, without a password', () => {
    expect(first.stdout).toMatch(new RegExp(`^postgres://${NAME}@127\\.0\\.0\\.1:\\d+/${NAME}\\?sslmode=disable\\n$`));
  });

  test('GIVEN two runs WHEN their output is read THEN the password appears in neither', () => {
    const password = pgPassword({ connStr: '', passFile: PASSFILE });
    expect(password).toMatch(/^[0-9a-f]{48}$/);
    for (const r of [first, second]) expect(`${r.stdout}${r.stderr}`).not.toContain(password);
  });

  test('GIVEN the pgpass file WHEN its mode is read THEN only root can read it, in a folder only root can enter', () => {
    expect((fs.statSync(PASSFILE).mode & 0o777).toString(8)).toBe('600');
    expect((fs.statSync(path.dirname(PASSFILE)).mode & 0o777).toString(8)).toBe('700');
  });

  test('GIVEN --env WHEN run a second time THEN it prints export lines for the same database and the role still logs in', () => {
    expect(second.code).toBe(0);
    const conn = /^export PG_CONN_STR='([^']+)'$/m.exec(second.stdout)?.[1];
    expect(conn).toBe(first.stdout.trim());
    expect(second.stdout).toContain(`export PGPASSFILE='${PASSFILE}'`);
    expect(psql({ connStr: conn!, passFile: PASSFILE }, 'SELECT current_user')).toBe(NAME);
  });

  test('GIVEN the cluster the script started WHEN its listening sockets are listed THEN it listens on 127.0.0.1 only', () => {
    const marker = '/run/virtseed/postgres.started';
    if (!fs.existsSync(marker)) {
      console.warn('ensure-postgres.int: the cluster was running before the script (not started by it): its listen address is its own');
      return;
    }
    const port = /:(\d+)\//.exec(first.stdout)![1];
    const listening = spawnSync('ss', ['-ltnH', `sport = :${port}`], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    expect(listening.map((l) => l.trim().split(/\s+/)[3])).toEqual([`127.0.0.1:${port}`]);
  });

  test('GIVEN an invalid name WHEN run THEN it exits 1 naming the rule', () => {
    const r = ensure('--name', 'Bad-Name');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--name 'Bad-Name': expected 1 to 63 lower-case letters");
  });
});
