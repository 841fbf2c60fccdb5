/**
 * `virtseed backup create|list|verify|prune|restore-disk`: backups of a running domain's disks (with its definition,
 * seed and NVRAM) into a directory on its libvirt host, full or incremental (src/ops/backups; docs/backups.md).
 * `create` connects like the provider (`--uri`, default `qemu:///system`) and must run on that host: QEMU writes
 * the disk copies into `--dir`, and this process hashes them.
 *
 *   virtseed backup create [--uri URI] --dir DIR [--full] [--json] DOMAIN
 *   virtseed backup list --dir DIR [--json] DOMAIN
 *   virtseed backup verify --dir DIR [--backup ID] [--json] DOMAIN
 *   virtseed backup prune --dir DIR --keep N [--uri URI] DOMAIN
 *   virtseed backup restore-disk --dir DIR --backup ID --disk TARGET --output FILE DOMAIN
 *
 * Exit codes: 0 done (verify: every file matches), 1 libvirt refused or failed, or verify found a mismatch or a
 * broken chain, 2 usage (no such domain or backup, bad --keep).
 */
import { DEFAULT_LIBVIRT_URI, type DomRef, type LibvirtClient } from '../../src/libvirt';
import { BrokenChainError } from '../../src/backup';
import { BackupRefusedError, createBackup, pruneBackups, readBackups, restoreDisk, verifyBackups } from '../../src/ops/backups';
import type { CliIo } from '../io';
import { withDomain } from './with-domain';

/** withDomain for `virtseed backup CMD`: a BackupRefusedError is a refusal (exit 1) too. */
const backupDomain = (cmd: string, uri: string, ref: string, io: CliIo, then: (client: LibvirtClient, dom: DomRef) => Promise<number>) =>
  withDomain(`virtseed backup ${cmd}`, uri, ref, io, then, (err): err is Error => err instanceof BackupRefusedError);

const mib = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MiB`;

/** `virtseed backup create`: the next backup (incremental when it can be, or full with `--full`). */
export function backupCreate(
  args: { uri?: string; dir: string; full?: boolean; json?: boolean; domain: string },
  io: CliIo,
): Promise<number> {
  const uri = args.uri ?? DEFAULT_LIBVIRT_URI;
  return backupDomain('create', uri, args.domain, io, async (client, dom) => {
    const r = await createBackup(client, dom, args.dir, { full: args.full, now: () => new Date() });
    if (args.json) {
      io.stdout(`${JSON.stringify({ ...r.manifest, dir: r.dir, reason: r.decision.reason, jobSeconds: r.jobSeconds }, null, 2)}\n`);
      return 0;
    }
    const total = r.manifest.files.reduce((n, f) => n + f.bytes, 0);
    io.stdout(`domain ${dom.name}: backup ${r.manifest.id} in ${r.dir} (${r.decision.reason})\n`);
    io.stdout(
      `  ${r.manifest.files.length} files, ${mib(total)}, job ${r.jobSeconds.toFixed(1)} s, ${r.manifest.consistency}-consistent${r.manifest.consistencyNote ? ` (${r.manifest.consistencyNote})` : ''}\n`,
    );
    for (const s of r.manifest.skipped) io.stdout(`  not backed up: ${s.target} (${s.reason})\n`);
    return 0;
  });
}

/** `virtseed backup list`: one line per backup (id, parent, time, consistency, bytes). */
export async function backupList(args: { dir: string; json?: boolean; domain: string }, io: CliIo): Promise<number> {
  const all = await readBackups(args.dir, args.domain);
  if (args.json) io.stdout(`${JSON.stringify(all, null, 2)}\n`);
  else if (!all.length) io.stdout(`domain ${args.domain} has no backups in ${args.dir}\n`);
  else
    for (const m of all)
      io.stdout(
        `${m.id}\t${m.parent ?? '-'}\t${m.takenAt}\t${m.consistency}\t${mib(m.files.reduce((n, f) => n + f.bytes, 0))}\t${m.domain.instanceId ?? '-'}\n`,
      );
  return 0;
}

/** `virtseed backup verify`: recomputes every file's sha256; exit 1 when one differs or a chain is broken. */
export async function backupVerify(args: { dir: string; backup?: string; json?: boolean; domain: string }, io: CliIo): Promise<number> {
  let v;
  try {
    v = await verifyBackups(args.dir, args.domain, args.backup);
  } catch (err) {
    io.stderr(`virtseed backup verify: ${(err as Error).message}\n`);
    return 2;
  }
  const ok = !v.mismatches.length && !v.broken.length;
  if (args.json) io.stdout(`${JSON.stringify({ ok, ...v }, null, 2)}\n`);
  else {
    for (const m of v.mismatches) io.stdout(`${m.backup}/${m.name}: ${m.problem} (expected ${m.expected}, found ${m.actual})\n`);
    for (const b of v.broken) io.stdout(`${b.backup}: ${b.problem}\n`);
    io.stdout(
      `${ok ? 'ok' : 'FAILED'}: ${v.checked.length} backups checked, ${v.mismatches.length} files differ, ${v.broken.length} broken chains\n`,
    );
  }
  return ok ? 0 : 1;
}

/** `virtseed backup prune`: keeps the `keep` latest backups and what they need. */
export async function backupPrune(args: { uri?: string; dir: string; keep: string; domain: string }, io: CliIo): Promise<number> {
  const keep = Number(args.keep);
  if (!Number.isInteger(keep) || keep < 1) {
    io.stderr(`virtseed backup prune: --keep ${args.keep}: expected a whole number of at least 1\n`);
    return 2;
  }
  const report = (sel: { keep: string[]; remove: string[] }): number => {
    io.stdout(`kept ${sel.keep.join(', ') || 'none'}; removed ${sel.remove.join(', ') || 'none'}\n`);
    return 0;
  };
  if (!args.uri) return report(await pruneBackups(args.dir, args.domain, keep));
  return backupDomain('prune', args.uri, args.domain, io, async (client, dom) =>
    report(await pruneBackups(args.dir, args.domain, keep, { client, dom })),
  );
}

/** `virtseed backup restore-disk`: one disk as it was at a backup, into a new qcow2 file. */
export async function backupRestoreDisk(
  args: { dir: string; backup: string; disk: string; output: string; domain: string },
  io: CliIo,
): Promise<number> {
  try {
    const r = await restoreDisk(args.dir, args.domain, args.backup, args.disk, args.output);
    io.stdout(
      `${args.output}: disk ${args.disk} of ${args.domain} at ${args.backup} (from ${r.chain.join(' + ')}; read ${mib(r.readBytes)}, wrote ${mib(r.writtenBytes)}, ${r.seconds.toFixed(1)} s)\n`,
    );
    return 0;
  } catch (err) {
    io.stderr(`virtseed backup restore-disk: ${(err as Error).message}\n`);
    return err instanceof BrokenChainError ? 2 : 1;
  }
}
