/**
 * The errors WebFleet throws at synth, as factories in one place (as @virtseed/cdktf does): each names the prop
 * path, what was given and what is expected. They are @virtseed/cdktf's own `ConstructPropsError`, so an app
 * handles a WebFleet error like a VirtualMachine one (`e.prop` names the prop).
 */
import { ConstructPropsError } from '@virtseed/cdktf';

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : JSON.stringify(value);
}

/** A prop whose value is not what it must be. */
export function invalidProp(prop: string, given: unknown, expected: string): ConstructPropsError {
  return new ConstructPropsError(prop, `${prop}: invalid value ${show(given)}; expected ${expected}`);
}

/** `prop.a.b[0].c`: a path below a prop. */
function below(prop: string, path: readonly (string | number)[]): string {
  return path.reduce<string>((s, step) => (typeof step === 'number' ? `${s}[${step}]` : `${s}.${step}`), prop);
}

/** The shared cloud-init configuration has errors; each line names its path below the prop. */
export function invalidCloudInit(
  prop: string,
  problems: readonly { path: readonly (string | number)[]; summary: string; detail: string }[],
): ConstructPropsError {
  const lines = problems.map((p) => `  ${below(prop, p.path)}: ${p.summary}: ${p.detail}`);
  return new ConstructPropsError(
    prop,
    `${prop}: the shared cloud-init configuration has ${problems.length} error(s):\n${lines.join('\n')}`,
  );
}
