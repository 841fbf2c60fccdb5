/**
 * The provider's second stage with resource handlers that do no work (docs/performance.md, issue 38's ninth round):
 * the same first stage, bundle, code cache, handshake, AutoMTLS, grpc-js server, descriptor, `ProviderServer` and
 * hosting as provider/src/run.ts, bundled the same way by bench/private/plugin-floor.ts. Not shipped.
 *
 * `VIRTSEED_NOOP` (read at start) picks what the resource RPCs do:
 * - `codec` (default): every resource handler is the real one's schema with no logic — `read` answers the current
 *   state, `plan` the proposed state, no `validate`, `upgrade` never called (the state's version is current), so
 *   each RPC still decodes its DynamicValues with the schema and encodes the answer (msgpack and cty, the private
 *   state passed through), as the real provider does.
 * - `raw`: UpgradeResourceState, ReadResource, ValidateResourceConfig and PlanResourceChange answer the request's
 *   own bytes (the stored JSON, the current state, nothing, the proposed state), as the Go floor does: no value is
 *   decoded or encoded; the other RPCs are `ProviderServer`'s.
 */
import { PROVIDER_SCHEMA } from '../../provider/src/config';
import { TCG_ONLY } from '../../provider/src/host';
import { libvirtHosting } from '../../provider/src/hosting';
import type { BaseContext, ResourceHandler } from '../../provider/src/plugin/handler';
import type {
  DiagnosticsResponse,
  PlanResourceChangeRequest,
  PlanResourceChangeResponse,
  ReadResourceRequest,
  ReadResourceResponse,
  UpgradeResourceStateRequest,
  UpgradeResourceStateResponse,
} from '../../provider/src/plugin/messages';
import { serveStarted } from '../../provider/src/plugin/serve';
import { ProviderServer } from '../../provider/src/plugin/server';
import type { StartedPlugin } from '../../provider/src/plugin/start';
import { dataSourceHandlers, hostConnector, resourceHandlers } from '../../provider/src/registry';

/** `handler`'s type and schema, with read = current state and plan = proposed state. */
function noop<C extends BaseContext>(handler: ResourceHandler<unknown, C>): ResourceHandler<unknown, C> {
  return {
    typeName: handler.typeName,
    schema: handler.schema,
    ...(handler.hostAttribute ? { hostAttribute: handler.hostAttribute } : {}),
    plan: async ({ proposed, priorPrivate }) => ({ planned: proposed, requiresReplace: [], diagnostics: [], plannedPrivate: priorPrivate }),
    apply: async ({ planned, plannedPrivate }) => ({ newState: planned, diagnostics: [], private: plannedPrivate }),
    read: async ({ current, private: priv }) => ({ newState: current, diagnostics: [], private: priv }),
  };
}

/** A `ProviderServer` whose four plan RPCs answer the request's bytes without decoding them. */
class RawServer extends ProviderServer {
  override async UpgradeResourceState(req: UpgradeResourceStateRequest): Promise<UpgradeResourceStateResponse> {
    return { upgraded_state: { json: req.raw_state?.json ?? Buffer.alloc(0) }, diagnostics: [] };
  }
  override async ReadResource(req: ReadResourceRequest): Promise<ReadResourceResponse> {
    return { new_state: req.current_state, private: req.private ?? Buffer.alloc(0), diagnostics: [] } as ReadResourceResponse;
  }
  override async ValidateResourceConfig(): Promise<DiagnosticsResponse> {
    return { diagnostics: [] };
  }
  override async PlanResourceChange(req: PlanResourceChangeRequest): Promise<PlanResourceChangeResponse> {
    return {
      planned_state: req.proposed_new_state,
      requires_replace: [],
      planned_private: req.prior_private,
      diagnostics: [],
    } as PlanResourceChangeResponse;
  }
}

/** Serves the no-op provider on the first stage's socket until Shutdown (the bundle's `run`, as provider/src/run.ts). */
export function run(started: StartedPlugin): void {
  const mode = started.env.VIRTSEED_NOOP ?? 'codec';
  const options = {
    providerSchema: PROVIDER_SCHEMA,
    resources: resourceHandlers().map((h) => (mode === 'raw' ? h : noop(h))),
    dataSources: dataSourceHandlers(),
    hosting: libvirtHosting({
      connector: { connect: (uri) => hostConnector().connect(uri) },
      host: TCG_ONLY,
    }),
  } satisfies ConstructorParameters<typeof ProviderServer>[0];
  serveStarted(started, options, mode === 'raw' ? new RawServer({ ...options, log: started.log }) : undefined);
}
