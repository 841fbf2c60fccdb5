/**
 * Translation of Ignition spec 2.x configs (2.0.0–2.3.0, e.g. KubeVirt's 2.2.0 examples) to spec 3.x, for the
 * parts where the meaning carries over unchanged (coreos/ignition docs "Upgrading Configs", 2.3.0 → 3.0.0):
 * files/directories/links on the `root` filesystem, `systemd.units`, `passwd`, `networkd.units` (written as files
 * under /etc/systemd/network), timeouts, TLS CAs, `config.replace`, `config.append` (as `merge`, with a warning).
 * Everything else (nodes on other filesystems, `append: true`, disks/filesystems with sector sizes or named
 * filesystems, deprecated keys) is reported as an error saying how to fix it.
 */
import { error, warning, type AttributePath, type Diagnostic } from '../../diagnostics';
import { encodeDataUrl } from './dataUrl';
import type { IgnitionConfig, IgnitionFile, IgnitionVersion } from './types';

type Obj = Record<string, unknown>;

/** Result of `translateV2`: the 3.x config (absent when any error was found) and what was found. */
export interface TranslationResult {
  config?: IgnitionConfig;
  diagnostics: Diagnostic[];
}

const FIX =
  'Write the config for spec 3.x instead (see coreos/ignition "Upgrading Configs"), or convert it with ' +
  'ign-converter (coreos/ign-converter) or write it as a Butane config and run `butane`.';

const NODE_KEYS: Record<'files' | 'directories' | 'links', string[]> = {
  files: ['filesystem', 'path', 'contents', 'mode', 'user', 'group', 'overwrite', 'append'],
  directories: ['filesystem', 'path', 'mode', 'user', 'group', 'overwrite'],
  links: ['filesystem', 'path', 'target', 'hard', 'user', 'group', 'overwrite'],
};

/** True when `config.ignition.version` is a 2.x version string. */
export function isSpec2(config: unknown): boolean {
  const ign = isObj(config) ? config.ignition : undefined;
  return isObj(ign) && typeof ign.version === 'string' && /^2\.\d+\.\d+/.test(ign.version);
}

/**
 * Translates a spec 2.x config object to spec `target`. Paths in diagnostics point into the 2.x input.
 * Never throws for bad input.
 */
export function translateV2(input: Obj, target: IgnitionVersion): TranslationResult {
  const d: Diagnostic[] = [];
  const out: IgnitionConfig = { ignition: { version: target } };
  const from = String((input.ignition as Obj).version);
  if (!/^2\.[0-3]\.0$/.test(from)) {
    d.push(
      error(
        ['ignition', 'version'],
        'Unsupported spec 2.x version',
        `Given ${JSON.stringify(from)}; only 2.0.0–2.3.0 can be translated. ${FIX}`,
      ),
    );
  }
  for (const key of Object.keys(input)) {
    if (!['ignition', 'storage', 'systemd', 'networkd', 'passwd'].includes(key)) {
      d.push(warning([key], 'Unknown key', `Key ${JSON.stringify(key)} is not part of spec 2.x; it is dropped.`));
    }
  }
  translateIgnition(input.ignition as Obj, out, d);
  const files: IgnitionFile[] = [];
  if (isObj(input.storage)) translateStorage(input.storage, out, files, d);
  if (isObj(input.networkd)) translateNetworkd(input.networkd, files, d);
  if (files.length) out.storage = { ...out.storage, files };
  if (isObj(input.systemd)) translateSystemd(input.systemd, out, d);
  if (isObj(input.passwd)) translatePasswd(input.passwd, out, d);
  return d.some((x) => x.severity === 'error') ? { diagnostics: d } : { config: out, diagnostics: d };
}

function translateIgnition(ign: Obj, out: IgnitionConfig, d: Diagnostic[]): void {
  for (const key of Object.keys(ign)) {
    if (!['version', 'config', 'timeouts', 'security'].includes(key)) reject(['ignition', key], `ignition.${key}`, d);
  }
  if (isObj(ign.config)) {
    const cfg = ign.config;
    const merge = Array.isArray(cfg.append) ? cfg.append.map((r) => resource(r)) : [];
    if (merge.length) {
      out.ignition.config = { merge };
      d.push(
        warning(
          ['ignition', 'config', 'append'],
          'Config append became merge',
          'Spec 3.x merges referenced configs key by key instead of appending their lists; check that the referenced configs are spec 3.x and still mean what you want.',
        ),
      );
    }
    if (isObj(cfg.replace)) out.ignition.config = { ...out.ignition.config, replace: resource(cfg.replace) };
  }
  if (isObj(ign.timeouts)) out.ignition.timeouts = pick(ign.timeouts, ['httpResponseHeaders', 'httpTotal']);
  if (isObj(ign.security) && isObj(ign.security.tls) && Array.isArray(ign.security.tls.certificateAuthorities)) {
    out.ignition.security = { tls: { certificateAuthorities: ign.security.tls.certificateAuthorities.map(resource) } };
  }
}

function translateStorage(storage: Obj, out: IgnitionConfig, files: IgnitionFile[], d: Diagnostic[]): void {
  for (const key of Object.keys(storage)) {
    if (['disks', 'raid', 'filesystems'].includes(key)) {
      if (Array.isArray(storage[key]) && (storage[key] as unknown[]).length === 0) continue;
      d.push(
        error(
          ['storage', key],
          'Cannot translate storage.' + key,
          `Spec 2.x ${key} (named filesystems with mount sections, partition sizes in sectors) have no mechanical 3.x equivalent: 3.x filesystems need a mount "path" and partitions use MiB. ${FIX}`,
        ),
      );
    } else if (!['files', 'directories', 'links'].includes(key)) {
      reject(['storage', key], `storage.${key}`, d);
    }
  }
  for (const kind of ['files', 'directories', 'links'] as const) {
    const list = storage[kind];
    if (!Array.isArray(list)) continue;
    const translated: Obj[] = [];
    list.forEach((node: unknown, i) => {
      const at: AttributePath = ['storage', kind, i];
      if (!isObj(node)) {
        d.push(error(at, 'Invalid entry', 'Expected an object.'));
        return;
      }
      for (const key of Object.keys(node)) if (!NODE_KEYS[kind].includes(key)) reject([...at, key], `${kind}[].${key}`, d);
      if (node.filesystem !== 'root') {
        d.push(
          error(
            [...at, 'filesystem'],
            'Cannot translate node on non-root filesystem',
            `Given filesystem ${JSON.stringify(node.filesystem)}; only "root" maps to a 3.x path. In 3.x, define the filesystem with a mount "path" and put the node below that path. ${FIX}`,
          ),
        );
        return;
      }
      if (node.append === true) {
        d.push(
          error(
            [...at, 'append'],
            'Cannot translate append',
            `Spec 2.x "append: true" entries become a 3.x "append" list on a single file entry, which changes how duplicate paths and overwrite combine. ${FIX}`,
          ),
        );
        return;
      }
      const t: Obj = { path: node.path };
      if (kind === 'files') {
        const hasSource = isObj(node.contents) && typeof node.contents.source === 'string';
        // 2.x files overwrite by default; 3.x files do not, and 3.x overwrite needs a source.
        const overwrite = node.overwrite ?? (hasSource ? true : undefined);
        if (overwrite !== undefined) t.overwrite = overwrite;
        if (isObj(node.contents)) t.contents = resource(node.contents);
      } else if (node.overwrite !== undefined) t.overwrite = node.overwrite;
      if (isObj(node.user)) t.user = pick(node.user, ['id', 'name']);
      if (isObj(node.group)) t.group = pick(node.group, ['id', 'name']);
      if (node.mode !== undefined && kind !== 'links') t.mode = node.mode;
      if (kind === 'links') Object.assign(t, pick(node, ['target', 'hard']));
      translated.push(t);
    });
    if (kind === 'files') files.push(...(translated as unknown as IgnitionFile[]));
    else if (translated.length) out.storage = { ...out.storage, [kind]: translated };
  }
}

function translateNetworkd(networkd: Obj, files: IgnitionFile[], d: Diagnostic[]): void {
  for (const key of Object.keys(networkd)) if (key !== 'units') reject(['networkd', key], `networkd.${key}`, d);
  if (!Array.isArray(networkd.units)) return;
  networkd.units.forEach((u: unknown, i) => {
    const at: AttributePath = ['networkd', 'units', i];
    if (!isObj(u) || typeof u.name !== 'string' || !/^[^/]+$/.test(u.name)) {
      d.push(error([...at, 'name'], 'Invalid networkd unit', 'Expected an object with a file "name" such as "10-eth0.network".'));
      return;
    }
    for (const key of Object.keys(u))
      if (!['name', 'contents', 'dropins'].includes(key)) reject([...at, key], `networkd.units[].${key}`, d);
    const dir = '/etc/systemd/network';
    files.push(networkFile(`${dir}/${u.name}`, u.contents));
    if (Array.isArray(u.dropins)) {
      u.dropins.forEach((x: unknown, j) => {
        if (!isObj(x) || typeof x.name !== 'string' || !/^[^/]+$/.test(x.name)) {
          d.push(
            error([...at, 'dropins', j, 'name'], 'Invalid networkd drop-in', 'Expected an object with a file "name" ending in ".conf".'),
          );
          return;
        }
        files.push(networkFile(`${dir}/${u.name}.d/${x.name}`, x.contents));
      });
    }
  });
}

function networkFile(path: string, contents: unknown): IgnitionFile {
  const text = typeof contents === 'string' ? contents : '';
  return { path, overwrite: true, mode: 0o644, contents: encodeDataUrl(text) };
}

function translateSystemd(systemd: Obj, out: IgnitionConfig, d: Diagnostic[]): void {
  for (const key of Object.keys(systemd)) if (key !== 'units') reject(['systemd', key], `systemd.${key}`, d);
  if (!Array.isArray(systemd.units)) return;
  out.systemd = {
    units: systemd.units.map((u: unknown, i) => {
      const at: AttributePath = ['systemd', 'units', i];
      if (!isObj(u)) return u as never;
      for (const key of Object.keys(u)) {
        if (!['name', 'enable', 'enabled', 'mask', 'contents', 'dropins'].includes(key)) reject([...at, key], `systemd.units[].${key}`, d);
      }
      const t = pick(u, ['name', 'enabled', 'mask', 'contents']);
      if (u.enable !== undefined && u.enabled === undefined) t.enabled = u.enable; // deprecated 2.x spelling
      if (Array.isArray(u.dropins)) t.dropins = u.dropins.map((x: unknown) => (isObj(x) ? pick(x, ['name', 'contents']) : x));
      return t as never;
    }),
  };
}

const USER_KEYS = [
  'name',
  'passwordHash',
  'sshAuthorizedKeys',
  'uid',
  'gecos',
  'homeDir',
  'noCreateHome',
  'primaryGroup',
  'groups',
  'noUserGroup',
  'system',
  'noLogInit',
  'shell',
];
const GROUP_KEYS = ['name', 'gid', 'passwordHash', 'system'];

function translatePasswd(passwd: Obj, out: IgnitionConfig, d: Diagnostic[]): void {
  for (const key of Object.keys(passwd)) if (!['users', 'groups'].includes(key)) reject(['passwd', key], `passwd.${key}`, d);
  const section: NonNullable<IgnitionConfig['passwd']> = {};
  for (const [kind, keys] of [
    ['users', USER_KEYS],
    ['groups', GROUP_KEYS],
  ] as const) {
    const list = passwd[kind];
    if (!Array.isArray(list)) continue;
    section[kind] = list.map((x: unknown, i) => {
      if (!isObj(x)) return x as never;
      for (const key of Object.keys(x)) if (!keys.includes(key)) reject(['passwd', kind, i, key], `passwd.${kind}[].${key}`, d);
      return pick(x, keys) as never;
    });
  }
  out.passwd = section;
}

function resource(r: unknown): Obj {
  if (!isObj(r)) return {};
  const t = pick(r, ['source', 'compression']);
  if (isObj(r.verification)) t.verification = pick(r.verification, ['hash']);
  return t;
}

function reject(path: AttributePath, what: string, d: Diagnostic[]): void {
  d.push(
    error(
      path,
      `Cannot translate ${what}`,
      `Spec 2.x "${what}" has no mechanical spec 3.x equivalent (deprecated or changed meaning). ${FIX}`,
    ),
  );
}

function pick(o: Obj, keys: readonly string[]): Obj {
  const t: Obj = {};
  for (const k of keys) if (o[k] !== undefined) t[k] = o[k];
  return t;
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
