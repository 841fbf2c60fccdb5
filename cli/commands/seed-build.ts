/** `virtseed seed build SPEC -o ISO [--format nocloud|configdrive]`: a seed ISO from a SeedSpec file (JSON/YAML). */
import { formatPath, ValidationError, type Diagnostic } from '../../src/diagnostics';
import { CLOUDINIT_SEED_FIELDS, isOneOf, valuesOf } from '../../src/fields';
import { tryBuildSeedIso } from '../../src/seed';

/** The seed formats: the table's values (src/fields/cloudinit-seed.ts). */
const SEED_FORMATS = valuesOf(CLOUDINIT_SEED_FIELDS.fields.format);
import { writeFileAtomic } from '../../src/seed/io';
import type { CliIo } from '../io';
import { readSpecFile } from '../spec-file';

/** Exit codes: 0 built, 1 I/O failure, 2 invalid input or usage. */
export function seedBuild(args: { spec: string; output: string; format?: string }, io: CliIo): number {
  const format = args.format;
  if (format !== undefined && !isOneOf(SEED_FORMATS, format)) {
    io.stderr(`--format: expected ${SEED_FORMATS.join(' or ')} (got ${format})\n`);
    return 2;
  }
  try {
    const loaded = readSpecFile(args.spec);
    const spec = format ? { ...loaded, format } : loaded;
    const { diagnostics, built } = tryBuildSeedIso(spec);
    printDiagnostics(
      diagnostics.filter((d) => d.severity === 'warning'),
      io,
      args.spec,
    );
    if (!built) {
      printDiagnostics(
        diagnostics.filter((d) => d.severity === 'error'),
        io,
        args.spec,
      );
      return 2;
    }
    writeFileAtomic(args.output, built.iso);
    io.stdout(`instance-id: ${built.instanceId}\nsha256: ${built.sha256}\n`);
    return 0;
  } catch (e) {
    if (e instanceof ValidationError) {
      // the spec file could not be read or is no spec (readSpecFile)
      printDiagnostics(
        e.diagnostics.filter((d) => d.severity === 'error'),
        io,
        args.spec,
      );
      return 2;
    }
    io.stderr(`${(e as Error).message}\n`);
    return 1;
  }
}

/** One `path: message` line per diagnostic (warnings prefixed `warning: `); `whole` names the input when the
 *  path is empty. */
function printDiagnostics(diagnostics: readonly Diagnostic[], io: CliIo, whole = '(spec)'): void {
  for (const d of diagnostics) {
    const where = d.path.length ? formatPath(d.path) : whole;
    io.stderr(`${d.severity === 'warning' ? 'warning: ' : ''}${where}: ${d.summary}: ${d.detail}\n`);
  }
}
