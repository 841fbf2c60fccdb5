/**
 * The one rule for a create that fails after its libvirt object exists (a step after the define or create: the
 * start, autostart, reading it back, a marker's delete; typically libvirtd's reply lost with the connection): the
 * apply returns the object as a partial new state with this error, so Terraform records it tainted and the next
 * apply replaces it. Returning no state instead would leave an object no state holds, whose name the next plan
 * refuses ("… exists already"). Used by volumes, domains, networks and storage pools (docs/index.md, Interrupted
 * applies).
 */
import { Diagnostic, error } from '../../../../src/diagnostics';
import { messageOf } from './values';

/**
 * The error for `object` (e.g. `Volume default/a.qcow2`, `Domain web1`) that was `made` (`created`, `defined`; or
 * `requested` when the connection failed before libvirt's answer, so that it may or may not exist) but whose create
 * did not finish because of `err`: what failed, and that the next apply replaces it.
 */
export function notFinishedDiagnostic(object: string, made: 'created' | 'defined' | 'requested', err: unknown): Diagnostic {
  const kind = object.split(' ')[0].toLowerCase();
  return error(
    [],
    `${object} was ${made} but not finished`,
    `${messageOf(err)}. The ${kind} is recorded as tainted; the next terraform apply replaces it.`,
  );
}
