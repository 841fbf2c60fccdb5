/**
 * The options of a device, given by their model keys (src/domain/options.ts), as the generated bindings name their
 * `virtseed_domain` attributes: camelCase of the attribute (`rate_period` → `ratePeriod`), so a construct whose
 * props are the model's keys renders its block from the option table alone.
 */
import { optionEntries, type OptionTable } from '../../../src/domain';

/** `rate_period` → `ratePeriod`. */
const camelCase = (attribute: string): string => attribute.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The options `values` has (by model key) of `table`, keyed by binding name. */
export function bindingOptions(table: OptionTable, values: object): { [binding: string]: unknown } {
  const given = new Map<string, unknown>(Object.entries(values));
  return Object.fromEntries(optionEntries(table).flatMap(([key, o]) => (given.has(key) ? [[camelCase(o.attribute), given.get(key)]] : [])));
}
