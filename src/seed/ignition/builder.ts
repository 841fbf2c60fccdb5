/**
 * Helpers to build typed Ignition configs: single entries (`fileFromString`, `systemdUnit`, `passwdUser`) and a
 * fluent `IgnitionBuilder` collecting them. Nothing is validated until `render()` (`renderIgnition`).
 */
import { encodeDataUrl } from './dataUrl';
import { renderIgnition } from './render';
import type {
  IgnitionDirectory,
  IgnitionDropin,
  IgnitionFile,
  IgnitionGroup,
  IgnitionLink,
  IgnitionNodeOwner,
  IgnitionResource,
  IgnitionSpec,
  IgnitionUnit,
  IgnitionUser,
  IgnitionVersion,
  RenderedIgnition,
} from './types';

/** Options of a file built from inline content. */
export interface InlineFileOptions {
  /** Decimal permission bits. @default 420 (0644) */
  readonly mode?: number;
  /** Replace an existing node at the path. @default true */
  readonly overwrite?: boolean;
  readonly user?: IgnitionNodeOwner;
  readonly group?: IgnitionNodeOwner;
  /** gzip the content (deterministic) and set `compression: gzip`. @default false */
  readonly gzip?: boolean;
}

/** A `storage.files[]` entry whose contents are `content` as a `data:` URL (see `encodeDataUrl`). */
export function fileFromString(path: string, content: string | Uint8Array, opts: InlineFileOptions = {}): IgnitionFile {
  const inline = encodeDataUrl(content, { gzip: opts.gzip });
  const contents: IgnitionResource = { source: inline.source };
  if (inline.compression) contents.compression = inline.compression;
  const file: IgnitionFile = { path, overwrite: opts.overwrite ?? true, contents, mode: opts.mode ?? 0o644 };
  if (opts.user) file.user = opts.user;
  if (opts.group) file.group = opts.group;
  return file;
}

/** Options of a systemd unit. */
export interface UnitOptions {
  /** @default - unit state left as it is */
  readonly enabled?: boolean;
  readonly mask?: boolean;
  /** Drop-ins as name (ending `.conf`) → contents. */
  readonly dropins?: Readonly<Record<string, string>>;
}

/** A `systemd.units[]` entry; `contents` may be omitted to only enable/mask/add drop-ins to a shipped unit. */
export function systemdUnit(name: string, contents?: string, opts: UnitOptions = {}): IgnitionUnit {
  const unit: IgnitionUnit = { name };
  if (opts.enabled !== undefined) unit.enabled = opts.enabled;
  if (opts.mask !== undefined) unit.mask = opts.mask;
  if (contents !== undefined) unit.contents = contents;
  if (opts.dropins) {
    unit.dropins = Object.keys(opts.dropins)
      .sort()
      .map((n): IgnitionDropin => ({ name: n, contents: opts.dropins![n] }));
  }
  return unit;
}

/** A `passwd.users[]` entry: `name` plus any Ignition user fields (camelCase, e.g. `sshAuthorizedKeys`). */
export function passwdUser(name: string, fields: Omit<IgnitionUser, 'name'> = {}): IgnitionUser {
  return { name, ...fields };
}

/** Collects files, directories, links, units, users and groups into an `IgnitionSpec`. */
export class IgnitionBuilder {
  private readonly files: IgnitionFile[] = [];
  private readonly directories: IgnitionDirectory[] = [];
  private readonly links: IgnitionLink[] = [];
  private readonly units: IgnitionUnit[] = [];
  private readonly users: IgnitionUser[] = [];
  private readonly groups: IgnitionGroup[] = [];

  /** @param version spec version to write. @default '3.3.0' */
  constructor(private readonly version?: IgnitionVersion) {}

  /** Adds a file with inline content (`fileFromString`). */
  addFile(path: string, content: string | Uint8Array, opts?: InlineFileOptions): this {
    this.files.push(fileFromString(path, content, opts));
    return this;
  }

  /** Adds a prepared `storage.files[]` entry (e.g. one fetched from a URL). */
  addFileEntry(file: IgnitionFile): this {
    this.files.push(file);
    return this;
  }

  /** Adds a directory; `mode` in decimal (@default 493 = 0755). */
  addDirectory(path: string, opts: Omit<IgnitionDirectory, 'path'> = {}): this {
    this.directories.push({ path, mode: 0o755, ...opts });
    return this;
  }

  /** Adds a symbolic link (or a hard link with `hard: true`) at `path` pointing to `target`. */
  addLink(path: string, target: string, opts: Omit<IgnitionLink, 'path' | 'target'> = {}): this {
    this.links.push({ path, target, ...opts });
    return this;
  }

  /** Adds a systemd unit (`systemdUnit`). */
  addUnit(name: string, contents?: string, opts?: UnitOptions): this {
    this.units.push(systemdUnit(name, contents, opts));
    return this;
  }

  /** Adds a user (`passwdUser`). */
  addUser(name: string, fields?: Omit<IgnitionUser, 'name'>): this {
    this.users.push(passwdUser(name, fields));
    return this;
  }

  /** Adds a group. */
  addGroup(name: string, fields: Omit<IgnitionGroup, 'name'> = {}): this {
    this.groups.push({ name, ...fields });
    return this;
  }

  /** The typed spec; empty sections are left out. */
  build(): IgnitionSpec {
    const spec: IgnitionSpec = {};
    if (this.version) spec.version = this.version;
    const storage: NonNullable<IgnitionSpec['storage']> = {};
    if (this.files.length) storage.files = [...this.files];
    if (this.directories.length) storage.directories = [...this.directories];
    if (this.links.length) storage.links = [...this.links];
    if (Object.keys(storage).length) spec.storage = storage;
    if (this.units.length) spec.systemd = { units: [...this.units] };
    if (this.users.length || this.groups.length) {
      spec.passwd = {};
      if (this.users.length) spec.passwd.users = [...this.users];
      if (this.groups.length) spec.passwd.groups = [...this.groups];
    }
    return spec;
  }

  /** `renderIgnition(this.build())`; throws `ValidationError`. */
  render(): RenderedIgnition {
    return renderIgnition(this.build());
  }
}
