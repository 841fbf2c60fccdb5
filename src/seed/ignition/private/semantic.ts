/**
 * Checks beyond the JSON Schema, after the rules of Ignition's own config validation (spec 3.x): absolute and
 * unique node paths, mode range, resource URLs (scheme per version, valid `data:` URLs), compression, hashes,
 * node owners, link targets, systemd unit and drop-in names, unique names. Each check looks only at values of the
 * right type; wrong types are the schema's to report.
 */
import { posix } from 'node:path';
import { error, formatPath, warning, type AttributePath, type Diagnostic } from '../../../diagnostics';
import { parseDataUrl } from '../dataUrl';
import type { IgnitionVersion } from '../types';
import { atLeast } from '../versions';

type Obj = Record<string, unknown>;

const UNIT_SUFFIXES = [
  '.service',
  '.socket',
  '.device',
  '.mount',
  '.automount',
  '.swap',
  '.target',
  '.path',
  '.timer',
  '.snapshot',
  '.slice',
  '.scope',
];

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Semantic diagnostics of `config` (a JSON object already known to carry a supported `version`). */
export function semanticDiagnostics(config: Obj, version: IgnitionVersion): Diagnostic[] {
  const out: Diagnostic[] = [];
  const ign = isObj(config.ignition) ? config.ignition : {};
  const cfg = isObj(ign.config) ? ign.config : {};
  arr(cfg.merge).forEach((r, i) => checkResource(r, ['ignition', 'config', 'merge', i], version, out));
  if (cfg.replace !== undefined) checkResource(cfg.replace, ['ignition', 'config', 'replace'], version, out);
  const tls = isObj(ign.security) && isObj(ign.security.tls) ? ign.security.tls : {};
  arr(tls.certificateAuthorities).forEach((r, i) =>
    checkResource(r, ['ignition', 'security', 'tls', 'certificateAuthorities', i], version, out),
  );
  const timeouts = isObj(ign.timeouts) ? ign.timeouts : {};
  for (const k of ['httpResponseHeaders', 'httpTotal']) {
    const t = timeouts[k];
    if (typeof t === 'number' && t < 0) {
      out.push(error(['ignition', 'timeouts', k], 'Invalid timeout', `Given ${t}; expected seconds >= 0 (0 means none).`));
    }
  }
  if (isObj(config.storage)) checkStorage(config.storage, version, out);
  if (isObj(config.systemd)) checkSystemd(config.systemd, out);
  if (isObj(config.passwd)) checkPasswd(config.passwd, out);
  return out;
}

function checkStorage(storage: Obj, version: IgnitionVersion, out: Diagnostic[]): void {
  const seen = new Map<string, AttributePath>();
  for (const kind of ['files', 'directories', 'links'] as const) {
    arr(storage[kind]).forEach((node, i) => {
      if (!isObj(node)) return;
      const at: AttributePath = ['storage', kind, i];
      checkNodePath(node.path, [...at, 'path'], seen, out);
      for (const who of ['user', 'group'] as const) {
        const o = node[who];
        if (isObj(o) && o.id != null && o.name != null) {
          out.push(
            error(
              [...at, who],
              'Owner given twice',
              `Both ${who}.id (${String(o.id)}) and ${who}.name (${JSON.stringify(o.name)}) are set; give only one.`,
            ),
          );
        }
      }
      if (kind !== 'links') checkMode(node.mode, [...at, 'mode'], version, out);
      if (kind === 'files') checkFile(node, at, version, out);
      if (kind === 'links' && (node.target === undefined || node.target === null || node.target === '')) {
        out.push(
          error(
            [...at, 'target'],
            'Missing link target',
            `Link ${JSON.stringify(node.path)} has no target; set "target" to the path it points to.`,
          ),
        );
      }
    });
  }
  uniqueBy(storage.disks, 'device', ['storage', 'disks'], 'disk device', out);
  uniqueBy(storage.raid, 'name', ['storage', 'raid'], 'RAID name', out);
  uniqueBy(storage.luks, 'name', ['storage', 'luks'], 'LUKS name', out);
  uniqueBy(storage.filesystems, 'device', ['storage', 'filesystems'], 'filesystem device', out);
  arr(storage.filesystems).forEach((fs, i) => {
    if (!isObj(fs)) return;
    if (typeof fs.path === 'string' && fs.path !== '' && !fs.path.startsWith('/')) {
      out.push(
        error(
          ['storage', 'filesystems', i, 'path'],
          'Path not absolute',
          `Given ${JSON.stringify(fs.path)}; expected an absolute mount point such as "/var/data".`,
        ),
      );
    }
    const formats = ['ext4', 'btrfs', 'xfs', 'vfat', 'swap', ...(atLeast(version, '3.3.0') ? ['none'] : [])];
    if (typeof fs.format === 'string' && fs.format !== '' && !formats.includes(fs.format)) {
      out.push(
        error(
          ['storage', 'filesystems', i, 'format'],
          'Invalid filesystem format',
          `Given ${JSON.stringify(fs.format)}; spec ${version} accepts ${formats.join(', ')}.`,
        ),
      );
    }
  });
  arr(storage.luks).forEach((l, i) => {
    if (isObj(l) && l.keyFile !== undefined) checkResource(l.keyFile, ['storage', 'luks', i, 'keyFile'], version, out);
  });
}

function checkNodePath(p: unknown, at: AttributePath, seen: Map<string, AttributePath>, out: Diagnostic[]): void {
  if (typeof p !== 'string') return;
  if (!p.startsWith('/')) {
    out.push(error(at, 'Path not absolute', `Given ${JSON.stringify(p)}; expected an absolute path such as "/etc/hostname".`));
    return;
  }
  const key = posix.normalize(p).replace(/(.)\/+$/, '$1');
  const first = seen.get(key);
  if (first) {
    out.push(
      error(
        at,
        'Duplicate path',
        `${JSON.stringify(p)} is already used at ${formatPath(first)}; every file, directory and link needs its own path.`,
      ),
    );
  } else {
    seen.set(key, at);
  }
}

function checkMode(mode: unknown, at: AttributePath, version: IgnitionVersion, out: Diagnostic[]): void {
  if (typeof mode !== 'number' || !Number.isInteger(mode)) return;
  if (mode < 0 || mode > 0o7777) {
    out.push(
      error(
        at,
        'Invalid mode',
        `Given ${mode} (octal ${mode.toString(8)}); expected a decimal number from 0 to 4095 (octal 7777), e.g. 420 for 0644.`,
      ),
    );
  } else if (mode > 0o777 && !atLeast(version, '3.4.0')) {
    out.push(
      warning(
        at,
        'Special mode bits ignored',
        `Mode ${mode} (octal ${mode.toString(8)}) sets setuid/setgid/sticky bits, which spec ${version} does not support; use spec 3.4.0 or later, or drop them.`,
      ),
    );
  }
}

function checkFile(file: Obj, at: AttributePath, version: IgnitionVersion, out: Diagnostic[]): void {
  if (file.contents !== undefined) checkResource(file.contents, [...at, 'contents'], version, out);
  arr(file.append).forEach((r, j) => checkResource(r, [...at, 'append', j], version, out));
  const source = isObj(file.contents) ? file.contents.source : undefined;
  if (file.overwrite === true && (source === undefined || source === null)) {
    out.push(
      error(
        [...at, 'overwrite'],
        'Overwrite without contents',
        'overwrite is true but contents.source is not set; set contents.source or overwrite: false.',
      ),
    );
  }
}

function schemesFor(version: IgnitionVersion): string[] {
  return [
    'http',
    'https',
    'tftp',
    's3',
    'data',
    ...(atLeast(version, '3.2.0') ? ['gs'] : []),
    ...(atLeast(version, '3.4.0') ? ['arn'] : []),
  ];
}

function checkResource(r: unknown, at: AttributePath, version: IgnitionVersion, out: Diagnostic[]): void {
  if (!isObj(r)) return;
  const { source, compression } = r;
  let scheme = '';
  if (typeof source === 'string' && source !== '') {
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(source);
    scheme = m ? m[1].toLowerCase() : '';
    const schemes = schemesFor(version);
    if (!schemes.includes(scheme)) {
      out.push(
        error(
          [...at, 'source'],
          'Unsupported URL scheme',
          `Given ${JSON.stringify(truncate(source))}; spec ${version} fetches ${schemes.map((s) => `${s}:`).join(', ')} URLs.`,
        ),
      );
    } else if (scheme === 'data') {
      try {
        parseDataUrl(source);
      } catch (e) {
        out.push(
          error(
            [...at, 'source'],
            'Invalid data URL',
            `${JSON.stringify(truncate(source))} ${(e as Error).message}; expected "data:,<percent-encoded>" or "data:;base64,<base64>" (RFC 2397).`,
          ),
        );
      }
    }
  }
  if (typeof compression === 'string' && compression !== '') {
    if (compression !== 'gzip') {
      out.push(error([...at, 'compression'], 'Invalid compression', `Given ${JSON.stringify(compression)}; expected "gzip" or none.`));
    } else if (scheme === 's3') {
      out.push(
        error(
          [...at, 'compression'],
          'Compression with S3',
          'Ignition cannot decompress s3: sources; store the object uncompressed and drop "compression".',
        ),
      );
    }
  }
  const hash = isObj(r.verification) ? r.verification.hash : undefined;
  if (typeof hash === 'string') checkHash(hash, [...at, 'verification', 'hash'], version, out);
}

function checkHash(hash: string, at: AttributePath, version: IgnitionVersion, out: Diagnostic[]): void {
  const sizes: Record<string, number> = { sha512: 128, ...(atLeast(version, '3.1.0') ? { sha256: 64 } : {}) };
  const m = /^([a-z0-9]+)-(.*)$/.exec(hash);
  const want = m ? sizes[m[1]] : undefined;
  if (!m || want === undefined) {
    out.push(
      error(
        at,
        'Invalid hash',
        `Given ${JSON.stringify(truncate(hash))}; spec ${version} expects ${Object.keys(sizes)
          .map((t) => `"${t}-<hex>"`)
          .join(' or ')}.`,
      ),
    );
  } else if (!new RegExp(`^[0-9a-fA-F]{${want}}$`).test(m[2])) {
    out.push(error(at, 'Invalid hash', `The ${m[1]} sum must be ${want} hex digits; given ${m[2].length} characters.`));
  }
}

function checkSystemd(systemd: Obj, out: Diagnostic[]): void {
  const names = new Map<string, number>();
  arr(systemd.units).forEach((u, i) => {
    if (!isObj(u) || typeof u.name !== 'string') return;
    const at: AttributePath = ['systemd', 'units', i];
    if (!UNIT_SUFFIXES.some((s) => (u.name as string).endsWith(s) && (u.name as string).length > s.length)) {
      out.push(
        error(
          [...at, 'name'],
          'Invalid unit name',
          `Given ${JSON.stringify(u.name)}; a unit name needs a type suffix: ${UNIT_SUFFIXES.join(', ')}.`,
        ),
      );
    }
    if (u.enabled === true && typeof u.contents === 'string' && !/^\s*\[Install\]/m.test(u.contents)) {
      out.push(
        warning(
          [...at, 'contents'],
          'Enable has no effect',
          `Unit ${JSON.stringify(u.name)} is enabled but its contents have no [Install] section; add one (e.g. WantedBy=multi-user.target) or drop "enabled".`,
        ),
      );
    }
    if (names.has(u.name)) {
      out.push(
        error(
          [...at, 'name'],
          'Duplicate unit',
          `Unit ${JSON.stringify(u.name)} is already defined at systemd.units[${names.get(u.name)}]; merge the two entries.`,
        ),
      );
    } else names.set(u.name, i);
    const dropins = new Set<string>();
    arr(u.dropins).forEach((d, j) => {
      if (!isObj(d) || typeof d.name !== 'string') return;
      if (!d.name.endsWith('.conf') || d.name.length <= 5) {
        out.push(
          error(
            [...at, 'dropins', j, 'name'],
            'Invalid drop-in name',
            `Given ${JSON.stringify(d.name)}; a drop-in name must end in ".conf", e.g. "10-override.conf".`,
          ),
        );
      }
      if (dropins.has(d.name)) {
        out.push(
          error(
            [...at, 'dropins', j, 'name'],
            'Duplicate drop-in',
            `Drop-in ${JSON.stringify(d.name)} appears twice in unit ${JSON.stringify(u.name)}.`,
          ),
        );
      }
      dropins.add(d.name);
    });
  });
}

function checkPasswd(passwd: Obj, out: Diagnostic[]): void {
  uniqueBy(passwd.users, 'name', ['passwd', 'users'], 'user name', out);
  uniqueBy(passwd.groups, 'name', ['passwd', 'groups'], 'group name', out);
}

function uniqueBy(list: unknown, key: string, at: AttributePath, what: string, out: Diagnostic[]): void {
  const seen = new Map<unknown, number>();
  arr(list).forEach((item, i) => {
    if (!isObj(item) || typeof item[key] !== 'string') return;
    const first = seen.get(item[key]);
    if (first !== undefined) {
      out.push(
        error(
          [...at, i, key],
          `Duplicate ${what}`,
          `${JSON.stringify(item[key])} is already used at ${formatPath([...at, first])}; each entry needs its own ${key}.`,
        ),
      );
    } else seen.set(item[key], i);
  });
}

function truncate(s: string): string {
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}
