/**
 * The tfplugin6 messages of the `Provider` service (provider/src/plugin/proto/tfplugin6.proto) as the plain objects
 * the gRPC layer hands over and takes back (private/services.ts: snake_case keys, int64 as number, enums as their
 * names, bytes as Buffer). A request lists the fields the server reads, each optional: a client may leave any
 * out, and tests send only what a call needs. A response lists every field the server sets.
 */

/** `DynamicValue`: a value of the resource's implied type, msgpack (preferred) or JSON encoded; absent = null. */
export interface DynamicValueMsg {
  msgpack?: Buffer | null;
  json?: Buffer | null;
}

/** One `AttributePath.Step`: exactly one of the selector's fields. */
export type ProtoStep = { attribute_name: string } | { element_key_string: string } | { element_key_int: number };

/** `AttributePath`. */
export interface AttributePathMsg {
  steps: ProtoStep[];
}

/** `Diagnostic`; `attribute` is absent for a problem of the whole resource or provider. */
export interface DiagnosticMsg {
  severity: 'ERROR' | 'WARNING';
  summary: string;
  detail: string;
  attribute?: AttributePathMsg;
}

/** `Schema.Attribute`; `type` is the JSON of the attribute's cty type, e.g. `"string"` or `["map","string"]`. */
export interface SchemaAttributeMsg {
  name: string;
  type: Buffer;
  description: string;
  description_kind: 'MARKDOWN';
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  write_only: boolean;
  deprecated: boolean;
}

/** `Schema.NestedBlock`; 0 for `min_items`/`max_items` means no limit. */
export interface SchemaNestedBlockMsg {
  type_name: string;
  block: SchemaBlockMsg;
  nesting: 'SINGLE' | 'LIST' | 'SET';
  min_items: number;
  max_items: number;
}

/** `Schema.Block`. */
export interface SchemaBlockMsg {
  version: number;
  attributes: SchemaAttributeMsg[];
  block_types: SchemaNestedBlockMsg[];
  description: string;
  description_kind: 'MARKDOWN';
  deprecated: boolean;
}

/** `Schema`: the state schema version and the top-level block. */
export interface SchemaMsg {
  version: number;
  block: SchemaBlockMsg;
}

/** `ServerCapabilities`. */
export interface ServerCapabilitiesMsg {
  plan_destroy: boolean;
  get_provider_schema_optional: boolean;
  move_resource_state: boolean;
}

/** `RawState`: the stored state as JSON (or the legacy flatmap, which virtseed rejects). */
export interface RawStateMsg {
  json?: Buffer | null;
  flatmap?: Record<string, string> | null;
}

/** Responses that carry only diagnostics (the validate and configure calls, MoveResourceState, the data sources). */
export interface DiagnosticsResponse {
  diagnostics: DiagnosticMsg[];
}

/** `GetMetadata.Response`. virtseed serves no functions. */
export interface GetMetadataResponse extends DiagnosticsResponse {
  server_capabilities: ServerCapabilitiesMsg;
  data_sources: { type_name: string }[];
  resources: { type_name: string }[];
  functions: { name: string }[];
}

/** `GetProviderSchema.Response`. */
export interface GetProviderSchemaResponse extends DiagnosticsResponse {
  provider: SchemaMsg;
  resource_schemas: Record<string, SchemaMsg>;
  data_source_schemas: Record<string, SchemaMsg>;
  functions: Record<string, never>;
  server_capabilities: ServerCapabilitiesMsg;
}

/** `GetFunctions.Response`: virtseed has none. */
export interface GetFunctionsResponse extends DiagnosticsResponse {
  functions: Record<string, never>;
}

/** `GetResourceIdentitySchemas.Response`: virtseed has none. */
export interface GetResourceIdentitySchemasResponse extends DiagnosticsResponse {
  identity_schemas: Record<string, never>;
}

/** `ValidateProviderConfig.Request` and `ConfigureProvider.Request`. */
export interface ProviderConfigRequest {
  config?: DynamicValueMsg | null;
  /** ConfigureProvider only. */
  terraform_version?: string;
}

/** `ValidateResourceConfig.Request`, `ValidateDataResourceConfig.Request` and `ReadDataSource.Request`. */
export interface ResourceConfigRequest {
  type_name: string;
  config?: DynamicValueMsg | null;
  /** `ClientCapabilities`; `write_only_attributes_allowed` is true from Terraform 1.11. */
  client_capabilities?: { deferral_allowed?: boolean; write_only_attributes_allowed?: boolean } | null;
}

/** `UpgradeResourceState.Request`. */
export interface UpgradeResourceStateRequest {
  type_name: string;
  version?: number;
  raw_state?: RawStateMsg | null;
}

/** `UpgradeResourceState.Response`; `upgraded_state` is absent when the call fails. */
export interface UpgradeResourceStateResponse extends DiagnosticsResponse {
  upgraded_state?: DynamicValueMsg;
}

/** `ReadDataSource.Response`; `state` is absent when the call fails. */
export interface ReadDataSourceResponse extends DiagnosticsResponse {
  state?: DynamicValueMsg;
}

/** `ReadResource.Request`. */
export interface ReadResourceRequest {
  type_name: string;
  current_state?: DynamicValueMsg | null;
  private?: Buffer | null;
}

/** `ReadResource.Response`; the other fields are absent when the call fails. */
export interface ReadResourceResponse extends DiagnosticsResponse {
  new_state?: DynamicValueMsg;
  private?: Buffer;
}

/** `PlanResourceChange.Request`. */
export interface PlanResourceChangeRequest {
  type_name: string;
  prior_state?: DynamicValueMsg | null;
  proposed_new_state?: DynamicValueMsg | null;
  config?: DynamicValueMsg | null;
  prior_private?: Buffer | null;
}

/** `PlanResourceChange.Response`; the other fields are absent when the call fails. */
export interface PlanResourceChangeResponse extends DiagnosticsResponse {
  planned_state?: DynamicValueMsg;
  requires_replace?: AttributePathMsg[];
  planned_private?: Buffer;
}

/** `ApplyResourceChange.Request`. */
export interface ApplyResourceChangeRequest {
  type_name: string;
  prior_state?: DynamicValueMsg | null;
  planned_state?: DynamicValueMsg | null;
  config?: DynamicValueMsg | null;
  planned_private?: Buffer | null;
}

/** `ApplyResourceChange.Response`; the other fields are absent when the call fails. */
export interface ApplyResourceChangeResponse extends DiagnosticsResponse {
  new_state?: DynamicValueMsg;
  private?: Buffer;
}

/** `ImportResourceState.Request`. */
export interface ImportResourceStateRequest {
  type_name: string;
  id?: string;
}

/** `ImportResourceState.Response`; `imported_resources` is absent when the call fails. */
export interface ImportResourceStateResponse extends DiagnosticsResponse {
  imported_resources?: { type_name: string; state: DynamicValueMsg; private: Buffer }[];
}

/** `MoveResourceState.Request`. */
export interface MoveResourceStateRequest {
  target_type_name?: string;
}

/** `StopProvider.Response`: `Error` is empty when stopping worked. */
export interface StopProviderResponse {
  Error: string;
}
