/**
 * The seed generator's only filesystem module: reads local files named by a spec (`files[].source`), spec files,
 * and reads/writes ISO images. Everything else in src/seed is pure.
 */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { error, ValidationError } from '../diagnostics';
import type { SeedSpec } from './model';
import { parseYaml } from './private/yaml';

/**
 * A copy of `spec` with every `files[].source` read and replaced by `content_base64` (so binary files survive).
 * Relative sources resolve against `baseDir` (default: the process working directory).
 * Throws `ValidationError` (path `['files', i, 'source']`) when a file cannot be read.
 */
export function loadSeedSources(spec: SeedSpec, baseDir: string = process.cwd()): SeedSpec {
  if (!spec.files || !spec.files.some((f) => f.source !== undefined)) return spec;
  const failures: ReturnType<typeof error>[] = [];
  const files = spec.files.map((f, i) => {
    if (f.source === undefined) return f;
    const { source, ...rest } = f;
    try {
      return { ...rest, content_base64: readFileSync(resolve(baseDir, source)).toString('base64') };
    } catch (e) {
      failures.push(error(['files', i, 'source'], 'Cannot read file source', `${source}: ${(e as Error).message}`));
      return f;
    }
  });
  if (failures.length > 0) throw new ValidationError(failures);
  return { ...spec, files };
}

/**
 * Reads a SeedSpec from a `.json`, `.yaml` or `.yml` file (YAML is a superset of JSON, so any of them parses) and
 * loads its file sources relative to the spec file's directory. Throws `ValidationError` on unreadable files or
 * YAML syntax errors (line and column in the detail).
 */
export function readSeedSpecFile(path: string): SeedSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ValidationError([error([], 'Cannot read spec file', `${path}: ${(e as Error).message}`)]);
  }
  const parsed = parseYaml(text);
  if (parsed.problems.length > 0) {
    throw new ValidationError(parsed.problems.map((p) => error([], 'Invalid spec file', `${path}:${p.line}:${p.col}: ${p.message}`)));
  }
  return loadSeedSources((parsed.value ?? {}) as SeedSpec, dirname(resolve(path)));
}

/** Writes bytes atomically (temporary file in the same directory, then rename). */
export function writeFileAtomic(path: string, data: Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/** Reads a whole file (e.g. an ISO image) into memory. */
export function readBinaryFile(path: string): Uint8Array {
  return new Uint8Array(readFileSync(path));
}
