/** The seed size rule (src/seed/private/size.ts, docs/seed-fidelity.md) applied to a spec's inputs and rendered files. */
import { error, warning, type AttributePath, type Diagnostic } from '../../diagnostics';
import type { SeedSpec } from '../model';
import { base64DecodedLength } from '../private/base64';
import { SEED_FILE_MAX_BYTES, SEED_MAX_BYTES, USER_DATA_WARN_BYTES } from '../private/size';

const MiB = 1024 * 1024;
const RULE =
  'seed size rule: each file cloud-init reads from the seed at most 64 MiB (user-data after gzip decompression), the seed at most 128 MiB in total';

function mib(n: number): string {
  return `${(n / MiB).toFixed(1)} MiB`;
}

/** How to move a large payload out of the seed, for the size rule's diagnostics. */
const DATA_VOLUME_HOW =
  'put it in a file system image (e.g. mkfs.ext4 -d DIR data.img 256M), upload that as a virtseed_volume (source = "data.img", format = "raw"; the Volume construct), attach it to the domain (disk { volume_id = virtseed_volume.data.id }) and mount it with the seed\'s mount block (device = "vdb", mount_point = "/srv/data")';

type SeedFileName = 'user-data' | 'network-config' | 'vendor-data';

/** An input that ends up in a seed file: where it is, which file, its text (undefined: none) and whether it is
 *  base64 of the bytes. */
interface SeedInput {
  readonly path: AttributePath;
  readonly file: SeedFileName;
  readonly text: string | undefined;
  readonly base64: boolean;
}

/** Every input of `spec` that ends up in a seed file, in attribute order. */
function seedInputs(spec: SeedSpec): SeedInput[] {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const out: SeedInput[] = [];
  if (typeof spec.user_data === 'string') out.push({ path: ['user_data'], file: 'user-data', text: spec.user_data, base64: false });
  if (typeof spec.user_data_base64 === 'string')
    out.push({ path: ['user_data_base64'], file: 'user-data', text: spec.user_data_base64, base64: true });
  if (Array.isArray(spec.files)) {
    spec.files.forEach((f, i) => {
      const plain = text(f?.content);
      out.push({ path: ['files', i], file: 'user-data', text: plain ?? text(f?.content_base64), base64: plain === undefined });
    });
  }
  if (Array.isArray(spec.user_data_parts)) {
    spec.user_data_parts.forEach((p, i) =>
      out.push({ path: ['user_data_parts', i, 'content'], file: 'user-data', text: text(p?.content), base64: false }),
    );
  }
  if (typeof spec.network_config === 'string')
    out.push({ path: ['network_config'], file: 'network-config', text: spec.network_config, base64: false });
  if (typeof spec.vendor_data === 'string') out.push({ path: ['vendor_data'], file: 'vendor-data', text: spec.vendor_data, base64: false });
  return out;
}

/** The inputs that end up in a seed file, with a lower bound of the bytes each contributes. */
function contributions(spec: SeedSpec): { path: AttributePath; bytes: number; file: SeedFileName }[] {
  return seedInputs(spec).map(({ path, file, text, base64 }) => ({
    path,
    file,
    bytes: text === undefined ? 0 : base64 ? base64DecodedLength(text) : Buffer.byteLength(text),
  }));
}

/**
 * A cheap estimate of a seed's size (bytes), for choosing how to build it, not for the rule: the lengths of the
 * text inputs that become seed files ({@link seedInputs}), read without scanning them (base64 counts as written:
 * user-data carries `write_files` content as base64). O(number of inputs). Pure.
 */
export function estimatedSeedBytes(spec: SeedSpec): number {
  return seedInputs(spec).reduce((n, input) => n + (input.text?.length ?? 0), 0);
}

/**
 * Errors for single inputs that already break the rule on their own, checked before anything is parsed (so an
 * oversized input is never parsed or rendered). Pure.
 */
export function inputSizeDiagnostics(spec: SeedSpec): Diagnostic[] {
  return contributions(spec)
    .filter((c) => c.bytes > SEED_FILE_MAX_BYTES)
    .map((c) =>
      error(
        c.path,
        'Seed too large',
        `This input alone puts ${mib(c.bytes)} into the seed's ${c.file}; the ${RULE}. To keep it out of the seed, ${DATA_VOLUME_HOW}.`,
      ),
    );
}

/**
 * The rule applied to the rendered files: `userDataPlainBytes` is the user-data before `user_data_gzip` (or the
 * decompressed raw user-data), `files` the seed's files. Errors point at the input that contributes most. Pure.
 */
export function seedSizeDiagnostics(
  spec: SeedSpec,
  userDataPlainBytes: number,
  files: readonly { path: string; content: { length: number } }[],
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const largestInput = (file: string) => {
    const own = contributions(spec).filter((c) => c.file === file);
    return own.length === 0 ? undefined : own.reduce((a, b) => (b.bytes > a.bytes ? b : a));
  };
  const largest = (file: string): AttributePath => largestInput(file)?.path ?? [];
  /** `files[1] (/opt/app.tar, 1.2 MiB)`, `user_data (1.1 MiB)`: the input, what it is, its size. */
  const describe = (c: { path: AttributePath; bytes: number }): string => {
    const [key, index] = c.path;
    const file = key === 'files' && typeof index === 'number' ? spec.files?.[index]?.path : undefined;
    const name = c.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
    return `${name} (${file ? `${file}, ` : ''}${mib(c.bytes)})`;
  };
  /** What to move out of the seed, and how. */
  const hint = (file: string): string => {
    const top = largestInput(file);
    return top
      ? `Its largest input is ${describe(top)}: to keep it out of the seed, ${DATA_VOLUME_HOW}.`
      : `To keep large payloads out of the seed, ${DATA_VOLUME_HOW}.`;
  };
  if (userDataPlainBytes > SEED_FILE_MAX_BYTES) {
    out.push(
      error(
        largest('user-data'),
        'Seed too large',
        `The user-data is ${mib(userDataPlainBytes)}${userDataPlainBytes === SEED_FILE_MAX_BYTES + 1 ? ' or more' : ''}; the ${RULE}. ${hint('user-data')}`,
      ),
    );
  } else if (userDataPlainBytes > USER_DATA_WARN_BYTES) {
    out.push(
      warning(
        largest('user-data'),
        'Large user-data',
        `The user-data is ${mib(userDataPlainBytes)} (over 1 MiB); cloud-init parses it slowly and holds several copies in memory. ${hint('user-data')}`,
      ),
    );
  }
  for (const f of files) {
    if (/user[-_]data$/.test(f.path) || f.content.length <= SEED_FILE_MAX_BYTES) continue;
    const file = /network/.test(f.path) ? 'network-config' : /vendor/.test(f.path) ? 'vendor-data' : 'meta-data';
    out.push(
      error(
        file === 'meta-data' ? ['meta_data'] : largest(file),
        'Seed too large',
        `The seed file ${f.path} is ${mib(f.content.length)}; the ${RULE}.`,
      ),
    );
  }
  const total = files.reduce((n, f) => n + f.content.length, 0);
  if (total > SEED_MAX_BYTES && !out.some((d) => d.severity === 'error')) {
    out.push(
      error(
        [],
        'Seed too large',
        `The seed files total ${mib(total)}; the ${RULE}. To keep large payloads out of the seed, ${DATA_VOLUME_HOW}.`,
      ),
    );
  }
  return out;
}
