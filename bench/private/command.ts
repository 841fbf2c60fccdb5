/** Running commands in the benches: to completion, timed, and failing loudly with the command's whole output. */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** The libvirt URI every bench works against. */
export const BENCH_URI = 'qemu:///system';

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Exit statuses that count as success. @default [0] */
  readonly allow?: readonly number[];
}

export interface RunResult {
  /** Wall time from spawn to exit, in milliseconds. */
  readonly ms: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly status: number;
}

/**
 * Runs `cmd args` to completion, output captured (up to 256 MiB).
 * @throws Error naming the command, its folder, its exit status and its stdout and stderr, unless the status is
 *   in `allow`.
 */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): RunResult {
  const start = performance.now();
  const r = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - start;
  const status = r.status ?? -1;
  if (!(opts.allow ?? [0]).includes(status)) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${opts.cwd ?? '.'}) exited ${r.status ?? r.signal}:\n${r.stdout}\n${r.stderr}`);
  }
  return { ms, stdout: r.stdout, stderr: r.stderr, status };
}

/** `virsh -c qemu:///system args`: its stdout. Exit statuses in `allow` count as success. */
export function virsh(args: readonly string[], allow: readonly number[] = [0]): string {
  return run('virsh', ['-c', BENCH_URI, ...args], { allow }).stdout;
}
