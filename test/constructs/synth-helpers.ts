// Test helpers: synthesize a scope and look resources up by type and name.
import { Testing, TerraformStack } from 'cdktf';

export type Synth = { resource?: Record<string, Record<string, Record<string, unknown>>>; output?: Record<string, { value: unknown }> };

/** The synthesized JSON of a fresh stack that `fn` fills (Testing.synthScope, with the stack typed as one). */
export function synth(fn: (stack: TerraformStack) => void): Synth {
  const stack = new TerraformStack(Testing.app(), 'stack');
  fn(stack);
  return JSON.parse(Testing.synth(stack)) as Synth;
}

/** Logical ids and bodies of all resources of `type`. */
export function resources(out: Synth, type: string): [string, Record<string, unknown>][] {
  return Object.entries(out.resource?.[type] ?? {});
}

/** The resource of `type` whose `name` attribute is `name`, with its Terraform address. */
export function byName(out: Synth, type: string, name: string): { address: string; body: Record<string, unknown> } {
  const found = resources(out, type).find(([, body]) => body.name === name);
  if (!found)
    throw new Error(
      `no ${type} named ${name}; have ${resources(out, type)
        .map(([, b]) => String(b.name))
        .join(', ')}`,
    );
  return { address: `${type}.${found[0]}`, body: found[1] };
}
