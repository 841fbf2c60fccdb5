/**
 * Data source tables derived from resource tables: a data source reads an object of the kind a resource manages,
 * so its attributes are the resource's (same names, types and descriptions), with the lookup attributes as
 * required arguments and everything else computed. The plan rules (`default`, `values`, `replace`, `impact`) do
 * not carry over: a data source changes nothing, and reads what the host has (a value the resource would not
 * accept included). Descriptions that speak of configuring the object are replaced
 * through `describe`; attributes only the data source has come in `extra`. Every data source reads one of the
 * provider's hosts, chosen by `host`.
 */
import { isBlock, isOneOf, type FieldTable, type FieldType, type ResourceFields } from './model';

/** A data source attribute: a lookup argument (`required`, or `optional`) or a result (`computed`). */
export interface DataAttributeField<T extends FieldType = FieldType> {
  readonly type: T;
  readonly required?: true;
  readonly optional?: true;
  readonly computed?: true;
  readonly sensitive?: true;
  /** Markdown. */
  readonly description: string;
}

/** `host` of every data source: which of the provider's hosts it reads. */
export const DATA_HOST_FIELD = {
  type: 'string',
  optional: true,
  description: "The libvirt host to read: the `name` of one of the provider's `host` blocks; null (the default) is the provider's `uri`.",
} as const satisfies DataAttributeField<'string'>;

/** A data source's fields by Terraform name. */
export type DataFieldTable = { readonly [name: string]: DataAttributeField };

type AttrType<F> = F extends { readonly type: infer T extends FieldType } ? T : never;

/** The picked resource attributes as data source attributes (same value types). */
export type DerivedFields<F extends FieldTable, K extends keyof F> = { readonly [P in K]: DataAttributeField<AttrType<F[P]>> };

/**
 * The data source table reading what `resource` manages: `lookup` (arguments) and `pick` (results) name resource
 * attributes, in schema order (lookup first); `extra` adds the data source's own results.
 * @throws Error when a picked name is a block or not in the resource's table (a programming error).
 */
export function dataSourceFields<F extends FieldTable, L extends keyof F & string, K extends keyof F & string, E extends DataFieldTable>(
  resource: ResourceFields<F>,
  opts: {
    readonly description: string;
    readonly lookup: readonly L[];
    readonly pick: readonly K[];
    readonly describe?: Partial<Record<L | K, string>>;
    readonly extra: E;
  },
): ResourceFields<DerivedFields<F, L | K> & { readonly host: typeof DATA_HOST_FIELD } & E> {
  const fields: Record<string, DataAttributeField> = {};
  for (const name of [...opts.lookup, ...opts.pick]) {
    const f = resource.fields[name];
    if (!f || isBlock(f)) throw new Error(`data source field ${name}: not an attribute of the resource's table`);
    const lookup = isOneOf(opts.lookup, name);
    fields[name] = {
      type: f.type,
      ...(lookup ? { required: true as const } : { computed: true as const }),
      ...(f.sensitive ? { sensitive: true as const } : {}),
      description: opts.describe?.[name as L | K] ?? f.description,
    };
  }
  Object.assign(fields, { host: DATA_HOST_FIELD }, opts.extra);
  return {
    version: 0,
    description: opts.description,
    object: resource.object,
    whenUnknown: resource.whenUnknown,
    fields: fields as DerivedFields<F, L | K> & { readonly host: typeof DATA_HOST_FIELD } & E,
  };
}
