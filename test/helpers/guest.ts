/**
 * Real guests for the e2e tests: the project's test image (scripts/build-test-image.sh), the serial console log
 * of a domain, and cleanup of `vstest-` domains and volumes through virsh.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { poll, virshOk } from './command';
import { consoleSilenceMs, lastLines, maxTestMs } from './limits';

const ROOT = path.resolve(__dirname, '..', '..');

export interface TestImage {
  readonly dir: string;
  readonly image: string;
  readonly kernel: string;
  readonly initrd: string;
  readonly cmdline: string;
}

/** The test image: $VIRTSEED_TEST_IMAGE_DIR (set by scripts/test-all.sh), else built or reused now. */
export function testImage(): TestImage {
  let dir = process.env.VIRTSEED_TEST_IMAGE_DIR;
  if (!dir) {
    const out = execFileSync('bash', [path.join(ROOT, 'scripts', 'build-test-image.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    dir = out.trim().split('\n').pop() as string;
  }
  const env = fs.readFileSync(path.join(dir, 'image.env'), 'utf8');
  const get = (k: string) => new RegExp(`^${k}='?([^'\\n]*)'?$`, 'm').exec(env)?.[1] ?? '';
  return { dir, image: get('IMAGE'), kernel: get('KERNEL'), initrd: get('INITRD'), cmdline: get('CMDLINE') };
}

/** HCL attributes for direct kernel boot of the test image (inside a virtseed_domain block). */
export function kernelBootHcl(img: TestImage): string {
  return `  kernel  = "${img.kernel}"\n  initrd  = "${img.initrd}"\n  cmdline = "${img.cmdline}"\n`;
}

/**
 * HCL of the test image uploaded into pool `default` as `virtseed_volume.base` (volume `baseName`) and, for each
 * entry of `roots` (resource name → volume name), a qcow2 overlay `virtseed_volume.<resource>` on it.
 */
export function imageVolumesHcl(img: TestImage, baseName: string, roots: Record<string, string> = {}): string {
  const overlays = Object.entries(roots).map(
    ([resource, volume]) => `
resource "virtseed_volume" "${resource}" {
  pool           = "default"
  name           = "${volume}"
  backing_volume = virtseed_volume.base.id
}`,
  );
  return `
resource "virtseed_volume" "base" {
  pool   = "default"
  name   = "${baseName}"
  source = "${img.image}"
}${overlays.join('')}
`;
}

/** The console log's content from byte `from` on ('' when it does not exist yet). */
export function readConsole(logPath: string, from = 0): string {
  try {
    const buf = fs.readFileSync(logPath);
    return buf.subarray(from).toString('utf8').replace(/\r/g, '');
  } catch {
    return '';
  }
}

/** Current size of the console log (an offset to wait from). */
export function consoleSize(logPath: string): number {
  try {
    return fs.statSync(logPath).size;
  } catch {
    return 0;
  }
}

/** A console file's size and modification time: it changes whenever the guest writes (or libvirt truncates). */
function consoleStamp(logPath: string): string {
  try {
    const st = fs.statSync(logPath);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * Waits until the console log (from byte `from`) matches `pattern`; resolves with the text read. Fails when the
 * console has written nothing for VIRTSEED_TEST_CONSOLE_SILENCE_S (240 s) — a stuck guest fails in minutes — or
 * after `timeoutMs` (at most VIRTSEED_TEST_MAX_TEST_S), with the console's last 40 lines either way. A wait for a
 * line that comes after a long silence on purpose must raise the silence bound for its run.
 */
export async function waitForConsole(logPath: string, pattern: RegExp, timeoutMs = 420_000, from = 0): Promise<string> {
  const start = Date.now();
  const cap = Math.min(timeoutMs, maxTestMs());
  const silence = consoleSilenceMs();
  let stamp = consoleStamp(logPath);
  let changed = start;
  for (;;) {
    const text = readConsole(logPath, from);
    if (pattern.test(text)) return text;
    const now = Date.now();
    const current = consoleStamp(logPath);
    if (current !== stamp) [stamp, changed] = [current, now];
    const why =
      now - start > cap
        ? `within ${cap / 1000} s`
        : now - changed > silence
          ? `: the console has written nothing for ${Math.round((now - changed) / 1000)} s (VIRTSEED_TEST_CONSOLE_SILENCE_S=${silence / 1000})`
          : undefined;
    if (why) throw new Error(`console ${logPath} did not show ${pattern} ${why}; last 40 lines:\n${lastLines(logPath, 40)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** cloud-init's "finished" line (from the final stage). */
export const CLOUD_INIT_FINISHED = /Cloud-init v\. \S+ finished at/;

function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  return r.stdout ?? '';
}

/** Removes every domain and `default`-pool volume whose name starts with `prefix` (must start with `vstest-`). */
export function cleanupByPrefix(prefix: string): void {
  if (!prefix.startsWith('vstest-')) throw new Error('cleanupByPrefix only removes vstest- objects');
  for (const name of virsh('list', '--all', '--name')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s.startsWith(prefix))) {
    virsh('destroy', name);
    virsh('undefine', name, '--nvram', '--snapshots-metadata', '--checkpoints-metadata');
  }
  for (const name of volumeNames(prefix)) virsh('vol-delete', name, '--pool', 'default');
  removeConsoleLogs(prefix);
}

/**
 * Deletes the console logs (and virtlogd's rolled-over `.1`…) of the prefix's domains in libvirt's log folder. Each
 * start appends to a console log (docs/resources/domain.md `console_log`), so a test that reads its guest's log
 * from byte 0 would read an earlier run's boots too; removed with the test's objects, a log holds this run's only.
 */
export function removeConsoleLogs(prefix: string): void {
  if (!prefix.startsWith('vstest-')) throw new Error('removeConsoleLogs only removes vstest- logs');
  const dir = '/var/log/libvirt/qemu';
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) if (n.startsWith(prefix) && /-console\.log(\.\d+)?$/.test(n)) fs.rmSync(path.join(dir, n), { force: true });
}

/** Names of the `default` pool's volumes that start with `prefix` (after a pool refresh), sorted. */
export function volumeNames(prefix = ''): string[] {
  virsh('pool-refresh', 'default');
  return virsh('vol-list', 'default')
    .split('\n')
    .slice(2)
    .map((l) => l.trim().split(/\s+/)[0])
    .filter((n): n is string => !!n && n.startsWith(prefix))
    .sort();
}

/** Whether libvirt has a domain of that name. */
export function domainExists(name: string): boolean {
  return virsh('list', '--all', '--name')
    .split('\n')
    .some((s) => s.trim() === name);
}

/** virsh domuuid. */
export function domainUuid(name: string): string {
  return virsh('domuuid', name).trim();
}

/** Runs virsh (for tests that change things outside Terraform). */
export function virshRun(...args: string[]): string {
  return virsh(...args);
}

/**
 * Waits up to `seconds` for libvirt to see the running domain's QEMU guest agent connected (the live definition's
 * `org.qemu.guest_agent.0` channel in state `connected`), looking every second. Throws, with the channel's XML,
 * when it does not connect in time.
 */
export async function waitForGuestAgent(domain: string, seconds = 60): Promise<void> {
  let xml = '';
  await poll(
    `the guest agent of ${domain} did not connect`,
    seconds,
    () => (/name='org\.qemu\.guest_agent\.0' state='connected'/.test((xml = virshOk('dumpxml', domain))) ? true : undefined),
    () => /<channel[\s\S]*?<\/channel>/.exec(xml)?.[0] ?? xml,
    1000,
  );
}
