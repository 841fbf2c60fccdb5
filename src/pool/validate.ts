/**
 * Checks a PoolSpec before rendering: the rules libvirt (formatstorage) would reject at define, build or start
 * time, as diagnostics with paths in the spec's own keys (e.g. `['source', 'devices', 1]`). Pure.
 */
import { error, type Diagnostic } from '../diagnostics';
import { POOL_FIELDS, isOneOf, valuesOf } from '../fields';
import { validateNameAndUuid } from '../object-identity';
import type { NetfsFormat, PoolSpec, PoolType } from './model';

/** The pool types: the table's values (src/fields/pool.ts). */
export const POOL_TYPES: readonly PoolType[] = valuesOf(POOL_FIELDS.fields.type);
/** The formats of a netfs pool: the table's `source_format` values but a logical pool's (src/fields/pool.ts). */
const NETFS_FORMATS: readonly NetfsFormat[] = valuesOf(POOL_FIELDS.fields.source_format).filter((f): f is NetfsFormat => f !== 'lvm2');
const LOGICAL_FORMATS = ['lvm2'] as const;

/** A DNS name (RFC 1123 labels) or an IPv4/IPv6 address. */
const HOST_RE =
  /^((?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]+)$/;
/** A volume group name (lvm(8): letters, digits, `+_.-`, not starting with `-`). */
const VG_RE = /^[A-Za-z0-9+_.][A-Za-z0-9+_.-]{0,126}$/;

/**
 * An absolute path in the form libvirt stores it: no `.` or `..` steps, no `//`, no trailing `/` (libvirt drops
 * them, so another spelling would read back as a change), no NUL.
 */
export function isAbsolutePath(p: unknown): p is string {
  if (typeof p !== 'string' || !p.startsWith('/') || p.includes('\0')) return false;
  if (p === '/') return true;
  const steps = p.slice(1).split('/');
  return steps.every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Which source fields each pool type takes (the rest must be absent). */
const SOURCE_FIELDS: Record<PoolType, readonly string[]> = {
  dir: [],
  netfs: ['host', 'dir', 'format'],
  logical: ['name', 'devices', 'format'],
};

/**
 * Every problem found (empty when valid): name/uuid forms; the type; `dir` and `netfs` need an absolute target
 * path; `netfs` needs the server (`source.host`) and the export (`source.dir`: absolute for nfs/auto, a share
 * name for cifs/glusterfs) and a known format; `logical` takes a volume group name, absolute device paths (each
 * once) and format lvm2; a source field of another pool type is an error naming the type it belongs to.
 */
export function validatePoolSpec(spec: PoolSpec): Diagnostic[] {
  const out: Diagnostic[] = validateNameAndUuid(spec, 'pool', 63);
  if (!isOneOf(POOL_TYPES, spec.type)) {
    out.push(error(['type'], 'Invalid pool type', `Got ${JSON.stringify(spec.type)}; expected one of ${POOL_TYPES.join(', ')}.`));
    return out;
  }
  const source = spec.source ?? {};
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined || SOURCE_FIELDS[spec.type].includes(key)) continue;
    const owner = (Object.keys(SOURCE_FIELDS) as PoolType[]).filter((t) => SOURCE_FIELDS[t].includes(key));
    out.push(
      error(
        ['source', key],
        'Source field of another pool type',
        `A ${spec.type} pool has no source ${key}; it belongs to ${owner.join(' and ')} pools. Remove it or change the type.`,
      ),
    );
  }
  if (spec.path !== undefined && !isAbsolutePath(spec.path))
    out.push(
      error(
        ['path'],
        'Invalid path',
        `Got ${JSON.stringify(spec.path)}; expected an absolute path without '.', '..', '//' or a trailing '/', e.g. /var/lib/libvirt/images/web.`,
      ),
    );
  if ((spec.type === 'dir' || spec.type === 'netfs') && spec.path === undefined)
    out.push(
      error(
        ['path'],
        'Missing path',
        spec.type === 'dir'
          ? 'A dir pool keeps its volumes as files in a directory: give its absolute path, e.g. /var/lib/libvirt/images/web.'
          : 'A netfs pool mounts the export on a directory of the host: give its absolute path, e.g. /mnt/nfs-images.',
      ),
    );
  if (spec.type === 'netfs') validateNetfs(spec, out);
  if (spec.type === 'logical') validateLogical(spec, out);
  return out;
}

function validateNetfs(spec: PoolSpec, out: Diagnostic[]): void {
  const source = spec.source ?? {};
  const format = source.format ?? 'auto';
  if (!isOneOf(NETFS_FORMATS, format))
    out.push(
      error(
        ['source', 'format'],
        'Invalid source format',
        `Got ${JSON.stringify(format)}; a netfs pool mounts one of ${NETFS_FORMATS.join(', ')}.`,
      ),
    );
  if (source.host === undefined || !HOST_RE.test(source.host))
    out.push(
      error(
        ['source', 'host'],
        source.host === undefined ? 'Missing source host' : 'Invalid source host',
        `${source.host === undefined ? 'A netfs pool needs its file server' : `Got ${JSON.stringify(source.host)}`}; expected a host name or address, e.g. nfs.example.net.`,
      ),
    );
  const relative = format === 'cifs' || format === 'glusterfs';
  if (source.dir === undefined || (relative ? !source.dir || source.dir.includes('\0') : !isAbsolutePath(source.dir)))
    out.push(
      error(
        ['source', 'dir'],
        source.dir === undefined ? 'Missing source directory' : 'Invalid source directory',
        relative
          ? `${source.dir === undefined ? `A ${format} pool needs` : `Got ${JSON.stringify(source.dir)}; expected`} the share (cifs) or volume (glusterfs) name, e.g. images.`
          : `${source.dir === undefined ? 'A netfs pool needs' : `Got ${JSON.stringify(source.dir)}; expected`} the absolute path the server exports, e.g. /srv/images.`,
      ),
    );
}

function validateLogical(spec: PoolSpec, out: Diagnostic[]): void {
  const source = spec.source ?? {};
  if (source.format !== undefined && !isOneOf(LOGICAL_FORMATS, source.format))
    out.push(
      error(['source', 'format'], 'Invalid source format', `Got ${JSON.stringify(source.format)}; a logical pool's format is lvm2.`),
    );
  if (source.name !== undefined && !VG_RE.test(source.name))
    out.push(
      error(
        ['source', 'name'],
        'Invalid volume group name',
        `Got ${JSON.stringify(source.name)}; expected letters, digits, '+', '_', '.' or '-', not starting with '-'.`,
      ),
    );
  const seen = new Set<string>();
  (source.devices ?? []).forEach((d, i) => {
    if (!isAbsolutePath(d))
      out.push(
        error(
          ['source', 'devices', i],
          'Invalid device',
          `Got ${JSON.stringify(d)}; expected the absolute path of a block device, e.g. /dev/sdb.`,
        ),
      );
    else if (seen.has(d))
      out.push(error(['source', 'devices', i], 'Duplicate device', `${d} is listed twice; list each physical volume once.`));
    seen.add(d);
  });
}
