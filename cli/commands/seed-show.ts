/**
 * `virtseed seed show [--json] ISO`: lists and prints the files of a NoCloud or ConfigDrive ISO (ours,
 * cloud-localds's or genisoimage's).
 *
 * `--json` prints one object: `{"volume_id", "format": "nocloud"|"configdrive"|null, "files": [{"path", "size",
 * "sha256", "encoding": "utf-8"|"base64", "content"}]}`, files sorted by path; text files as UTF-8, anything
 * else (gzip user-data, binary files) as base64.
 */
import { createHash } from 'node:crypto';
import { formatOfVolumeId, readIso } from '../../src/seed';
import { readBinaryFile } from '../../src/seed/io';
import type { SeedFormat } from '../../src/seed/model/seed';
import type { CliIo } from '../io';

/** One file of `seed show --json`. */
export interface ShownFile {
  path: string;
  /** Bytes. */
  size: number;
  /** Lower-case hex sha256 of the bytes. */
  sha256: string;
  encoding: 'utf-8' | 'base64';
  content: string;
}

/** The document `seed show --json` prints. */
export interface ShownSeed {
  volume_id: string;
  format: SeedFormat | null;
  files: ShownFile[];
}

function utf8(content: Uint8Array): string | undefined {
  if (content[0] === 0x1f && content[1] === 0x8b) return undefined; // gzip
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return undefined;
  }
}

/** Exit codes: 0 shown, 1 unreadable image. Without `json`, binary files are summarised, not printed. */
export function seedShow(args: { iso: string; json?: boolean }, io: CliIo): number {
  let image;
  try {
    image = readIso(readBinaryFile(args.iso));
  } catch (e) {
    io.stderr(`${args.iso}: ${(e as Error).message}\n`);
    return 1;
  }
  const format = formatOfVolumeId(image.volumeId);
  if (args.json) {
    const shown: ShownSeed = {
      volume_id: image.volumeId,
      format: format ?? null,
      files: image.files.map((f) => {
        const text = utf8(f.content);
        return {
          path: f.path,
          size: f.content.length,
          sha256: createHash('sha256').update(f.content).digest('hex'),
          encoding: text === undefined ? 'base64' : 'utf-8',
          content: text ?? Buffer.from(f.content).toString('base64'),
        };
      }),
    };
    io.stdout(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  io.stdout(`volume-id: ${image.volumeId}\nformat: ${format ?? 'unknown (not a cloud-init seed label)'}\n`);
  for (const f of image.files) io.stdout(`  ${f.path} (${f.content.length} bytes)\n`);
  for (const f of image.files) {
    const text = utf8(f.content);
    io.stdout(`\n==> ${f.path} <==\n`);
    if (f.content[0] === 0x1f && f.content[1] === 0x8b) io.stdout(`[gzip data, ${f.content.length} bytes]\n`);
    else if (text === undefined) io.stdout(`[binary data, ${f.content.length} bytes]\n`);
    else io.stdout(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  }
  return 0;
}
