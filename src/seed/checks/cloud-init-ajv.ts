/**
 * The ajv instance that reads cloud-init's cloud-config schema (draft-04) the way cloud-init's validator does
 * (python-jsonschema Draft4Validator with a FormatChecker): format `date` checked, `hostname` and `uri` not,
 * `deprecated: true` an annotation. Shared by src/seed/checks/schema.ts (run-time compile, only while the
 * precompiled validators are stale) and scripts/generate-seed-validators.ts (standalone code), so both produce the
 * same results.
 *
 * The `deprecated` keyword generates code (so standalone validators carry it): when the value also matches the
 * keywords next to `deprecated` (like cloud-init's oneOf/anyOf, a deprecation of an alternative the value does not
 * match does not count, e.g. `sudo: "ALL"` against the deprecated `false` branch), it appends
 * `{ instancePath, description }` to `this.deprecated`. Validators are therefore called with a
 * {@link DeprecationContext} as `this` (`fn.call(context, value)`; ajv option `passContext`).
 */
import type Ajv from 'ajv';
import type { KeywordCxt } from 'ajv';
import { _, getProperty, strConcat } from 'ajv/dist/compile/codegen';
import N from 'ajv/dist/compile/names';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';

/** A use of a property marked `deprecated`, as the validator reports it. */
export interface DeprecatedAnnotation {
  /** JSON Pointer of the value, e.g. `/users/0/sudo`. */
  instancePath: string;
  /** The deprecated (sub)schema's `description`, when it has one. */
  description?: string;
}

/** The `this` of a cloud-config validator: where `deprecated` annotations are appended. */
export interface DeprecationContext {
  deprecated: DeprecatedAnnotation[];
}

/** ajv options for the cloud-config schema (`code` added by the standalone generator). */
const CLOUD_INIT_AJV_OPTIONS = { allErrors: true, strict: false, validateSchema: false, passContext: true } as const;

/** The key the whole cloud-config schema is added under; module validators reference `cloud-config#/$defs/<module>`. */
export const CLOUD_CONFIG_KEY = 'cloud-config';

/** The schema of one module's validator: a `$ref` into the whole schema, so only that module is compiled. */
export function moduleSchema(module: string): object {
  return { $ref: `${CLOUD_CONFIG_KEY}#/$defs/${module}` };
}

function deprecatedCode(cxt: KeywordCxt): void {
  const { gen, it } = cxt;
  if (cxt.schema !== true) return;
  const { deprecated: _d, description, ...siblings } = cxt.parentSchema as Record<string, unknown>;
  const matches = gen.name('deprecatedMatches');
  cxt.subschema(
    {
      schema: siblings,
      // the siblings are keywords of the parent schema, so its path finds their values
      schemaPath: it.schemaPath,
      topSchemaRef: it.topSchemaRef,
      errSchemaPath: it.errSchemaPath,
      compositeRule: true,
      createErrors: false,
      allErrors: false,
    },
    matches,
  );
  const annotation =
    typeof description === 'string'
      ? _`{instancePath: ${strConcat(N.instancePath, it.errorPath)}, description: ${description}}`
      : _`{instancePath: ${strConcat(N.instancePath, it.errorPath)}}`;
  gen.if(matches, () => gen.code(_`${N.this}${getProperty('deprecated')}.push(${annotation})`));
  cxt.reset(); // the siblings' failures are not errors of the value
}

/**
 * A new ajv-draft-04 instance with the cloud-config keywords and formats, `extra` options merged (e.g. `code` for
 * standalone generation). schema.ts loads this module (and with it ajv-draft-04 and ajv-formats) only when it compiles.
 */
export function cloudInitAjv(extra: Record<string, unknown> = {}): Ajv {
  const ajv = new AjvDraft04({ ...CLOUD_INIT_AJV_OPTIONS, ...extra }) as unknown as Ajv;
  addFormats(ajv, ['date']);
  ajv.addFormat('hostname', true).addFormat('uri', true);
  ajv.addKeyword({ keyword: 'deprecated', schemaType: 'boolean', errors: false, trackErrors: true, code: deprecatedCode });
  return ajv;
}
