/**
 * Bytes written into a running domain's disk through QEMU, as a guest's writes go (QEMU's block layer: a
 * checkpoint's dirty bitmap records them), with no guest booted: HMP `qemu-io -d` on the disk's device. The device's
 * own block backend may write; a new backend on the node (`qemu-io libvirt-1-format`) may not (the device does not
 * share write: QEMU answers "Permission conflict" and writes nothing). No jest in here: the benches use it too.
 */
import { commandOk } from './command';

/** Runs one HMP command on a domain; its output. */
export type Hmp = (command: string) => string;

/** HMP through `virsh -c uri qemu-monitor-command domain --hmp`. @throws Error with virsh's output when it fails. */
export function virshHmp(domain: string, uri = 'qemu:///system'): Hmp {
  return (command) => commandOk('virsh', ['-c', uri, 'qemu-monitor-command', domain, '--hmp', command], 120_000);
}

/**
 * Writes `length` bytes of `pattern` at `offset` of the disk whose image file is named `image` (its base name, e.g.
 * `web.qcow2`; the device from HMP `info block`, "Attached to"). Numbers as qemu-io reads them: `0xab`, `4M`, 8388608.
 * @throws Error with `info block` when no device has that image, and with QEMU's answer when the write fails.
 */
export function writeThroughQemu(hmp: Hmp, image: string, pattern: string, offset: number | string, length: number | string): void {
  const blocks = hmp('info block');
  const escaped = image.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const device = new RegExp(`/${escaped} \\(\\w+\\)\\s+Attached to:\\s+(\\S+)`).exec(blocks)?.[1];
  if (!device) throw new Error(`no device has the image ${image} (HMP info block):\n${blocks}`);
  const out = hmp(`qemu-io -d ${device} "write -P ${pattern} ${offset} ${length}"`);
  if (/error|failed|conflict/i.test(out)) throw new Error(`qemu-io write -P ${pattern} ${offset} ${length} on ${device} failed: ${out}`);
}
