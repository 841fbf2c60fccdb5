/**
 * Keeps the QEMU logs of a test's own libvirtd (test/helpers/hosts.ts, test/faults/own-libvirtd.ts) for the timing
 * table before the daemon's folder is removed: scripts/test-all.sh sets `VIRTSEED_TEST_QEMU_LOGS` (a folder), and
 * scripts/test-timings.ts counts the QEMU starts in the logs kept there beside the system daemon's. libvirt writes
 * one `<domain>.log` per domain (its start lines and QEMU's command lines); the guests' console logs
 * (`*-console.log`, written by our domains' serial devices) are not kept.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Copies the `*.log` files of `logDir` (a daemon's QEMU log folder; missing: nothing to keep) except console logs
 * into `$VIRTSEED_TEST_QEMU_LOGS/<label>/` when that variable is set. `label`: unique per daemon (letters, digits,
 * `-`). Never throws: the timing table then lacks those starts, and the test's own outcome is what counts.
 */
export function keepQemuLogs(logDir: string, label: string): void {
  const keep = process.env.VIRTSEED_TEST_QEMU_LOGS;
  if (!keep) return;
  try {
    const logs = fs.readdirSync(logDir).filter((n) => n.endsWith('.log') && !n.endsWith('-console.log'));
    if (!logs.length) return;
    const to = path.join(keep, label);
    fs.mkdirSync(to, { recursive: true });
    // A daemon restarted in the same file appends to the same log: the copy replaces the older one.
    for (const n of logs) fs.copyFileSync(path.join(logDir, n), path.join(to, n));
  } catch {
    // missing folder or unreadable log: nothing kept
  }
}
