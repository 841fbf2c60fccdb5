/** The directory tree of a seed image, built from its file list with every input rule checked. */
import { error, type Diagnostic, ValidationError } from '../../../diagnostics';
import type { FileContent, IsoInputFile } from '../types';
import { JOLIET_MAX_NAME, MAX_DIRECTORY_LEVELS } from './constants';

export interface FileNode {
  readonly kind: 'file';
  readonly name: string;
  readonly path: string;
  readonly content: Uint8Array | FileContent;
}

export interface DirNode {
  readonly kind: 'dir';
  /** '' for the root. */
  readonly name: string;
  readonly path: string;
  readonly children: Map<string, TreeNode>;
}

export type TreeNode = FileNode | DirNode;

/** Characters Joliet forbids in names (Joliet 3.3), besides controls below U+0020. */
const JOLIET_FORBIDDEN = new Set(['*', '/', ':', ';', '?', '\\']);
const MAX_FILE_BYTES = 2 ** 32 - 1;

/**
 * Builds the tree of `files`.
 * @throws ValidationError naming the offending path (`files[i].path`) for: an empty path or empty segment
 *   (leading, trailing or doubled '/'), a `.` or `..` segment, a name longer than 64 UCS-2 characters (Joliet
 *   3.3), a character Joliet forbids (`* / : ; ? \` or a control character), more than 8 directory levels
 *   (ECMA-119 6.8.2.1), a duplicate path, a path used as both file and directory, a file of 4 GiB or more.
 */
export function buildTree(files: readonly IsoInputFile[]): DirNode {
  const root: DirNode = { kind: 'dir', name: '', path: '', children: new Map() };
  const problems: Diagnostic[] = [];
  files.forEach((file, index) => {
    const where = ['files', index, 'path'];
    const problem = checkPath(file.path) ?? checkSize(file);
    if (problem) {
      problems.push(error(where, problem.summary, problem.detail));
      return;
    }
    const conflict = insert(root, file);
    if (conflict) problems.push(error(where, conflict.summary, conflict.detail));
  });
  if (problems.length) throw new ValidationError(problems);
  return root;
}

interface Problem {
  summary: string;
  detail: string;
}

function checkPath(path: string): Problem | undefined {
  if (typeof path !== 'string' || path === '')
    return { summary: 'Empty seed file path', detail: 'Got an empty path; give a relative path such as "meta-data".' };
  const segments = path.split('/');
  if (segments.length > MAX_DIRECTORY_LEVELS) {
    return {
      summary: 'Seed file path too deep',
      detail: `"${path}" has ${segments.length - 1} directories; ISO 9660 allows at most ${MAX_DIRECTORY_LEVELS - 1} below the root.`,
    };
  }
  for (const segment of segments) {
    if (segment === '') {
      return {
        summary: 'Empty path segment',
        detail: `"${path}" has an empty segment (leading, trailing or doubled '/'); use a relative path such as "openstack/latest/user_data".`,
      };
    }
    if (segment === '.' || segment === '..') {
      return { summary: 'Relative path segment', detail: `"${path}" contains "${segment}"; give a plain relative path.` };
    }
    if (segment.length > JOLIET_MAX_NAME) {
      return {
        summary: 'Name too long for Joliet',
        detail: `"${segment}" in "${path}" has ${segment.length} UTF-16 characters; Joliet allows at most ${JOLIET_MAX_NAME}.`,
      };
    }
    for (const ch of segment) {
      if (JOLIET_FORBIDDEN.has(ch) || ch.charCodeAt(0) < 0x20) {
        return {
          summary: 'Character not allowed in a Joliet name',
          detail: `"${path}" contains ${JSON.stringify(ch)}; Joliet names may not contain control characters or any of * / : ; ? \\.`,
        };
      }
    }
  }
  return undefined;
}

function isContent(content: unknown): content is Uint8Array | FileContent {
  if (content instanceof Uint8Array) return true;
  const c = content as Partial<FileContent> | null | undefined;
  return typeof c?.writeInto === 'function' && Number.isSafeInteger(c.length) && (c.length as number) >= 0;
}

function checkSize(file: IsoInputFile): Problem | undefined {
  if (!isContent(file.content)) return { summary: 'Missing file content', detail: `"${file.path}" has no Uint8Array content.` };
  if (file.content.length > MAX_FILE_BYTES) {
    return {
      summary: 'File too large',
      detail: `"${file.path}" has ${file.content.length} bytes; one ISO 9660 extent holds at most ${MAX_FILE_BYTES}.`,
    };
  }
  return undefined;
}

function insert(root: DirNode, file: IsoInputFile): Problem | undefined {
  const segments = file.path.split('/');
  let dir = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const existing = dir.children.get(segments[i]);
    const dirPath = segments.slice(0, i + 1).join('/');
    if (existing?.kind === 'file') {
      return {
        summary: 'Path is both a file and a directory',
        detail: `"${file.path}" needs directory "${dirPath}", which is also given as a file.`,
      };
    }
    if (existing) {
      dir = existing;
    } else {
      const created: DirNode = { kind: 'dir', name: segments[i], path: dirPath, children: new Map() };
      dir.children.set(segments[i], created);
      dir = created;
    }
  }
  const name = segments[segments.length - 1];
  const existing = dir.children.get(name);
  if (existing?.kind === 'file') return { summary: 'Duplicate seed file path', detail: `"${file.path}" is given more than once.` };
  if (existing)
    return {
      summary: 'Path is both a file and a directory',
      detail: `"${file.path}" is given as a file and is also a directory of other files.`,
    };
  dir.children.set(name, { kind: 'file', name, path: file.path, content: file.content });
  return undefined;
}
