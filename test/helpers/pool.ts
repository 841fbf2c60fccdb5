/**
 * Storage pools for the e2e tests, through virsh: names, facts, and cleanup of the `vstest-` pools a test made
 * (their volumes, the pool, and a test directory under /var/lib/libvirt/images).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { virshOk } from './command';

const URI = 'qemu:///system';

// virsh that throws with its output when it fails: one of the shared commands (./command.ts).
export { virshOk };

function virsh(...args: string[]): string {
  return spawnSync('virsh', ['-c', URI, ...args], { encoding: 'utf8' }).stdout ?? '';
}

/** Names of libvirt storage pools that start with `prefix`. */
export function poolNames(prefix = ''): string[] {
  return virsh('pool-list', '--all', '--name')
    .split('\n')
    .map((s) => s.trim())
    .filter((s) => s && s.startsWith(prefix))
    .sort();
}

/** Names of the volumes of pool `name` (`virsh vol-list`), sorted. */
export function poolVolumes(name: string): string[] {
  return virshOk('vol-list', '--pool', name)
    .split('\n')
    .slice(2)
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter(Boolean)
    .sort();
}

/** `virsh pool-info --bytes` as key → value (`State`, `Autostart`, `Capacity`, ...). */
export function poolInfo(name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of virshOk('pool-info', '--bytes', name).split('\n')) {
    const m = /^([^:]+):\s*(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

/** The directory a test's dir pool `name` uses. */
export function testPoolDir(name: string): string {
  return `/var/lib/libvirt/images/${name}`;
}

/**
 * Removes every pool whose name starts with `prefix` (must start with `vstest-`): its volumes, the pool, and the
 * directories /var/lib/libvirt/images/<prefix>*.
 */
export function cleanupPoolsByPrefix(prefix: string): void {
  if (!prefix.startsWith('vstest-')) throw new Error('cleanupPoolsByPrefix only removes vstest- pools');
  for (const name of poolNames(prefix)) {
    virsh('pool-start', name);
    for (const line of virsh('vol-list', '--pool', name).split('\n').slice(2)) {
      const vol = line.trim().split(/\s+/)[0];
      if (vol) virsh('vol-delete', '--pool', name, vol);
    }
    virsh('pool-destroy', name);
    virsh('pool-undefine', name);
  }
  const images = '/var/lib/libvirt/images';
  if (fs.existsSync(images))
    for (const entry of fs.readdirSync(images))
      if (entry.startsWith(prefix)) fs.rmSync(`${images}/${entry}`, { recursive: true, force: true });
}
