/**
 * Files of a guest read from its root disk on the host, for facts the console does not carry (e.g. cloud-init's
 * `/var/lib/cloud/data/result.json`, which `/run/cloud-init/result.json` links to): the domain is shut down cleanly
 * (ACPI; powered off after 120 s), or, for a domain with the guest agent, its file systems frozen by the agent
 * (which writes out what they hold and flushes the disk) and the domain powered off — under TCG a guest's own
 * shutdown costs some 10–15 host CPU s; then its first disk converted to a raw image in a temporary folder
 * (`qemu-img`), and the file read from the root ext4 file system with `debugfs` (at the offset of the GPT partition
 * named `root`, or of the whole disk) — no mounts, no loop devices.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitForGuestAgent } from './guest';

function virsh(...args: string[]): string {
  return execFileSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
}

/** Shuts the domain down (ACPI, then power off after `timeoutS`); resolves once it is shut off. */
export async function shutDown(domain: string, timeoutS = 120): Promise<void> {
  if (virsh('domstate', domain).trim() === 'shut off') return;
  spawnSync('virsh', ['-c', 'qemu:///system', 'shutdown', domain], { encoding: 'utf8' });
  const deadline = Date.now() + timeoutS * 1000;
  while (virsh('domstate', domain).trim() !== 'shut off') {
    if (Date.now() > deadline) {
      spawnSync('virsh', ['-c', 'qemu:///system', 'destroy', domain], { encoding: 'utf8' });
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/**
 * Freezes the running domain's file systems through its guest agent (virDomainFSFreeze: the agent's
 * guest-fsfreeze-freeze syncs each file system and flushes the disk), waiting up to 60 s for the agent to connect,
 * then powers the domain off: its disk then holds what the guest had written. Throws with virsh's output when the
 * agent does not connect or the freeze fails.
 */
export async function freezeAndPowerOff(domain: string): Promise<void> {
  await waitForGuestAgent(domain, 60);
  const r = spawnSync('virsh', ['-c', 'qemu:///system', 'domfsfreeze', domain], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh domfsfreeze ${domain} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  virsh('destroy', domain);
}

/**
 * The content of `guestPaths` (absolute paths in the guest; null for a file that does not exist) on the first disk
 * of `domain`, stopped first: `stop` `'shutdown'` (ACPI, the default) or `'freeze'` (freezeAndPowerOff: the domain
 * needs `qemu_agent = true`). Throws with the tools' output when the disk cannot be read.
 */
export async function readGuestFiles(
  domain: string,
  guestPaths: readonly string[],
  stop: 'shutdown' | 'freeze' = 'shutdown',
): Promise<Record<string, string | null>> {
  if (stop === 'freeze') await freezeAndPowerOff(domain);
  else await shutDown(domain);
  const disk = firstDiskPath(domain);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-guest-disk-'));
  try {
    const raw = path.join(dir, 'disk.raw');
    execFileSync('qemu-img', ['convert', '-O', 'raw', disk, raw], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const device = `${raw}?offset=${rootOffset(raw)}`;
    const out: Record<string, string | null> = {};
    for (const p of guestPaths) {
      const r = spawnSync('debugfs', ['-R', `cat ${p}`, device], { encoding: 'utf8' });
      out[p] = /File not found/.test(r.stderr) ? null : r.stdout;
    }
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Host path of the domain's first `device='disk'` disk: its source file, or its pool volume's path. */
function firstDiskPath(domain: string): string {
  const xml = virsh('dumpxml', domain, '--inactive');
  const source = /<disk\b[^>]*device=['"]disk['"][^>]*>[\s\S]*?<source\b([^>]*)\/?>/.exec(xml)?.[1] ?? '';
  const attr = (name: string) => new RegExp(`\\b${name}=['"]([^'"]+)['"]`).exec(source)?.[1];
  const file = attr('file');
  if (file) return file;
  const [pool, volume] = [attr('pool'), attr('volume')];
  if (pool && volume) return virsh('vol-path', '--pool', pool, volume).trim();
  throw new Error(`domain ${domain} has no disk with a file or volume source:\n${xml}`);
}

/** Byte offset of the GPT partition named `root` (the test image's layout), else 0 (a bare file system). */
function rootOffset(raw: string): number {
  const r = spawnSync('sfdisk', ['-J', raw], { encoding: 'utf8' });
  if (r.status !== 0) return 0;
  const table = JSON.parse(r.stdout) as { partitiontable: { sectorsize?: number; partitions?: { start: number; name?: string }[] } };
  const root = table.partitiontable.partitions?.find((p) => p.name === 'root');
  return root ? root.start * (table.partitiontable.sectorsize ?? 512) : 0;
}

/** cloud-init's result (`/var/lib/cloud/data/result.json`): the errors of its stages; null when it never finished. */
export function cloudInitErrors(resultJson: string | null): string[] | null {
  if (resultJson === null) return null;
  return (JSON.parse(resultJson) as { v1: { errors: string[] } }).v1.errors;
}
