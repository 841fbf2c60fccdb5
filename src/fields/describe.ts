/**
 * The generated sentences of a field's description: its allowed values, its default and what changing it does
 * ("Changing it: …"), worded from the field table (./model.ts) so that no description repeats a rule by hand.
 */
import {
  hasChangeRule,
  isBlock,
  replacesAlways,
  isConditionalDefault,
  isDerivedDefault,
  type ConditionalImpact,
  type Field,
  type FieldDefault,
  type Impact,
} from './model';
import { describeCondition } from './rules';

function code(v: unknown): string {
  return `\`${String(v)}\``;
}

/** What an impact means, as the docs word it. `object` names what the resource manages (e.g. `domain`). */
function impactWords(impact: Impact, object: string): string {
  switch (impact) {
    case 'live':
      return 'live (no restart)';
    case 'restart':
      return 'restarts a running guest';
    case 'replace':
      return `replaces the ${object}`;
    case 'next-boot':
      return "takes effect at the guest's next boot";
    case 'none':
      return 'no effect on the guest';
  }
}

function conditionalWords(rule: Impact | ConditionalImpact, object: string): string {
  if (typeof rule === 'string') return impactWords(rule, object);
  return `${impactWords(rule.then, object)} ${describeCondition(rule.if)}, else ${conditionalWords(rule.else, object)}`;
}

/** "Changing it: …" for an attribute, or the add/remove sentence of a block; '' when the field has no rule. */
export function changeSentence(field: Field, object: string): string {
  const { replace, impact } = field;
  const coversFields = isBlock(field) && (replacesAlways(replace) || Object.values(field.fields).some((f) => !hasChangeRule(f)));
  const subject = isBlock(field) ? (coversFields ? 'Adding, removing or changing one' : 'Adding or removing one') : 'Changing it';
  if (replacesAlways(replace)) return `${subject}: ${impactWords('replace', object)}.`;
  const rest = impact === undefined ? '' : conditionalWords(impact, object);
  if (typeof replace === 'object' && replace.if) {
    const replaces = `${impactWords('replace', object)} ${describeCondition(replace.if)}`;
    return `${subject}: ${rest ? `${replaces}, else ${rest}` : replaces}.`;
  }
  return rest ? `${subject}: ${rest}.` : '';
}

/** "Default: …" for a default. */
export function defaultSentence(d: FieldDefault): string {
  if (isDerivedDefault(d)) return `Default: ${d.derived}.`;
  if (isConditionalDefault(d)) return `Default: ${code(d.then)} ${describeCondition(d.if)}, else ${code(d.else)}.`;
  return `Default: ${code(d)}.`;
}

/** "One of …" for allowed values, each with its meaning where the table gives one. */
export function valuesSentence(values: { readonly [value: string]: string }): string {
  const items = Object.entries(values).map(([v, doc]) => (doc ? `${code(v)} (${doc})` : code(v)));
  return `One of ${items.join(', ')}.`;
}

/** How a list block tells its elements apart (./model.ts `BlockField.identity`), e.g. "One is told from another by
 *  `target`, else `volume_id`, else `file`, not by its position: adding or removing one leaves the others as
 *  they are (a new order changes each one moved)." */
function identitySentence(identity: readonly string[]): string {
  return `One is told from another by ${identity.map(code).join(', else ')}, not by its position: adding or removing one leaves the others as they are (a new order changes each one moved).`;
}

/** What a write-only attribute is, as the docs word it (docs/write-only.md). */
function writeOnlySentence(twinOf: string | undefined): string {
  const twin = twinOf ? ` Carries the same content as ${code(twinOf)} and is exclusive with it.` : '';
  return `Write-only (Terraform 1.11 and later): never stored in the plan or the state, accepts ephemeral values; the state keeps only a keyed digest to tell a change.${twin}`;
}

/** A field's whole description: the table's text, then the generated sentences on values, default and change. */
export function describeField(field: Field, object: string): string {
  const parts = [field.description];
  if (!isBlock(field)) {
    if (field.writeOnly) parts.push(writeOnlySentence(field.twinOf));
    if (field.values) parts.push(valuesSentence(field.values));
    if (field.default !== undefined) parts.push(defaultSentence(field.default));
  }
  const change = changeSentence(field, object);
  if (change) parts.push(change);
  if (isBlock(field) && field.identity?.length) parts.push(identitySentence(field.identity));
  return parts.join(' ');
}
