/**
 * Provider start-up: process start → go-plugin handshake line on stdout, the way Terraform starts the provider
 * (magic cookie, AutoMTLS client certificate), against Node's own floor on this machine (a `node -e` that prints
 * the same kind of line). Alternating runs, medians. Goal (issue #25): the installed artifact's handshake within
 * 1.25x Node printing the line; the other rows are printed for information.
 * The installed artifact (the executable in dist/provider-artifact's zip: one bundled file with a V8 code cache in
 * the user's cache folder, packages/build/code-cache-loader.ts) is timed with its cache warmed by one run, and
 * without a cache (VIRTSEED_CACHE_DIR unusable). Beside them, the Go plugin-provider floor (bench/private/go-floor.ts:
 * the smallest go-plugin tfplugin6 server, same environment) when it builds here; skipped with the reason otherwise.
 * When dist/release holds a signed release (packages/build/release.ts), its single executable for this platform
 * (Node embedded, packages/build/sea.ts) is timed too, with and without its code cache.
 * On Linux, beside the times: the CPU a start costs until it has answered its first call (grpc.health.v1 Check over
 * the AutoMTLS connection Terraform would make), the installed artifact with its code cache against Node printing
 * the line, all threads (the schedstat of each task in /proc/PID/task): load does not inflate it as it does wall
 * times, and it counts the bundle's loading, which comes after the handshake line (issue #38).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import * as grpc from '@grpc/grpc-js';
import { terraformPlatform } from '../cli/commands/provider-artifact';
import { serviceClient } from '../provider/src/plugin/grpc';
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from '../provider/src/plugin/handshake';
import { buildGoFloor } from './private/go-floor';
import { alternate, formatGoalTable, GoalRow, loadRange } from './private/rows';

const ROOT = join(__dirname, '..', '..');
const DIST_MAIN = join(ROOT, 'dist', 'provider', 'src', 'main.js');

/** A client certificate as Terraform passes it in PLUGIN_CLIENT_CERT (made by openssl, once; its key is
 *  `work`/k.pem). */
function clientCertificate(work: string): string {
  const r = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      join(work, 'k.pem'),
      '-out',
      join(work, 'c.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`openssl req failed: ${r.stderr}`);
  return readFileSync(join(work, 'c.pem'), 'utf8');
}

/** Milliseconds from spawning `command args` (node itself by default) to the first byte on stdout; the process is
 *  then stopped with SIGTERM. */
function timeToFirstLine(args: string[], env: NodeJS.ProcessEnv, command = process.execPath): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b) => (stderr += b));
    child.stdout.once('data', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      child.kill('SIGTERM');
      child.on('exit', () => resolve(ms));
    });
    child.on('exit', (code) =>
      code !== 0 && code !== null ? reject(new Error(`${[command, ...args].join(' ')} exited ${code}: ${stderr}`)) : undefined,
    );
  });
}

/** CPU milliseconds of a process, all its threads (Linux: the first field of each task's schedstat, ns). */
function processCpuMs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`))
    ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
  return ns / 1e6;
}

/**
 * CPU milliseconds (all threads) of `command args` from its start until it has answered one grpc.health.v1 Check
 * over mutual TLS with the certificate of its handshake line, as Terraform connects (`answer` false: until the
 * handshake line, for Node's floor, which serves nothing); the process is then stopped with SIGKILL. Linux only.
 */
function cpuToFirstAnswer(
  args: string[],
  env: NodeJS.ProcessEnv,
  work: string,
  command = process.execPath,
  answer = true,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (b) => (stderr += b));
    const done = (err: Error | null, ms?: number) => {
      child.removeAllListeners('exit');
      child.kill('SIGKILL');
      child.on('exit', () => (err ? reject(err) : resolve(ms!)));
    };
    child.on('exit', (code) => reject(new Error(`${[command, ...args].join(' ')} exited ${code}: ${stderr}`)));
    child.stdout.on('data', (b) => {
      if (stdout.includes('\n')) return;
      stdout += b;
      if (!stdout.includes('\n')) return;
      if (!answer) return done(null, processCpuMs(child.pid!));
      const [, , , socket, , cert] = stdout.split('\n')[0].split('|');
      // The line's certificate is base64 without padding.
      const base64 = Buffer.from(cert, 'base64').toString('base64');
      const certPem = `-----BEGIN CERTIFICATE-----\n${base64.replace(/.{1,64}/g, '$&\n')}-----END CERTIFICATE-----\n`;
      const credentials = grpc.credentials.createSsl(
        Buffer.from(certPem),
        readFileSync(join(work, 'k.pem')),
        readFileSync(join(work, 'c.pem')),
      );
      const Health = serviceClient('grpc.health.v1.Health');
      const health = new Health(`unix://${socket}`, credentials, { 'grpc.ssl_target_name_override': 'localhost' });
      const check = health.Check as (req: object, cb: (err: Error | null) => void) => void;
      check.call(health, { service: 'plugin' }, (err) => {
        const ms = err ? undefined : processCpuMs(child.pid!);
        health.close();
        done(err && new Error(`Check failed: ${err.message}; stderr: ${stderr}`), ms);
      });
    });
  });
}

/** The provider executable of this platform's artifact zip, extracted into `work` with the bundle it runs;
 *  undefined when not built. */
export function artifactExecutable(work: string): string | undefined {
  const dir = join(ROOT, 'dist', 'provider-artifact');
  const platform = terraformPlatform();
  const zip = platform && existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(`_${platform}.zip`)) : undefined;
  if (!zip) return undefined;
  let executable: string | undefined;
  for (const [name, bytes] of Object.entries(unzipSync(readFileSync(join(dir, zip))))) {
    const file = join(work, name);
    writeFileSync(file, bytes);
    if (name.startsWith('terraform-provider-')) {
      chmodSync(file, 0o755);
      executable = file;
    }
  }
  return executable;
}

/** The single executable of this platform's zip in dist/release, extracted into `work`; undefined when not built. */
export function releaseExecutable(work: string): string | undefined {
  const dir = join(ROOT, 'dist', 'release');
  const platform = terraformPlatform();
  const zip = platform && existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith(`_${platform}.zip`)) : undefined;
  if (!zip) return undefined;
  const [entry] = Object.entries(unzipSync(readFileSync(join(dir, zip))));
  if (!entry) return undefined;
  const file = join(work, `sea-${entry[0]}`);
  writeFileSync(file, entry[1]);
  chmodSync(file, 0o755);
  return file;
}

export async function runStartupBench(runs = 15, log: (line: string) => void = console.log): Promise<GoalRow[]> {
  const work = mkdtempSync(join(tmpdir(), 'virtseed-bench-startup-'));
  try {
    // TMPDIR: go-plugin 1.0.1 puts its socket there (and a SIGTERM leaves it behind).
    const env = {
      ...process.env,
      TMPDIR: work,
      [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '6',
      PLUGIN_CLIENT_CERT: clientCertificate(work),
      PLUGIN_UNIX_SOCKET_DIR: work,
    };
    const floor = () => timeToFirstLine(['-e', 'process.stdout.write("1|6|unix|/tmp/plugin.sock|grpc|\\n")'], env);
    const variants = [floor, () => timeToFirstLine([DIST_MAIN], env)];
    const bundle = artifactExecutable(work);
    const cached = { ...env, VIRTSEED_CACHE_DIR: join(work, 'cache') };
    writeFileSync(join(work, 'not-a-folder'), '');
    const uncached = { ...env, VIRTSEED_CACHE_DIR: join(work, 'not-a-folder', 'cache') };
    if (bundle) {
      await timeToFirstLine([bundle], cached); // writes the code cache
      variants.push(
        () => timeToFirstLine([bundle], uncached),
        () => timeToFirstLine([bundle], cached),
      );
    }
    const sea = releaseExecutable(work);
    const seaAt = variants.length;
    if (sea) {
      await timeToFirstLine([], cached, sea); // writes the code cache
      variants.push(
        () => timeToFirstLine([], uncached, sea),
        () => timeToFirstLine([], cached, sea),
      );
    }
    const linux = process.platform === 'linux' && existsSync('/proc/self/task');
    const cpuAt = variants.length;
    if (bundle && linux) {
      const stay = '-e';
      const line = 'process.stdout.write("1|6|unix|/tmp/plugin.sock|grpc|\\n"); setInterval(() => {}, 1000)';
      variants.push(
        () => cpuToFirstAnswer([stay, line], env, work, process.execPath, false),
        () => cpuToFirstAnswer([bundle], cached, work),
      );
    }
    const goFloor = buildGoFloor(join(work, 'go-floor'));
    if (!goFloor.built) log(`Go plugin floor skipped (bench/anchors/build-go-floor.sh failed):\n${goFloor.reason}`);
    const goFloorAt = variants.length;
    if (goFloor.built) variants.push(() => timeToFirstLine([], env, goFloor.executable));
    const loads: number[] = [];
    const samples = await alternate(runs, variants, loads);
    const load = loadRange(loads);
    const [floorMs, distMs, bundleMs, cachedMs] = samples;
    const rows: GoalRow[] = [
      {
        name: 'start → handshake, dist/',
        unit: 'ms',
        ours: distMs,
        anchorName: 'node printing the line',
        anchor: floorMs,
        load,
      },
    ];
    if (bundle) {
      rows.push({
        name: 'start → handshake, artifact without code cache',
        unit: 'ms',
        ours: bundleMs,
        anchorName: 'node printing the line',
        anchor: floorMs,
        load,
      });
      rows.push({
        name: 'start → handshake, installed artifact (code cache)',
        unit: 'ms',
        ours: cachedMs,
        anchorName: 'node printing the line',
        anchor: floorMs,
        goal: 1.25,
        load,
      });
    }
    if (sea) {
      for (const [i, what] of [
        [0, 'single executable without code cache'],
        [1, 'single executable (code cache)'],
      ] as const) {
        rows.push({
          name: `start → handshake, ${what}`,
          unit: 'ms',
          ours: samples[seaAt + i],
          anchorName: 'node printing the line',
          anchor: floorMs,
          load,
        });
      }
    }
    if (goFloor.built) {
      const goMs = samples[goFloorAt];
      const [oursName, oursMs] = bundle ? ['installed artifact (code cache)', cachedMs] : ['dist/', distMs];
      rows.push({
        name: 'start → handshake, Go go-plugin floor',
        unit: 'ms',
        ours: goMs,
        anchorName: 'node printing the line',
        anchor: floorMs,
        load,
      });
      rows.push({ name: `start → handshake, ${oursName}`, unit: 'ms', ours: oursMs, anchorName: 'Go go-plugin floor', anchor: goMs, load });
    }
    if (bundle && linux) {
      rows.push({
        name: 'start → first answer, CPU, installed artifact (code cache)',
        unit: 'ms',
        ours: samples[cpuAt + 1],
        anchorName: 'node printing the line (CPU)',
        anchor: samples[cpuAt],
        load,
      });
    }
    log(`provider start-up (median of ${runs} alternating runs; AutoMTLS as under Terraform)`);
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
