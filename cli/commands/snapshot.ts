/**
 * `virtseed snapshot list|revert`: a domain's snapshots (virtseed_snapshot's and snapshot_before's) on a libvirt
 * host, and the explicit revert to one (src/ops/snapshots). Connects like the provider: `--uri`, default
 * `qemu:///system`.
 *
 *   virtseed snapshot list [--uri URI] [--json] DOMAIN
 *   virtseed snapshot revert [--uri URI] [--start] DOMAIN SNAPSHOT
 *
 * DOMAIN is a domain name or UUID. A revert restores the snapshot's disks and domain definition and, for a snapshot
 * with memory, resumes the guest; a snapshot of a shut-off guest leaves it shut off unless `--start`, after its seed
 * copy was written back into the seed volume. Terraform then shows what changed as drift on its next plan.
 * Exit codes: 0 done, 1 libvirt refused or failed, 2 usage (no such domain or snapshot).
 */
import { parseDomainXml } from '../../src/domain';
import { DEFAULT_LIBVIRT_URI } from '../../src/libvirt';
import { hasMemory, type SnapshotInfo } from '../../src/snapshot';
import { findSnapshot, listSnapshots, revertSnapshot } from '../../src/ops/snapshots';
import type { CliIo } from '../io';
import { withDomain } from './with-domain';

function instanceIdOf(info: SnapshotInfo): string | null {
  try {
    return info.domainXml ? (parseDomainXml(info.domainXml).metadata?.['instance-id'] ?? null) : null;
  } catch {
    return null;
  }
}

/** `virtseed snapshot list`: one line per snapshot (name, time, state, instance-id, description), or JSON. */
export function snapshotList(args: { uri?: string; json?: boolean; domain: string }, io: CliIo): Promise<number> {
  const uri = args.uri ?? DEFAULT_LIBVIRT_URI;
  return withDomain('virtseed snapshot', uri, args.domain, io, async (client, dom) => {
    const all = await listSnapshots(client, dom);
    const rows = all.map((s) => ({
      name: s.name,
      creation_time: new Date(s.creationTime * 1000).toISOString(),
      state: s.state,
      memory: hasMemory(s),
      instance_id: instanceIdOf(s),
      parent: s.parent ?? null,
      description: s.description ?? null,
    }));
    if (args.json) io.stdout(`${JSON.stringify(rows, null, 2)}\n`);
    else if (!rows.length) io.stdout(`domain ${dom.name} has no snapshots\n`);
    else
      for (const r of rows)
        io.stdout(
          `${r.name}\t${r.creation_time}\t${r.state}${r.memory ? ' (memory)' : ''}\t${r.instance_id ?? '-'}\t${r.description ?? ''}\n`,
        );
    return 0;
  });
}

/** `virtseed snapshot revert`. */
export function snapshotRevert(args: { uri?: string; start?: boolean; domain: string; snapshot: string }, io: CliIo): Promise<number> {
  const uri = args.uri ?? DEFAULT_LIBVIRT_URI;
  return withDomain('virtseed snapshot', uri, args.domain, io, async (client, dom) => {
    if (!(await findSnapshot(client, dom, args.snapshot))) {
      io.stderr(`virtseed snapshot revert: domain ${dom.name} has no snapshot ${args.snapshot} (virtseed snapshot list ${dom.name})\n`);
      return 2;
    }
    const r = await revertSnapshot(client, dom, args.snapshot, { start: args.start });
    const iid = instanceIdOf(r.info);
    io.stdout(`domain ${dom.name}: reverted to snapshot ${r.info.name} (${r.info.state}${iid ? `, instance-id ${iid}` : ''})\n`);
    if (r.seedRestored) io.stdout(`seed volume ${r.seedRestored.pool}/${r.seedRestored.name}: its content at the snapshot written back\n`);
    io.stdout(
      r.running
        ? `domain ${dom.name} is running${hasMemory(r.info) ? ' (resumed where the snapshot was taken)' : ''}\n`
        : `domain ${dom.name} is shut off (start it with --start, or virsh start ${dom.name})\n`,
    );
    io.stdout('terraform plan shows what differs from the configuration now (drift), and apply puts it back.\n');
    return 0;
  });
}
