/** The errors of a data source whose object the host does not have: the attribute, the name, what the host has. */
import { error, type Diagnostic } from '../../../../src/diagnostics';

/** How many existing names the error lists at most. */
const SHOWN = 20;

/** What was looked up: `kind` (e.g. `volume`), `name`, `where` (e.g. `in pool default`), and the virsh command
 *  that lists what there is. */
export interface Lookup {
  readonly kind: string;
  readonly name: string;
  readonly where?: string;
  readonly list: string;
}

/**
 * An error on `path` saying libvirt at `uri` has no such object, listing the names it has (at most 20) and the
 * virsh command that lists them.
 */
export function notFound(path: (string | number)[], what: Lookup, uri: string, existing: readonly string[]): Diagnostic {
  const sorted = [...existing].sort();
  const shown = sorted.length > SHOWN ? `${sorted.slice(0, SHOWN).join(', ')} and ${sorted.length - SHOWN} more` : sorted.join(', ');
  const where = what.where ? ` ${what.where}` : '';
  return error(
    path,
    `${what.kind[0]!.toUpperCase()}${what.kind.slice(1)} not found`,
    `libvirt at ${uri} has no ${what.kind} named ${JSON.stringify(what.name)}${where}. ${sorted.length ? `There are: ${shown}.` : 'There are none.'} Check the name (${what.list}).`,
  );
}
