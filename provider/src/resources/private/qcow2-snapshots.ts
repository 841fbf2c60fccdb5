/**
 * Whether a qcow2 volume can grow: QEMU refuses to resize a version 2 qcow2 image (compat 0.10, libvirt's default
 * for the qcow2 volumes it creates unless told `<compat>1.1</compat>`) that holds internal snapshots ("Can't resize
 * a v2 image which has snapshots"); a version 3 image grows with them. Read from the image header
 * (src/snapshot/qcow2.ts parseQcow2Header). Pure but for
 * {@link qcow2GrowBlocker}, which reads the header over libvirt.
 */
import { error, type Diagnostic } from '../../../../src/diagnostics';
import type { CallOptions, LibvirtClient, VolRef } from '../../../../src/libvirt';
import { parseQcow2Header, QCOW2_HEADER_BYTES } from '../../../../src/snapshot';

/** The qcow2 `version` and `nb_snapshots` of an image's first bytes (src/snapshot/qcow2.ts), or null when they are no qcow2 header. */
export function qcow2Snapshots(head: Uint8Array): { version: number; snapshots: number } | null {
  try {
    const h = parseQcow2Header(head);
    return { version: h.version, snapshots: h.nbSnapshots };
  } catch {
    return null; // too few bytes, or not a qcow2 image (a raw volume)
  }
}

/**
 * The plan's error on `capacity` when volume `where` (`pool/name`), with header `head`, cannot grow from `before` to
 * `after` bytes because it is a version 2 qcow2 image holding internal snapshots; else null.
 */
export function growBlockedDiagnostic(where: string, head: Uint8Array, before: number, after: number): Diagnostic | null {
  const h = qcow2Snapshots(head);
  if (!h || h.version >= 3 || h.snapshots === 0 || after <= before) return null;
  return error(
    ['capacity'],
    'Cannot grow a qcow2 volume that has snapshots',
    `capacity goes from ${before} to ${after} bytes, but volume ${where} is a version 2 qcow2 image (compat 0.10) holding ${h.snapshots} internal snapshot(s), and QEMU grows such an image only without snapshots ("Can't resize a v2 image which has snapshots"). Delete its snapshots first (the virtseed_snapshot resources of the domain that uses it, and snapshot_before's virtseed-auto-N: virtseed snapshot list), or replace the volume (terraform apply -replace=ADDRESS): virtseed creates qcow2 volumes as version 3 (compat 1.1), which grow with snapshots.`,
  );
}

/** growBlockedDiagnostic for volume `vol` as libvirt has it now (its header read over libvirt). */
export async function qcow2GrowBlocker(
  client: LibvirtClient,
  vol: VolRef,
  before: number,
  after: number,
  options?: CallOptions,
): Promise<Diagnostic | null> {
  if (after <= before) return null;
  const head = await client.storageVolDownload(vol, 0, QCOW2_HEADER_BYTES, options);
  return growBlockedDiagnostic(`${vol.pool}/${vol.name}`, head, before, after);
}
