/** Validation of `environment`, `files` and `mounts`, and of the final write_files list (duplicate paths). */
import { error, type AttributePath, type Diagnostic } from '../../diagnostics';
import type { SeedSpec } from '../model';
import { rawUserData } from '../user-data/raw';
import { ENVIRONMENT_PATH, MOUNT_SCRIPT_PATH } from '../user-data/generated';
import { effectiveGeneratedParts } from '../user-data/compose';
import { isBase64 } from '../private/base64';
import { DEVICE, ENV_NAME, OWNER, PERMISSIONS } from '../private/patterns';
import { isPlainObject, parseYaml } from '../private/yaml';

export function validateEnvironment(env: unknown): Diagnostic[] {
  if (env === undefined) return [];
  if (!isPlainObject(env)) return [error(['environment'], 'Invalid environment', 'environment must be a map of NAME: value strings.')];
  const out: Diagnostic[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (!ENV_NAME.test(k))
      out.push(error(['environment', k], 'Invalid environment variable name', `"${k}" must match [A-Za-z_][A-Za-z0-9_]*.`));
    if (typeof v !== 'string') out.push(error(['environment', k], 'Invalid environment value', 'Values must be strings.'));
    else if (/[\r\n\0]/.test(v))
      out.push(
        error(
          ['environment', k],
          'Invalid environment value',
          'Values may not contain line breaks or NUL (the file has one KEY=value per line).',
        ),
      );
  }
  return out;
}

/** `requireLoaded`: a remaining `source` is an error (the pure renderer cannot read it). */
export function validateFiles(files: unknown, requireLoaded: boolean): Diagnostic[] {
  if (files === undefined) return [];
  if (!Array.isArray(files)) return [error(['files'], 'Invalid files', 'files must be a list.')];
  const out: Diagnostic[] = [];
  files.forEach((f: unknown, i) => {
    const at = (...k: string[]) => ['files', i, ...k];
    if (!isPlainObject(f)) {
      out.push(error(at(), 'Invalid file', 'Each file must be an object {path, content | content_base64 | source, ...}.'));
      return;
    }
    out.push(...guestPath(f.path, at('path')));
    const given = (['content', 'content_base64', 'source'] as const).filter((k) => f[k] !== undefined);
    if (given.length !== 1) {
      out.push(
        error(
          at(),
          'File content',
          `Set exactly one of content, content_base64, source (got ${given.length ? given.join(', ') : 'none'}).`,
        ),
      );
    }
    for (const k of given) if (typeof f[k] !== 'string') out.push(error(at(k), `Invalid ${k}`, `${k} must be a string.`));
    if (typeof f.content_base64 === 'string' && !isBase64(f.content_base64)) {
      out.push(error(at('content_base64'), 'Invalid base64', 'content_base64 is not valid base64 (RFC 4648, padded).'));
    }
    if (requireLoaded && f.source !== undefined && given.length === 1) {
      out.push(
        error(
          at('source'),
          'File source not loaded',
          `source "${String(f.source)}" is read at build time: call loadSeedSources(spec) (src/seed/io.ts) before rendering.`,
        ),
      );
    }
    if (f.owner !== undefined && (typeof f.owner !== 'string' || !OWNER.test(f.owner))) {
      out.push(error(at('owner'), 'Invalid owner', `Got ${JSON.stringify(f.owner)}; expected "user" or "user:group".`));
    }
    out.push(...permissions(f.permissions, at('permissions')));
    for (const k of ['defer', 'append'] as const) {
      if (f[k] !== undefined && typeof f[k] !== 'boolean') out.push(error(at(k), `Invalid ${k}`, `${k} must be a boolean.`));
    }
  });
  return out;
}

export function permissions(value: unknown, path: AttributePath): Diagnostic[] {
  if (value === undefined) return [];
  return typeof value === 'string' && PERMISSIONS.test(value)
    ? []
    : [error(path, 'Invalid permissions', `Got ${JSON.stringify(value)}; expected an octal mode string like "0644" (3 or 4 digits 0–7).`)];
}

function guestPath(value: unknown, path: AttributePath): Diagnostic[] {
  if (typeof value !== 'string' || !value.startsWith('/') || /[\0\r\n]/.test(value) || value.split('/').includes('..')) {
    return [
      error(path, 'Invalid guest path', `Got ${JSON.stringify(value)}; expected an absolute path without "..", e.g. "/etc/app.conf".`),
    ];
  }
  return [];
}

export function validateMounts(mounts: unknown): Diagnostic[] {
  if (mounts === undefined) return [];
  if (!Array.isArray(mounts)) return [error(['mounts'], 'Invalid mounts', 'mounts must be a list.')];
  const out: Diagnostic[] = [];
  const points = new Set<string>();
  const links = new Set<string>();
  mounts.forEach((m: unknown, i) => {
    const at = (...k: string[]) => ['mounts', i, ...k];
    if (!isPlainObject(m)) {
      out.push(error(at(), 'Invalid mount', 'Each mount must be an object {device, mount_point?, symlink?, fs_type?, options?}.'));
      return;
    }
    if (typeof m.device !== 'string' || !DEVICE.test(m.device)) {
      out.push(
        error(
          at('device'),
          'Invalid device',
          `Got ${JSON.stringify(m.device)}; expected a device name like "vdb" or a path like "/dev/vdb".`,
        ),
      );
    }
    if (m.mount_point === undefined && m.symlink === undefined) {
      out.push(error(at(), 'Mount without target', 'Set mount_point (mount the device), symlink (a raw-device link), or both.'));
    }
    const mp = m.mount_point;
    if (mp !== undefined) {
      if (!isMountPath(mp)) {
        out.push(
          error(
            at('mount_point'),
            'Invalid mount point',
            `Got ${JSON.stringify(mp)}; expected an absolute path without spaces or "..", e.g. "/data".`,
          ),
        );
      } else if (points.has(mp)) {
        out.push(error(at('mount_point'), 'Duplicate mount point', `"${mp}" is used by an earlier mount.`));
      } else points.add(mp);
    }
    const link = m.symlink;
    if (link !== undefined) {
      if (!isMountPath(link) || link === '/' || link.endsWith('/')) {
        out.push(
          error(
            at('symlink'),
            'Invalid symlink path',
            `Got ${JSON.stringify(link)}; expected an absolute file path without spaces or "..", e.g. "/dev/disk/virtseed/data".`,
          ),
        );
      } else if (links.has(link)) {
        out.push(error(at('symlink'), 'Duplicate symlink', `"${link}" is used by an earlier mount.`));
      } else links.add(link);
    }
    if (m.fs_type !== undefined && (typeof m.fs_type !== 'string' || !/^[a-z0-9._-]+$/.test(m.fs_type))) {
      out.push(
        error(at('fs_type'), 'Invalid file system type', `Got ${JSON.stringify(m.fs_type)}; expected e.g. "ext4", "xfs" or "auto".`),
      );
    }
    if (m.options !== undefined && (typeof m.options !== 'string' || m.options === '' || /\s/.test(m.options))) {
      out.push(
        error(
          at('options'),
          'Invalid mount options',
          `Got ${JSON.stringify(m.options)}; expected comma-separated options without spaces, e.g. "defaults,noatime".`,
        ),
      );
    }
  });
  return out;
}

/** Absolute path without whitespace or `..` segments. */
function isMountPath(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('/') && !/\s/.test(value) && !value.split('/').includes('..');
}

interface WriteFileRef {
  guestPath: string;
  append: boolean;
  at: AttributePath;
}

/**
 * Duplicate guest paths in the final write_files list (after merging: sources concatenated, or with
 * merge_overwrite the last source with write_files wins, the generated parts that reach the guest counting as one
 * source; see compose.ts). The second of two entries for one path is an error unless it appends. Expects the
 * inputs already individually valid.
 */
export function duplicateWriteFiles(spec: SeedSpec): Diagnostic[] {
  const raw = rawUserData(spec);
  if (raw?.kind === 'raw' || raw?.kind === 'mime') return [];
  const kept = new Set(effectiveGeneratedParts(spec).kept.map((p) => p.name));
  const generated: WriteFileRef[] = [];
  if (kept.has('environment')) generated.push({ guestPath: ENVIRONMENT_PATH, append: false, at: ['environment'] });
  if (kept.has('files'))
    generated.push(...(spec.files ?? []).map((f, i) => ({ guestPath: f.path, append: f.append === true, at: ['files', i, 'path'] })));
  if (kept.has('mounts')) generated.push({ guestPath: MOUNT_SCRIPT_PATH, append: false, at: ['mounts'] });
  const sources: WriteFileRef[][] = [generated];
  sources.push(refsOf(spec.cloud_config?.write_files, ['cloud_config', 'write_files']));
  if (raw?.kind === 'cloud-config') {
    const parsed = parseYaml(raw.text as string).value;
    if (isPlainObject(parsed)) sources.push(refsOf(parsed.write_files, [raw.key, 'write_files']));
  }
  const nonEmpty = sources.filter((s) => s.length > 0);
  const final = spec.merge_overwrite ? nonEmpty.slice(-1).flat() : nonEmpty.flat();
  const seen = new Map<string, AttributePath>();
  const out: Diagnostic[] = [];
  for (const ref of final) {
    const first = seen.get(ref.guestPath);
    if (first && !ref.append) {
      out.push(
        error(
          ref.at,
          'Duplicate write_files path',
          `"${ref.guestPath}" is already written by ${formatAt(first)}; remove one, or set append: true on this one.`,
        ),
      );
    } else if (!first) seen.set(ref.guestPath, ref.at);
  }
  return out;
}

function refsOf(list: unknown, base: AttributePath): WriteFileRef[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((w: unknown, i) =>
    isPlainObject(w) && typeof w.path === 'string' ? [{ guestPath: w.path, append: w.append === true, at: [...base, i, 'path'] }] : [],
  );
}

function formatAt(path: AttributePath): string {
  return path
    .map((p) => (typeof p === 'number' ? `[${p}]` : p))
    .join('.')
    .replace(/\.\[/g, '[');
}
