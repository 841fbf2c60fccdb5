/**
 * The tfplugin6 `Provider` service over a registry of `ResourceHandler`s and `DataSourceHandler`s. Each method takes the request message
 * as @grpc/proto-loader decodes it (snake_case keys, bytes as Buffer, enums as names) and resolves to the response
 * message; it never rejects: exceptions become error diagnostics, so the plugin process never crashes on a
 * handler bug. DynamicValues are decoded and encoded with the handler's schema; private state bytes pass through.
 */
import { Diagnostic, error, ValidationError } from '../../../src/diagnostics';
import { conform, CtyConversionError, CtyType, decodeJson, decodeMsgpack, encodeMsgpack } from './cty';
import { internalError, toAttributePath, toProtoDiagnostic } from './diagnostics';
import type { BaseContext, DataSourceHandler, ProviderHosting, ResourceHandler } from './handler';
import { ConfigMemo, configKey } from './config-memo';
import { createLogger, Logger } from './log';
import type {
  ApplyResourceChangeRequest,
  ApplyResourceChangeResponse,
  DiagnosticMsg,
  DiagnosticsResponse,
  DynamicValueMsg,
  GetFunctionsResponse,
  GetMetadataResponse,
  GetProviderSchemaResponse,
  GetResourceIdentitySchemasResponse,
  ImportResourceStateRequest,
  ImportResourceStateResponse,
  MoveResourceStateRequest,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  ProviderConfigRequest,
  RawStateMsg,
  ReadDataSourceResponse,
  ReadResourceRequest,
  ReadResourceResponse,
  ResourceConfigRequest,
  SchemaMsg,
  StopProviderResponse,
  UpgradeResourceStateRequest,
  UpgradeResourceStateResponse,
} from './messages';
import { nonEmpty, stateError, unknownType } from './private/rpc';
import { assertValidSchema, impliedType, normalizeBlockValue, ResourceSchema, toProtoSchema, writeOnlyPathsSet } from './schema';
import { PlanWarnings, validationErrorsOnly } from './warnings';

export interface ProviderServerOptions<Ctx extends BaseContext = BaseContext> {
  /** The provider block's schema (what it means is the hosting's). */
  readonly providerSchema: ResourceSchema;
  readonly resources: readonly ResourceHandler<unknown, Ctx>[];
  /** The data sources (none when absent). */
  readonly dataSources?: readonly DataSourceHandler<unknown, Ctx>[];
  /** Makes the provider's hosting (its provider block, locations and call contexts), given the server's logger. */
  readonly hosting: (log: Logger) => ProviderHosting<Ctx>;
  readonly log?: Logger;
}

/** A handler's schema type and the one decoder and encoder of its values. */
interface Typed {
  readonly type: CtyType;
  /** The handler's typed value of a DynamicValue from Terraform (the one place values are decoded). */
  decode(dv: DynamicValueMsg | null | undefined): unknown;
  /** The DynamicValue of a handler's value, normalized to the schema (the one place values are encoded). */
  encode(value: unknown): DynamicValueMsg;
}

interface Registered<Ctx extends BaseContext> extends Typed {
  readonly handler: ResourceHandler<unknown, Ctx>;
  /** True when the handler's `host` attribute is where its objects live (ResourceHandler.hostAttribute). */
  readonly located: boolean;
}

interface RegisteredDataSource<Ctx extends BaseContext> extends Typed {
  readonly handler: DataSourceHandler<unknown, Ctx>;
  /** True when the data source has a `host` attribute: the host it reads. */
  readonly located: boolean;
}

/** True when a handler's `host` attribute names the host its objects live on (or a data source reads). */
function located(handler: { schema: ResourceSchema; hostAttribute?: 'location' | 'output' }): boolean {
  return 'host' in handler.schema.attributes && handler.hostAttribute !== 'output';
}

/** The decoder and encoder of values of `schema`. */
function typed(schema: ResourceSchema): Typed {
  const type = impliedType(schema);
  return {
    type,
    decode: (dv) => decodeDynamicValue(dv, type),
    encode: (value) => encodeDynamicValue(normalizeBlockValue(schema, value), type),
  };
}

/**
 * Decodes a DynamicValue (msgpack preferred, else JSON; absent or empty = null). Throws MalformedValueError for
 * bytes that do not decode, values of the wrong type and attributes the schema does not have.
 */
function decodeDynamicValue(dv: DynamicValueMsg | null | undefined, type: CtyType): unknown {
  if (!dv) return null;
  try {
    if (dv.msgpack && dv.msgpack.length) return decodeMsgpack(dv.msgpack, type, true);
    if (dv.json && dv.json.length) return decodeJson(dv.json, type, true);
  } catch (e) {
    throw new MalformedValueError(e instanceof CtyConversionError ? e.path : [], e instanceof Error ? e.message : String(e));
  }
  return null;
}

/** A DynamicValue from Terraform that does not fit the schema (reported as a diagnostic, never a crash). */
export class MalformedValueError extends Error {
  constructor(
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
    this.name = 'MalformedValueError';
  }
}

/** Encodes a value as a msgpack DynamicValue. */
function encodeDynamicValue(value: unknown, type: CtyType): DynamicValueMsg {
  return { msgpack: encodeMsgpack(value, type) };
}

/**
 * What this server tells Terraform it can do (GetMetadata and GetProviderSchema). `get_provider_schema_optional`:
 * the schema never depends on the process or its config, so Terraform (1.6 and later) keeps the first process's
 * answer for the run and does not ask again in the other processes it starts for a plan or an apply (each would
 * otherwise build and send the whole schema, issue 38).
 */
const SERVER_CAPABILITIES = { plan_destroy: false, get_provider_schema_optional: true, move_resource_state: false } as const;

export class ProviderServer<Ctx extends BaseContext = BaseContext> {
  private readonly resources = new Map<string, Registered<Ctx>>();
  private readonly dataSources = new Map<string, RegisteredDataSource<Ctx>>();
  private readonly providerType: CtyType;
  private readonly log: Logger;
  private readonly stop = new AbortController();
  private configured = false;
  /** What the hosting said of the last config it took (logged at each ConfigureProvider). */
  private lastConfigured = 'not configured';
  private readonly hosting: ProviderHosting<Ctx>;
  /** Places whose refresh failure was reported (once per place and provider process). */
  private readonly unreachableOnRead = new Set<string>();
  private planWarnings = new PlanWarnings();
  /** The handlers' notes (HandlerContext.notes), new at each ConfigureProvider. */
  private notes = new Set<string>();
  /** `validate`'s diagnostics by config bytes: ValidateResourceConfig's, served to the PlanResourceChange after it. */
  private readonly validated = new ConfigMemo<readonly Diagnostic[]>();

  /** Throws `Error` when a schema is malformed or two handlers of a kind share a type name. */
  constructor(private readonly options: ProviderServerOptions<Ctx>) {
    this.log = options.log ?? createLogger();
    assertValidSchema(options.providerSchema, 'provider.');
    this.providerType = impliedType(options.providerSchema);
    this.hosting = options.hosting(this.log);
    for (const handler of options.resources) {
      if (this.resources.has(handler.typeName)) throw new Error(`duplicate resource type ${handler.typeName}`);
      assertValidSchema(handler.schema, `${handler.typeName}.`);
      this.resources.set(handler.typeName, { handler, ...typed(handler.schema), located: located(handler) });
    }
    for (const handler of options.dataSources ?? []) {
      if (this.dataSources.has(handler.typeName)) throw new Error(`duplicate data source type ${handler.typeName}`);
      assertValidSchema(handler.schema, `data.${handler.typeName}.`);
      this.dataSources.set(handler.typeName, { handler, ...typed(handler.schema), located: located(handler) });
    }
  }

  /** The context handed to a handler for an object at `location` (its `host` attribute; null when it has none). */
  private context(location: unknown = null): Ctx {
    return this.hosting.context({ signal: this.stop.signal, log: this.log, notes: this.notes }, location);
  }

  /** True when `location` is a name the configured provider does not know. */
  private unknown(location: unknown): location is string {
    return typeof location === 'string' && this.configured && !this.hosting.knows(location);
  }

  /** Closes what the provider opened (best effort, for Shutdown). */
  async close(): Promise<void> {
    await this.hosting.close();
  }

  // ---- information -------------------------------------------------------------------------------------------

  async GetMetadata(): Promise<GetMetadataResponse> {
    return {
      server_capabilities: SERVER_CAPABILITIES,
      diagnostics: [],
      data_sources: [...this.dataSources.keys()].map((type_name) => ({ type_name })),
      resources: [...this.resources.keys()].map((type_name) => ({ type_name })),
      functions: [],
    };
  }

  async GetProviderSchema(): Promise<GetProviderSchemaResponse> {
    const resource_schemas: Record<string, SchemaMsg> = {};
    for (const [name, r] of this.resources) resource_schemas[name] = toProtoSchema(r.handler.schema);
    const data_source_schemas: Record<string, SchemaMsg> = {};
    for (const [name, d] of this.dataSources) data_source_schemas[name] = toProtoSchema(d.handler.schema);
    return {
      provider: toProtoSchema(this.options.providerSchema),
      resource_schemas,
      data_source_schemas,
      functions: {},
      diagnostics: [],
      server_capabilities: SERVER_CAPABILITIES,
    };
  }

  async GetFunctions(): Promise<GetFunctionsResponse> {
    return { functions: {}, diagnostics: [] };
  }

  async GetResourceIdentitySchemas(): Promise<GetResourceIdentitySchemasResponse> {
    return { identity_schemas: {}, diagnostics: [] };
  }

  // ---- provider configuration --------------------------------------------------------------------------------

  async ValidateProviderConfig(req: ProviderConfigRequest): Promise<DiagnosticsResponse> {
    return this.guard('ValidateProviderConfig', this.providerType, async () => {
      const config = decodeDynamicValue(req.config, this.providerType) as Record<string, unknown> | null;
      return { diagnostics: this.diags(this.hosting.validateConfig(config), this.providerType) };
    });
  }

  async ConfigureProvider(req: ProviderConfigRequest): Promise<DiagnosticsResponse> {
    return this.guard('ConfigureProvider', this.providerType, async () => {
      const config = decodeDynamicValue(req.config, this.providerType) as Record<string, unknown> | null;
      const diagnostics = this.hosting.validateConfig(config);
      let described = this.lastConfigured;
      if (this.configured) this.newWalk();
      if (!diagnostics.some((d) => d.severity === 'error')) {
        described = this.lastConfigured = this.hosting.configure(config);
        this.configured = true;
      }
      this.notes = new Set();
      this.log.info(`configured (terraform ${req.terraform_version || '?'}), ${described}`);
      return { diagnostics: this.diags(diagnostics, this.providerType) };
    });
  }

  /**
   * ConfigureProvider again: a new walk in this process. Terraform starts one process per walk and configures it
   * once, so users never get here; a test harness that reattaches terraform to one long-lived process
   * (TF_REATTACH_PROVIDERS) does, and the walk must see what a fresh process would: the per-walk memos are
   * forgotten here (the hosting renews its connections in `configure`, the handlers' notes are new).
   */
  private newWalk(): void {
    this.unreachableOnRead.clear();
    this.planWarnings = new PlanWarnings();
    this.validated.clear();
  }

  // ---- managed resources -------------------------------------------------------------------------------------

  async ValidateResourceConfig(req: ResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.withResource('ValidateResourceConfig', req.type_name, async ({ handler, type, decode }) => {
      const config = decode(req.config);
      // A Terraform without write-only support would store these values in its plan and state: refuse them.
      if (!req.client_capabilities?.write_only_attributes_allowed) {
        const refused = writeOnlyPathsSet(handler.schema, config).map((path) =>
          error(
            path,
            'Write-only attribute needs Terraform 1.11',
            `${String(path[path.length - 1])} is write-only: this Terraform does not support write-only attributes and would store its value in the plan and the state. Use Terraform 1.11 or later, or the attribute it stands in for.`,
          ),
        );
        if (refused.length) return { diagnostics: this.diags(refused, type) };
      }
      const diagnostics = config !== null ? (this.validateOnce(handler, req.config, config) ?? []) : [];
      return { diagnostics: this.diags(validationErrorsOnly(diagnostics), type) }; // warnings come from the plan (./warnings)
    });
  }

  async UpgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    return this.withResource('UpgradeResourceState', req.type_name, async ({ handler, type, encode }) => {
      const raw: RawStateMsg = req.raw_state ?? {};
      const version = Number(req.version ?? 0);
      if (!raw.json || !raw.json.length) {
        const legacy = raw.flatmap && Object.keys(raw.flatmap).length > 0;
        if (legacy) return { diagnostics: this.diags([stateError('legacy flatmap state is not supported')], type) };
        return { upgraded_state: encode(null), diagnostics: [] };
      }
      if (version > handler.schema.version) {
        return {
          diagnostics: this.diags(
            [
              stateError(
                `the state has schema version ${version}, newer than this provider's ${handler.schema.version}; use a newer provider`,
              ),
            ],
            type,
          ),
        };
      }
      const parsed: unknown = JSON.parse(Buffer.from(raw.json).toString('utf8'));
      const upgraded = version < handler.schema.version && handler.upgrade ? handler.upgrade(parsed, version) : parsed;
      return { upgraded_state: encode(conform(upgraded, type)), diagnostics: [] };
    });
  }

  async ReadResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    return this.withResource('ReadResource', req.type_name, async ({ handler, type, decode, encode, located }) => {
      const current = decode(req.current_state);
      const priv = nonEmpty(req.private);
      if (current === null) return { new_state: encode(null), private: priv ?? Buffer.alloc(0), diagnostics: [] };
      let res;
      try {
        res = await handler.read({ current, private: priv }, this.context(located ? hostOf(current) : null));
      } catch (err) {
        const down = this.hosting.unreachable(err);
        if (!down) throw err;
        // One host down must not stop the plan of everything else: the object keeps its last known state.
        const first = !this.unreachableOnRead.has(down.place);
        this.unreachableOnRead.add(down.place);
        this.log.warn(`ReadResource (${handler.typeName}): ${down.message}; keeping the last known state`);
        return {
          new_state: encode(current),
          private: priv ?? Buffer.alloc(0),
          diagnostics: first ? this.diags([down.warning]) : [],
        };
      }
      return {
        new_state: encode(res.newState),
        private: res.private ?? priv ?? Buffer.alloc(0),
        diagnostics: this.diags(res.diagnostics, type),
      };
    });
  }

  async PlanResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    return this.withResource('PlanResourceChange', req.type_name, async ({ handler, type, decode, encode, located }) => {
      const [prior, proposed, config] = [decode(req.prior_state), decode(req.proposed_new_state), decode(req.config)];
      const priorPrivate = nonEmpty(req.prior_private);
      const host = located ? hostOf(proposed ?? prior) : null;
      if (located && proposed !== null && this.unknown(host))
        return {
          planned_state: encode(proposed),
          diagnostics: this.diags(
            [{ severity: 'error', summary: 'Unknown host', detail: this.hosting.unknownMessage(host), path: ['host'] }],
            type,
          ),
        };
      // Which half of a change this is (a create, a tainted object's replacement and the create half of any
      // replacement all come with no prior state): only whether values are null, never the values.
      this.log.trace(
        `PlanResourceChange ${req.type_name}: prior ${prior === null ? 'null' : 'set'}, proposed ${proposed === null ? 'null' : 'set'}`,
      );
      // The config's own checks, when ValidateResourceConfig just did them for these bytes (the handler's, else).
      const validated = config !== null && handler.validate ? this.validated.peek(configKey(handler.typeName, req.config)) : undefined;
      const res = await handler.plan(
        { prior, proposed, config, priorPrivate, ...(validated ? { validated: [...validated] } : {}) },
        this.context(host),
      );
      return {
        planned_state: encode(res.planned),
        requires_replace: (res.requiresReplace ?? []).map((p) => toAttributePath(p, type)),
        planned_private: res.plannedPrivate ?? priorPrivate ?? Buffer.alloc(0),
        diagnostics: this.diags(this.planWarnings.once(handler.typeName, config, res.diagnostics), type),
      };
    });
  }

  async ApplyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    return this.withResource('ApplyResourceChange', req.type_name, async ({ handler, type, decode, encode, located }) => {
      const [prior, planned, config] = [decode(req.prior_state), decode(req.planned_state), decode(req.config)];
      const plannedPrivate = nonEmpty(req.planned_private);
      const host = located ? hostOf(planned ?? prior) : null;
      const res = await handler.apply({ prior, planned, config, plannedPrivate }, this.context(host));
      return {
        new_state: encode(res.newState),
        private: res.private ?? plannedPrivate ?? Buffer.alloc(0),
        diagnostics: this.diags(res.diagnostics, type),
      };
    });
  }

  async ImportResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    return this.withResource('ImportResourceState', req.type_name, async ({ handler, type, encode, located }) => {
      if (!handler.importState) {
        return { diagnostics: this.diags([stateError(`${handler.typeName} does not support import`)], type) };
      }
      // `<host>:<id>` imports from a host block's host (host names have no ':'; the default host takes the id as is).
      const given = String(req.id ?? '');
      const colon = given.indexOf(':');
      const named = located && colon > 0 && this.configured && this.hosting.knows(given.slice(0, colon)) ? given.slice(0, colon) : null;
      const id = named === null ? given : given.slice(colon + 1);
      const states = await handler.importState(id, this.context(named));
      return {
        imported_resources: states.map((s) => ({
          type_name: handler.typeName,
          state: encode(located && s && typeof s === 'object' ? { ...s, host: named } : s),
          private: Buffer.alloc(0),
        })),
        diagnostics: [],
      };
    });
  }

  async MoveResourceState(req: MoveResourceStateRequest): Promise<DiagnosticsResponse> {
    return { diagnostics: this.diags([stateError(`moving state into ${req.target_type_name || 'this type'} is not supported`)]) };
  }

  // ---- data sources ------------------------------------------------------------------------------------------

  async ValidateDataResourceConfig(req: ResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.withDataSource('ValidateDataResourceConfig', req.type_name, async ({ handler, type, decode }) => {
      const config = decode(req.config);
      const diagnostics = handler.validate && config !== null ? handler.validate(config, this.context()) : [];
      return { diagnostics: this.diags(diagnostics, type) };
    });
  }

  async ReadDataSource(req: ResourceConfigRequest): Promise<ReadDataSourceResponse | DiagnosticsResponse> {
    return this.withDataSource('ReadDataSource', req.type_name, async ({ handler, type, decode, encode, located }) => {
      const config = decode(req.config);
      if (config === null) return { state: encode(null), diagnostics: [] };
      const host = located ? hostOf(config) : null;
      if (this.unknown(host))
        return {
          diagnostics: this.diags(
            [{ severity: 'error', summary: 'Unknown host', detail: this.hosting.unknownMessage(host), path: ['host'] }],
            type,
          ),
        };
      const res = await handler.read({ config }, this.context(host));
      // The host read is the configured one (null: the default host), whatever the handler's value says.
      const state = located && res.state && typeof res.state === 'object' ? { ...res.state, host } : res.state;
      return { state: encode(state), diagnostics: this.diags(res.diagnostics, type) };
    });
  }

  // ---- stop --------------------------------------------------------------------------------------------------

  async StopProvider(): Promise<StopProviderResponse> {
    this.log.info('StopProvider: aborting running operations');
    this.stop.abort();
    return { Error: '' };
  }

  // ---- helpers -----------------------------------------------------------------------------------------------

  /** The handler's `validate(config)` (undefined when it has none), computed once per config bytes `dv`. */
  private validateOnce(
    handler: ResourceHandler<unknown, Ctx>,
    dv: DynamicValueMsg | null | undefined,
    config: unknown,
  ): readonly Diagnostic[] | undefined {
    const validate = handler.validate;
    if (!validate) return undefined;
    return this.validated.get(configKey(handler.typeName, dv), () => validate.call(handler, config, this.context()));
  }

  private diags(diagnostics: readonly Diagnostic[] | undefined, type?: CtyType): DiagnosticMsg[] {
    return (diagnostics ?? []).map((d) => toProtoDiagnostic(d, type));
  }

  private async guard<R extends DiagnosticsResponse>(
    rpc: string,
    type: CtyType | undefined,
    fn: () => Promise<R>,
    typeName?: string,
  ): Promise<R | DiagnosticsResponse> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof ValidationError) return { diagnostics: this.diags(err.diagnostics, type) };
      const explained = this.hosting.explain(err);
      if (explained) {
        this.log.error(`${rpc}: ${err instanceof Error ? err.message : String(err)}`);
        return { diagnostics: this.diags([explained]) };
      }
      if (err instanceof MalformedValueError) {
        this.log.error(`${rpc}: malformed value at ${err.path.join('.') || '(root)'}`);
        return {
          diagnostics: this.diags(
            [
              {
                severity: 'error',
                summary: `Malformed value from Terraform${typeName ? ` for ${typeName}` : ''}`,
                path: [],
                detail: `Terraform sent a value this provider cannot read: ${err.message}. Check that terraform and the provider agree on the schema (terraform init -upgrade), and that the state was written by this provider.`,
              },
            ],
            type,
          ),
        };
      }
      this.log.error(`${rpc}${typeName ? ` (${typeName})` : ''}: ${err instanceof Error ? err.message : String(err)}`);
      return { diagnostics: this.diags([internalError(rpc, err, typeName)]) };
    }
  }

  private withResource<R extends DiagnosticsResponse>(
    rpc: string,
    typeName: string,
    fn: (r: Registered<Ctx>) => Promise<R>,
  ): Promise<R | DiagnosticsResponse> {
    const r = this.resources.get(typeName);
    this.log.debug(`${rpc} ${typeName}`);
    if (!r) return Promise.resolve({ diagnostics: this.diags([unknownType('resource', typeName)]) });
    return this.guard(rpc, r.type, () => fn(r), typeName);
  }

  private withDataSource<R extends DiagnosticsResponse>(
    rpc: string,
    typeName: string,
    fn: (d: RegisteredDataSource<Ctx>) => Promise<R>,
  ): Promise<R | DiagnosticsResponse> {
    const d = this.dataSources.get(typeName);
    this.log.debug(`${rpc} data.${typeName}`);
    if (!d) return Promise.resolve({ diagnostics: this.diags([unknownType('data source', typeName)]) });
    return this.guard(rpc, d.type, () => fn(d), `data.${typeName}`);
  }
}

/** The `host` attribute of a resource value (null when the value has none). */
function hostOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('host' in value)) return null;
  const host = (value as { host: unknown }).host;
  return host === undefined ? null : host;
}
