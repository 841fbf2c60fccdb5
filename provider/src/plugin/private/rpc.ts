/** Small helpers of the Provider service (server.ts). */
import type { Diagnostic } from '../../../../src/diagnostics';
import { LibvirtUriError, parseLibvirtUri } from '../../../../src/libvirt/uri';
import { isUnknown } from '../cty';

export function nonEmpty(b: Buffer | null | undefined): Buffer | undefined {
  return b && b.length ? Buffer.from(b) : undefined;
}

export function validateUri(uri: unknown): Diagnostic[] {
  if (uri === null || uri === undefined || isUnknown(uri)) return [];
  if (typeof uri !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) {
    return [
      {
        severity: 'error',
        summary: 'Invalid libvirt URI',
        detail: `uri ${JSON.stringify(uri)} is not a libvirt connection URI; expected e.g. "qemu:///system" or "qemu+ssh://user@host/system".`,
        path: ['uri'],
      },
    ];
  }
  try {
    parseLibvirtUri(uri);
  } catch (e) {
    if (!(e instanceof LibvirtUriError)) throw e;
    return [{ severity: 'error', summary: 'Invalid libvirt URI', detail: e.message, path: ['uri'] }];
  }
  return [];
}

export function stateError(detail: string): Diagnostic {
  return { severity: 'error', summary: 'Unsupported state', detail, path: [] };
}

export function unknownType(kind: string, name: unknown): Diagnostic {
  return { severity: 'error', summary: `Unknown ${kind} type`, detail: `virtseed has no ${kind} ${JSON.stringify(name)}.`, path: [] };
}
