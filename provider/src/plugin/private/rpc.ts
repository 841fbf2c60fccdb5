/** Small helpers of the Provider service (server.ts). */
import type { Diagnostic } from '../../../../src/diagnostics';

export function nonEmpty(b: Buffer | null | undefined): Buffer | undefined {
  return b && b.length ? Buffer.from(b) : undefined;
}

export function stateError(detail: string): Diagnostic {
  return { severity: 'error', summary: 'Unsupported state', detail, path: [] };
}

export function unknownType(kind: string, name: unknown): Diagnostic {
  return { severity: 'error', summary: `Unknown ${kind} type`, detail: `virtseed has no ${kind} ${JSON.stringify(name)}.`, path: [] };
}
