/**
 * Commands in tests: run to completion, bounded in time, failing with the command's whole output (a test's failure
 * message includes what the command said); virsh on the system daemon; and polling for a state.
 */
import { spawnSync } from 'node:child_process';

/** What a command did. `text` names the command, its exit status and its output: a failure message. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly text: string;
}

/** Runs `cmd args` to completion, killed after `timeoutMs` (default 300 s; then `code` is null). Never throws. */
export function runCommand(cmd: string, args: readonly string[], timeoutMs = 300_000): CommandResult {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  const stdout = r.stdout ?? '';
  const stderr = r.stderr ?? '';
  return {
    code: r.status,
    stdout,
    stderr,
    text: `\`${cmd} ${args.join(' ')}\` exited ${r.status}${r.error ? ` (${r.error.message})` : ''}\nstdout: ${stdout}\nstderr: ${stderr}`,
  };
}

/** `r` when it exited 0. @throws Error with `r.text` otherwise. */
export function expectOk(r: CommandResult): CommandResult {
  if (r.code !== 0) throw new Error(r.text);
  return r;
}

/** Runs `cmd args` (see runCommand); its stdout. @throws Error with the command and its output unless it exits 0. */
export function commandOk(cmd: string, args: readonly string[], timeoutMs?: number): string {
  return expectOk(runCommand(cmd, args, timeoutMs)).stdout;
}

/** `virsh -c qemu:///system args` (bounded like runCommand); its stdout. @throws Error with virsh's output unless it exits 0. */
export function virshOk(...args: string[]): string {
  return commandOk('virsh', ['-c', 'qemu:///system', ...args]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls `check` every `everyMs` (default 2 s) until it returns a value other than undefined, for at most `seconds`.
 * @throws Error `<what> within <seconds> s; last: <last()>` when the time is up.
 */
export async function poll<T>(what: string, seconds: number, check: () => T | undefined, last: () => string, everyMs = 2000): Promise<T> {
  const end = Date.now() + seconds * 1000;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what} within ${seconds} s; last: ${last()}`);
    await sleep(everyMs);
  }
}
