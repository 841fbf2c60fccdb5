/**
 * Maps diagnostics of the shared pure code (paths in its own input shape) onto Terraform attribute paths of a
 * resource. Paths that go inside a string attribute (e.g. into the parsed `cloud_config` JSON) stop at that
 * attribute; the inner path goes into the detail text, since Terraform cannot point inside a string.
 */
import { Diagnostic, formatPath } from '../../../../src/diagnostics';

export interface PathMapping {
  /** Input key → Terraform attribute/block name, per depth-independent key (e.g. files → file). */
  readonly rename?: Readonly<Record<string, string>>;
  /** Terraform attributes holding a string whose inside is structured (JSON/YAML): paths stop there. */
  readonly opaque?: readonly string[];
}

/** Rewrites one diagnostic's path with `mapping`. */
export function mapDiagnostic(d: Diagnostic, mapping: PathMapping, prefix: (string | number)[] = []): Diagnostic {
  d = { ...d, detail: renameInText(d.detail, mapping) };
  const out: (string | number)[] = [...prefix];
  for (let i = 0; i < d.path.length; i++) {
    const step = d.path[i];
    const name = typeof step === 'string' ? (mapping.rename?.[step] ?? step) : step;
    out.push(name);
    if (typeof name === 'string' && mapping.opaque?.includes(name) && out.length === prefix.length + 1 && i < d.path.length - 1) {
      const inner = d.path.slice(i + 1);
      return { ...d, path: out, detail: `At ${formatPath([name, ...inner])}: ${d.detail}` };
    }
  }
  return { ...d, path: out };
}

/** Rewrites all diagnostics' paths. */
export function mapDiagnostics(ds: readonly Diagnostic[], mapping: PathMapping, prefix: (string | number)[] = []): Diagnostic[] {
  return ds.map((d) => mapDiagnostic(d, mapping, prefix));
}

/** Renames input keys written as `files[0]`/`files.` in message text to their Terraform names (`file[0]`). */
function renameInText(text: string, mapping: PathMapping): string {
  let out = text;
  for (const [from, to] of Object.entries(mapping.rename ?? {})) out = out.replace(new RegExp(`\\b${from}(?=[\\[.])`, 'g'), to);
  return out;
}
