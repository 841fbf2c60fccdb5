/** `virtseed seed show ISO`: lists and prints the files of a NoCloud or ConfigDrive ISO (ours or genisoimage's). */
import { formatOfVolumeId, readIso } from '../../src/seed';
import { readBinaryFile } from '../../src/seed/io';
import type { CliIo } from '../io';

export const SEED_SHOW_USAGE = 'usage: virtseed seed show ISO';

/** Exit codes: 0 shown, 1 unreadable image. Binary files are summarised, not printed. */
export function seedShow(args: { iso: string }, io: CliIo): number {
  let image;
  try {
    image = readIso(readBinaryFile(args.iso));
  } catch (e) {
    io.stderr(`${args.iso}: ${(e as Error).message}\n`);
    return 1;
  }
  const format = formatOfVolumeId(image.volumeId);
  io.stdout(`volume-id: ${image.volumeId}\nformat: ${format ?? 'unknown (not a cloud-init seed label)'}\n`);
  for (const f of image.files) io.stdout(`  ${f.path} (${f.content.length} bytes)\n`);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (const f of image.files) {
    let text: string | undefined;
    try {
      text = decoder.decode(f.content);
    } catch {
      text = undefined;
    }
    io.stdout(`\n==> ${f.path} <==\n`);
    if (f.content[0] === 0x1f && f.content[1] === 0x8b) io.stdout(`[gzip data, ${f.content.length} bytes]\n`);
    else if (text === undefined) io.stdout(`[binary data, ${f.content.length} bytes]\n`);
    else io.stdout(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  }
  return 0;
}
