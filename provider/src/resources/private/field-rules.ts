/**
 * The plan rules a field table declares per attribute (src/fields/model.ts `FieldRules`: `default`, `values`,
 * `replace`), applied the same way for every resource that declares them: the handlers ask here instead of
 * repeating an attribute's default, allowed values or replacement in their own code.
 */
import { error, type Diagnostic } from '../../../../src/diagnostics';
import { isBlock, type AttributeField, type FieldTable } from '../../../../src/fields';
import type { Path } from '../../plugin/handler';

function attributes(table: FieldTable): [string, AttributeField][] {
  return Object.entries(table).filter((e): e is [string, AttributeField] => !isBlock(e[1]));
}

/** `planned` with each attribute that has a `default` and is null in `config` set to that default. */
export function withDefaults<S extends object>(table: FieldTable, planned: S, config: S): S {
  const out = { ...planned } as Record<string, unknown>;
  const cfg = config as Record<string, unknown>;
  for (const [name, f] of attributes(table)) if (f.default !== undefined && cfg[name] === null) out[name] = f.default;
  return out as S;
}

/** The names of the attributes whose change replaces the object (`replace: true`), in table order. */
export function replaceAttributes(table: FieldTable): string[] {
  return attributes(table)
    .filter(([, f]) => f.replace === true)
    .map(([name]) => name);
}

/**
 * An error for each known string attribute of `config` whose value is not one of its `values`, naming the
 * attribute, the value given and the allowed ones. `label` names the resource in the detail (e.g. `Pool web`).
 */
export function checkValues(table: FieldTable, config: object, label?: string): Diagnostic[] {
  const cfg = config as Record<string, unknown>;
  const out: Diagnostic[] = [];
  for (const [name, f] of attributes(table)) {
    const v = cfg[name];
    if (!f.values || typeof v !== 'string' || f.values.includes(v)) continue;
    out.push(
      error(
        [name],
        `Invalid ${name}`,
        `${label ? `${label}: ` : ''}${name} is ${JSON.stringify(v)}; expected one of ${f.values.map((x) => `"${x}"`).join(', ')}.`,
      ),
    );
  }
  return out;
}

/** The paths of `attrs` as Terraform attribute paths. */
export function pathsOf(attrs: readonly string[]): Path[] {
  return attrs.map((a) => [a]);
}
