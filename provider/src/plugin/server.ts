/**
 * The tfplugin6 `Provider` service over a registry of `ResourceHandler`s and `DataSourceHandler`s. Each method takes the request message
 * as @grpc/proto-loader decodes it (snake_case keys, bytes as Buffer, enums as names) and resolves to the response
 * message; it never rejects: exceptions become error diagnostics, so the plugin process never crashes on a
 * handler bug. DynamicValues are decoded and encoded with the handler's schema; private state bytes pass through.
 */
import { Diagnostic, ValidationError } from '../../../src/diagnostics';
import { Connection, DEFAULT_URI, HostConnector, HostFacts, HostUnreachableError, TCG_ONLY } from '../host';
import { conform, CtyConversionError, CtyType, decodeJson, decodeMsgpack, encodeMsgpack, isUnknown } from './cty';
import { hostUnreachable, internalError, toAttributePath, toProtoDiagnostic } from './diagnostics';
import type { DataSourceHandler, HandlerContext, ResourceHandler } from './handler';
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
import { nonEmpty, stateError, unknownType, validateUri } from './private/rpc';
import { assertValidSchema, impliedType, normalizeBlockValue, ResourceSchema, toProtoSchema } from './schema';
import { PlanWarnings, validationErrorsOnly } from './warnings';

export interface ProviderServerOptions<C extends Connection = Connection> {
  /** The provider block's schema; an optional string attribute `uri` selects the libvirt host. */
  readonly providerSchema: ResourceSchema;
  readonly resources: readonly ResourceHandler<unknown, C>[];
  /** The data sources (none when absent). */
  readonly dataSources?: readonly DataSourceHandler<unknown, C>[];
  /** Opens the libvirt connection on first `ctx.client()`; absent = handlers may not use the host. */
  readonly connector?: HostConnector<C>;
  /** Host facts handed to handlers (`ctx.host`); default: TCG only. */
  readonly host?: HostFacts;
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

interface Registered<C extends Connection> extends Typed {
  readonly handler: ResourceHandler<unknown, C>;
}

interface RegisteredDataSource<C extends Connection> extends Typed {
  readonly handler: DataSourceHandler<unknown, C>;
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
export function decodeDynamicValue(dv: DynamicValueMsg | null | undefined, type: CtyType): unknown {
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
export function encodeDynamicValue(value: unknown, type: CtyType): DynamicValueMsg {
  return { msgpack: encodeMsgpack(value, type) };
}

export class ProviderServer<C extends Connection = Connection> {
  private readonly resources = new Map<string, Registered<C>>();
  private readonly dataSources = new Map<string, RegisteredDataSource<C>>();
  private readonly providerType: CtyType;
  private readonly log: Logger;
  private readonly stop = new AbortController();
  private readonly planWarnings = new PlanWarnings();
  private uri = '';
  private clientPromise: Promise<C> | undefined;
  /** The handlers' notes (HandlerContext.notes), new at each ConfigureProvider. */
  private notes = new Set<string>();

  /** Throws `Error` when a schema is malformed or two handlers of a kind share a type name. */
  constructor(private readonly options: ProviderServerOptions<C>) {
    this.log = options.log ?? createLogger();
    assertValidSchema(options.providerSchema, 'provider.');
    this.providerType = impliedType(options.providerSchema);
    for (const handler of options.resources) {
      if (this.resources.has(handler.typeName)) throw new Error(`duplicate resource type ${handler.typeName}`);
      assertValidSchema(handler.schema, `${handler.typeName}.`);
      this.resources.set(handler.typeName, { handler, ...typed(handler.schema) });
    }
    for (const handler of options.dataSources ?? []) {
      if (this.dataSources.has(handler.typeName)) throw new Error(`duplicate data source type ${handler.typeName}`);
      assertValidSchema(handler.schema, `data.${handler.typeName}.`);
      this.dataSources.set(handler.typeName, { handler, ...typed(handler.schema) });
    }
  }

  /** The context handed to handlers; `uri` reads the configured URI at the time it is asked. */
  private context(): HandlerContext<C> {
    const configuredUri = () => this.uri;
    return {
      client: () => this.client(),
      get uri() {
        return configuredUri();
      },
      signal: this.stop.signal,
      log: this.log,
      host: this.options.host ?? TCG_ONLY,
      notes: this.notes,
    };
  }

  private connected: C | undefined;
  /**
   * The failed connection attempt per URI: every later call of this process gets the same error at once instead of
   * waiting for the host again (a silent host would cost each call the whole connect timeout). Terraform starts a
   * new provider process for each walk, so the next plan or apply tries again.
   */
  private readonly failed = new Map<string, HostUnreachableError>();

  private client(): Promise<C> {
    if (!this.uri) return Promise.reject(new Error('the provider is not configured yet (its uri is unknown)'));
    if (!this.options.connector) return Promise.reject(new Error('no libvirt connector was given to the provider'));
    const failed = this.failed.get(this.uri);
    if (failed) return Promise.reject(failed);
    if (this.connected?.isClosed) {
      // The connection was lost (libvirtd restarted, network dropped): the next operation reconnects.
      this.log.warn(`connection to ${this.uri} was lost; connecting again`);
      this.connected = undefined;
      this.clientPromise = undefined;
    }
    if (!this.clientPromise) {
      this.log.debug(`connecting to ${this.uri}`);
      const uri = this.uri;
      const pending = this.options.connector.connect(uri).catch((err: unknown) => {
        const unreachable = new HostUnreachableError(uri, err);
        this.failed.set(uri, unreachable);
        return Promise.reject(unreachable);
      });
      this.clientPromise = pending;
      pending.then(
        (c) => (this.connected = c),
        () => (this.clientPromise = undefined),
      );
    }
    return this.clientPromise;
  }

  /** Closes the libvirt client if one was opened (best effort, for Shutdown). */
  async close(): Promise<void> {
    const p = this.clientPromise;
    this.clientPromise = undefined;
    if (p) await p.then((c) => c.close()).catch(() => undefined);
  }

  // ---- information -------------------------------------------------------------------------------------------

  async GetMetadata(): Promise<GetMetadataResponse> {
    return {
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false },
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
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: false, move_resource_state: false },
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
      return { diagnostics: this.diags(validateUri(config?.uri), this.providerType) };
    });
  }

  async ConfigureProvider(req: ProviderConfigRequest): Promise<DiagnosticsResponse> {
    return this.guard('ConfigureProvider', this.providerType, async () => {
      const config = decodeDynamicValue(req.config, this.providerType) as Record<string, unknown> | null;
      const uri = config?.uri;
      const diagnostics = validateUri(uri);
      if (!diagnostics.length) this.uri = isUnknown(uri) ? '' : typeof uri === 'string' && uri ? uri : DEFAULT_URI;
      this.notes = new Set();
      this.log.info(`configured (terraform ${req.terraform_version || '?'}), uri ${this.uri || '(unknown)'}`);
      return { diagnostics: this.diags(diagnostics, this.providerType) };
    });
  }

  // ---- managed resources -------------------------------------------------------------------------------------

  async ValidateResourceConfig(req: ResourceConfigRequest): Promise<DiagnosticsResponse> {
    return this.withResource('ValidateResourceConfig', req.type_name, async ({ handler, type, decode }) => {
      const config = decode(req.config);
      const diagnostics = handler.validate && config !== null ? handler.validate(config, this.context()) : [];
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
    return this.withResource('ReadResource', req.type_name, async ({ handler, type, decode, encode }) => {
      const current = decode(req.current_state);
      const priv = nonEmpty(req.private);
      if (current === null) return { new_state: encode(null), private: priv ?? Buffer.alloc(0), diagnostics: [] };
      const res = await handler.read({ current, private: priv }, this.context());
      return {
        new_state: encode(res.newState),
        private: res.private ?? priv ?? Buffer.alloc(0),
        diagnostics: this.diags(res.diagnostics, type),
      };
    });
  }

  async PlanResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    return this.withResource('PlanResourceChange', req.type_name, async ({ handler, type, decode, encode }) => {
      const [prior, proposed, config] = [decode(req.prior_state), decode(req.proposed_new_state), decode(req.config)];
      const priorPrivate = nonEmpty(req.prior_private);
      // Which half of a change this is (a create, a tainted object's replacement and the create half of any
      // replacement all come with no prior state): only whether values are null, never the values.
      this.log.trace(
        `PlanResourceChange ${req.type_name}: prior ${prior === null ? 'null' : 'set'}, proposed ${proposed === null ? 'null' : 'set'}`,
      );
      const res = await handler.plan({ prior, proposed, config, priorPrivate }, this.context());
      return {
        planned_state: encode(res.planned),
        requires_replace: (res.requiresReplace ?? []).map((p) => toAttributePath(p, type)),
        planned_private: res.plannedPrivate ?? priorPrivate ?? Buffer.alloc(0),
        diagnostics: this.diags(this.planWarnings.once(handler.typeName, config, res.diagnostics), type),
      };
    });
  }

  async ApplyResourceChange(req: ApplyResourceChangeRequest): Promise<ApplyResourceChangeResponse> {
    return this.withResource('ApplyResourceChange', req.type_name, async ({ handler, type, decode, encode }) => {
      const [prior, planned, config] = [decode(req.prior_state), decode(req.planned_state), decode(req.config)];
      const plannedPrivate = nonEmpty(req.planned_private);
      const res = await handler.apply({ prior, planned, config, plannedPrivate }, this.context());
      return {
        new_state: encode(res.newState),
        private: res.private ?? plannedPrivate ?? Buffer.alloc(0),
        diagnostics: this.diags(res.diagnostics, type),
      };
    });
  }

  async ImportResourceState(req: ImportResourceStateRequest): Promise<ImportResourceStateResponse> {
    return this.withResource('ImportResourceState', req.type_name, async ({ handler, type, encode }) => {
      if (!handler.importState) {
        return { diagnostics: this.diags([stateError(`${handler.typeName} does not support import`)], type) };
      }
      const states = await handler.importState(String(req.id ?? ''), this.context());
      return {
        imported_resources: states.map((s) => ({
          type_name: handler.typeName,
          state: encode(s),
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
    return this.withDataSource('ReadDataSource', req.type_name, async ({ handler, type, decode, encode }) => {
      const config = decode(req.config);
      if (config === null) return { state: encode(null), diagnostics: [] };
      const res = await handler.read({ config }, this.context());
      return { state: encode(res.state), diagnostics: this.diags(res.diagnostics, type) };
    });
  }

  // ---- stop --------------------------------------------------------------------------------------------------

  async StopProvider(): Promise<StopProviderResponse> {
    this.log.info('StopProvider: aborting running operations');
    this.stop.abort();
    return { Error: '' };
  }

  // ---- helpers -----------------------------------------------------------------------------------------------

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
      if (err instanceof HostUnreachableError) {
        this.log.error(`${rpc}: ${err.message}`);
        return { diagnostics: this.diags([hostUnreachable(err.uri, err.cause)]) };
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
    fn: (r: Registered<C>) => Promise<R>,
  ): Promise<R | DiagnosticsResponse> {
    const r = this.resources.get(typeName);
    this.log.debug(`${rpc} ${typeName}`);
    if (!r) return Promise.resolve({ diagnostics: this.diags([unknownType('resource', typeName)]) });
    return this.guard(rpc, r.type, () => fn(r), typeName);
  }

  private withDataSource<R extends DiagnosticsResponse>(
    rpc: string,
    typeName: string,
    fn: (d: RegisteredDataSource<C>) => Promise<R>,
  ): Promise<R | DiagnosticsResponse> {
    const d = this.dataSources.get(typeName);
    this.log.debug(`${rpc} data.${typeName}`);
    if (!d) return Promise.resolve({ diagnostics: this.diags([unknownType('data source', typeName)]) });
    return this.guard(rpc, d.type, () => fn(d), `data.${typeName}`);
  }
}
