/**
 * Secrets for the constructs' write-only inputs (docs/write-only.md, issue 32): a value that must reach the
 * provider without being written into `cdk.tf.json`, the plan or the state. Such a value is a Terraform reference
 * resolved by Terraform at plan and apply: an ephemeral input variable ({@link secretVariable}, set through
 * `TF_VAR_<name>` or `-var`), an ephemeral resource's attribute, or `Fn.file(path)` on the machine running
 * Terraform. A plain string would be synthesized into `cdk.tf.json`, so the constructs reject it.
 */
import { TerraformVariable, Token } from 'cdktf';
import type { Construct } from 'constructs';
import { ConstructPropsError } from './errors';

/**
 * An ephemeral input variable of type string (`variable "<id>" { ephemeral = true }`, Terraform 1.10 and later):
 * its value is given at plan and again at apply (`TF_VAR_<id>` or `-var`), is never stored, and may only flow into
 * write-only attributes. cdktf 0.21 and cdktn 0.24 have no `ephemeral` option on `TerraformVariable`; it is set
 * through an override. Use `.stringValue` of the result as a secret.
 */
export function secretVariable(scope: Construct, id: string, description?: string): TerraformVariable {
  const v = new TerraformVariable(scope, id, { type: 'string', ...(description ? { description } : {}) });
  v.addOverride('ephemeral', true);
  return v;
}

/**
 * Checks that a secret prop is a Terraform reference, not a string known at synth (that would be written into
 * `cdk.tf.json`). Returns it. @throws ConstructPropsError naming the prop.
 */
export function secretReference(prop: string, value: string): string {
  if (!Token.isUnresolved(value))
    throw new ConstructPropsError(
      prop,
      `${prop}: got a string known at synth (not shown), which would be written into cdk.tf.json; expected a Terraform reference resolved at plan, e.g. secretVariable(this, 'name').stringValue or Fn.file('/path')`,
    );
  return value;
}
