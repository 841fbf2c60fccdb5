/**
 * The one rule for a create that fails after its libvirt object exists (a step after the define or create: the
 * start, autostart, reading it back, a marker's delete; typically libvirtd's reply lost with the connection): the
 * apply returns the object as a partial new state with this error, so Terraform records it tainted and the next
 * apply replaces it. Returning no state instead would leave an object no state holds, whose name the next plan
 * refuses ("… exists already"). Used by volumes, domains, networks, storage pools and snapshots (docs/index.md, Interrupted
 * applies).
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import { messageOf, unknownsAsNull } from './values';

/** How far the create got: the object `created` or `defined`, or only `requested` (libvirt's answer lost). */
type Made = 'created' | 'defined' | 'requested';

/** What the error of such a create says of the object (`kind`, e.g. `domain`): it is tainted, the next apply replaces it. */
export function recordedTainted(kind: string): string {
  return `The ${kind} is recorded as tainted; the next terraform apply replaces it.`;
}

/**
 * The error for the `kind` of object (`volume`, `domain`, `storage pool` …) named `name` (e.g. `default/a.qcow2`)
 * that was `made` (`created`, `defined`; or `requested` when the connection failed before libvirt's answer, so that it
 * may or may not exist) but whose create did not finish because of `err`: what failed, and that the next apply
 * replaces it.
 */
export function notFinishedDiagnostic(kind: string, name: string, made: Made, err: unknown): Diagnostic {
  const title = `${kind[0].toUpperCase()}${kind.slice(1)} ${name} was ${made} but not finished`;
  return error([], title, `${messageOf(err)}. ${recordedTainted(kind)}`);
}

/**
 * What the apply returns for such a create: `planned` with what is known of the object (`known`: its id, and what
 * else the create learned) and every value still unknown made null, with {@link notFinishedDiagnostic}.
 */
export function notFinished<S>(
  planned: S,
  known: Partial<S>,
  kind: string,
  name: string,
  made: Made,
  err: unknown,
): { newState: S; diagnostics: Diagnostic[] } {
  return { newState: unknownsAsNull({ ...planned, ...known }), diagnostics: [notFinishedDiagnostic(kind, name, made, err)] };
}
