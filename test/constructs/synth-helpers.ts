// Test helpers: synthesize a scope and look resources up by type and name.
import { Testing, TerraformStack } from 'cdktf';

export type Synth = { resource?: Record<string, Record<string, Record<string, unknown>>>; output?: Record<string, { value: unknown }> };

export function synth(fn: (stack: TerraformStack) => void): Synth {
  return JSON.parse(Testing.synthScope(fn)) as Synth;
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
