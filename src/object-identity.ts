/**
 * The name and UUID checks a libvirt object's spec shares with others of its kind (storage pool, network):
 * `<name>` a path-safe object name, `<uuid>` the 8-4-4-4-12 hex form (formatstorage, formatnetwork). Pure.
 */
import { error, type Diagnostic } from './diagnostics';
import { isUuid } from './uuid';

/**
 * Errors at `['name']` and `['uuid']` (empty when both are valid): `name` must be 1 to `maxNameLength` letters,
 * digits, `.`, `_` or `-`, starting with a letter or digit; `uuid`, when given, the 8-4-4-4-12 hex form.
 * `kind` names the object in the summary (`Invalid pool name`).
 */
export function validateNameAndUuid(
  spec: { readonly name: unknown; readonly uuid?: string },
  kind: string,
  maxNameLength: number,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const nameRe = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._-]{0,${maxNameLength - 1}}$`);
  if (typeof spec.name !== 'string' || !nameRe.test(spec.name))
    out.push(
      error(
        ['name'],
        `Invalid ${kind} name`,
        `Got ${JSON.stringify(spec.name)}; use 1-${maxNameLength} letters, digits, '.', '_' or '-', starting with a letter or digit.`,
      ),
    );
  if (spec.uuid !== undefined && !isUuid(spec.uuid))
    out.push(error(['uuid'], 'Invalid UUID', `Got ${JSON.stringify(spec.uuid)}; expected the 8-4-4-4-12 hex form.`));
  return out;
}
