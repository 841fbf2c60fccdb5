/**
 * The tfplugin6 `Provider` service over a registry of `ResourceHandler`s and `DataSourceHandler`s. Each method takes the request message
 * as @grpc/proto-loader decodes it (snake_case keys, bytes as Buffer, enums as names) and resolves to the response
 * message; it never rejects: exceptions become error diagnostics, so the plugin process never crashes on a
 * handler bug. DynamicValues are decoded and encoded with the handler's schema; private state bytes pass through.
 */
import { Diagnostic, error, ValidationError } from '../../../src/diagnostics';
import { providerHosts, ProviderHosts, validateProviderConfig } from '../host-config';
import { HostConnections } from '../host-connections';
import { Connection, describeHost, HostConfig, HostConnector, HostFacts, HostUnreachableError, TCG_ONLY, UnknownHostError } from '../host';
import { ConfigMemo, configKey } from './config-memo';
import { conform, CtyConversionError, CtyType, decodeJson, decodeMsgpack, encodeMsgpack, isUnknown, UNKNOWN } from './cty';
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
import { nonEmpty, stateError, unknownType } from './private/rpc';
import { assertValidSchema, impliedType, normalizeBlockValue, ResourceSchema, toProtoSchema, writeOnlyPathsSet } from './schema';
import { PlanWarnings, validationErrorsOnly } from './warnings';

export interface ProviderServerOptions<C extends Connection = Connection> {
  /** The provider block's schema: an optional string attribute `uri` selects the default libvirt host, `host`
   *  blocks `{ name, uri, ... }` name others (see ../config.ts). */
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
  /** True when the handler's `host` attribute is where its objects live (ResourceHandler.hostAttribute). */
  readonly located: boolean;
}

interface RegisteredDataSource<C extends Connection> extends Typed {
  readonly handler: DataSourceHandler<unknown, C>;
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
  private configured = false;
  private hosts: ProviderHosts = providerHosts(null);
  private readonly connections: HostConnections<C>;
  /** Hosts whose refresh failure was reported (once per host and provider process). */
  private readonly unreachableOnRead = new Set<string>();
  private readonly planWarnings = new PlanWarnings();
  /** The handlers' notes (HandlerContext.notes), new at each ConfigureProvider. */
  private notes = new Set<string>();
  /** `validate`'s diagnostics by config bytes: ValidateResourceConfig's, served to the PlanResourceChange after it. */
  private readonly validated = new ConfigMemo<readonly Diagnostic[]>();

  /** Throws `Error` when a schema is malformed or two handlers of a kind share a type name. */
  constructor(private readonly options: ProviderServerOptions<C>) {
    this.log = options.log ?? createLogger();
    assertValidSchema(options.providerSchema, 'provider.');
    this.providerType = impliedType(options.providerSchema);
    this.connections = new HostConnections(options.connector, this.log);
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

  /** The provider's host named `name` (null: the default host); undefined when there is none of that name. */
  private hostConfig(name: string | null): HostConfig | undefined {
    if (!this.configured) return undefined;
    return name === null ? this.hosts.default : this.hosts.named.find((h) => h.name === name);
  }

  /**
   * The context handed to a handler for a resource on `host` (the `host` attribute of the value the call is about:
   * a host block's name, null for the default host, UNKNOWN while Terraform does not know it).
   */
  private context(host: unknown = null): HandlerContext<C> {
    const name = typeof host === 'string' ? host : null;
    const own = isUnknown(host) ? undefined : this.hostConfig(name);
    return {
      client: (h?: string | null) => (h === undefined ? this.clientOf(isUnknown(host) ? UNKNOWN : name) : this.clientOf(h)),
      uri: own?.uri ?? '',
      hostName: name,
      hostConfig: (h) => this.hostConfig(h),
      hosts: this.hosts.named,
      signal: this.stop.signal,
      log: this.log,
      host: this.options.host ?? TCG_ONLY,
      notes: this.notes,
    };
  }

  private clientOf(host: string | null | typeof UNKNOWN): Promise<C> {
    if (!this.configured) return Promise.reject(new Error('the provider is not configured yet (its uri is unknown)'));
    if (isUnknown(host)) return Promise.reject(new UnknownHostError(null, "the resource's host is not known yet"));
    const config = this.hostConfig(host);
    if (!config) return Promise.reject(new UnknownHostError(host, unknownHostMessage(host, this.hosts)));
    if (!config.uri)
      return Promise.reject(new UnknownHostError(host, `the URI of ${host === null ? 'the provider' : `host ${host}`} is not known yet`));
    return this.connections.client(config.uri, host);
  }

  /** Closes the libvirt clients opened (best effort, for Shutdown). */
  async close(): Promise<void> {
    await this.connections.close();
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
      return { diagnostics: this.diags(validateProviderConfig(config), this.providerType) };
    });
  }

  async ConfigureProvider(req: ProviderConfigRequest): Promise<DiagnosticsResponse> {
    return this.guard('ConfigureProvider', this.providerType, async () => {
      const config = decodeDynamicValue(req.config, this.providerType) as Record<string, unknown> | null;
      const diagnostics = validateProviderConfig(config);
      if (!diagnostics.some((d) => d.severity === 'error')) {
        this.hosts = providerHosts(config);
        this.configured = true;
      }
      this.notes = new Set();
      const named = this.hosts.named.map((h) => `, host ${h.name} ${h.uri || '(unknown)'}`).join('');
      this.log.info(`configured (terraform ${req.terraform_version || '?'}), uri ${this.hosts.default.uri || '(unknown)'}${named}`);
      return { diagnostics: this.diags(diagnostics, this.providerType) };
    });
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
        if (!(err instanceof HostUnreachableError)) throw err;
        // One host down must not stop the plan of everything else: the object keeps its last known state.
        const first = !this.unreachableOnRead.has(err.uri);
        this.unreachableOnRead.add(err.uri);
        this.log.warn(`ReadResource (${handler.typeName}): ${err.message}; keeping the last known state`);
        return {
          new_state: encode(current),
          private: priv ?? Buffer.alloc(0),
          diagnostics: first ? this.diags([unreachableOnRead(err)]) : [],
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
      if (located && proposed !== null && typeof host === 'string' && this.configured && !this.hostConfig(host))
        return {
          planned_state: encode(proposed),
          diagnostics: this.diags(
            [{ severity: 'error', summary: 'Unknown host', detail: unknownHostMessage(host, this.hosts), path: ['host'] }],
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
      const named = located && colon > 0 && this.hostConfig(given.slice(0, colon)) ? given.slice(0, colon) : null;
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
      if (typeof host === 'string' && this.configured && !this.hostConfig(host))
        return {
          diagnostics: this.diags(
            [{ severity: 'error', summary: 'Unknown host', detail: unknownHostMessage(host, this.hosts), path: ['host'] }],
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
    handler: ResourceHandler<unknown, C>,
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
      if (err instanceof HostUnreachableError) {
        this.log.error(`${rpc}: ${err.message}`);
        return { diagnostics: this.diags([hostUnreachable(err.uri, err.cause, err.host)]) };
      }
      if (err instanceof UnknownHostError) {
        this.log.error(`${rpc}: ${err.message}`);
        return { diagnostics: this.diags([{ severity: 'error', summary: 'Unknown host', detail: `${err.message}.`, path: [] }]) };
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

/** The `host` attribute of a resource value (null when the value has none). */
function hostOf(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || !('host' in value)) return null;
  const host = (value as { host: unknown }).host;
  return host === undefined ? null : host;
}

function unknownHostMessage(host: string | null, hosts: ProviderHosts): string {
  const names = hosts.named.map((h) => h.name);
  return `host ${JSON.stringify(host)} is none of the provider's host blocks (${names.length ? names.join(', ') : 'it has none'}). Add a host block { name = ${JSON.stringify(host)}, uri = "..." } to the provider, or name one of its hosts`;
}

/** The warning for a refresh whose host did not answer: the object keeps its last known state. */
function unreachableOnRead(err: HostUnreachableError): Diagnostic {
  const d = hostUnreachable(err.uri, err.cause, err.host);
  return {
    severity: 'warning',
    summary: `Not refreshed: ${describeHost({ name: err.host, uri: err.uri })} does not answer`,
    detail: `${d.detail} The objects on this host keep their last known state in this plan; applying a change to one of them needs the host.`,
    path: [],
  };
}
