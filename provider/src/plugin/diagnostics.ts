/**
 * Our `Diagnostic` (src/diagnostics.ts) as the tfplugin6 `Diagnostic` message, and attribute paths as
 * `AttributePath` steps. The step kind follows the value's type when known: object attribute → `attribute_name`,
 * map key → `element_key_string`, list/tuple index → `element_key_int`. Sets have no addressable elements, so a
 * path is cut at a set (Terraform then points at the whole set).
 */
import type { Diagnostic } from '../../../src/diagnostics';
import type { CtyType } from './cty';
import type { AttributePathMsg, DiagnosticMsg, ProtoStep } from './messages';

/** The `AttributePath` message of `path`, guided by `type` (the resource's implied type) when given. */
export function toAttributePath(path: readonly (string | number)[], type?: CtyType): AttributePathMsg {
  const steps: ProtoStep[] = [];
  let cur: CtyType | undefined = type;
  for (const step of path) {
    if (cur?.kind === 'set') break;
    if (typeof step === 'number') {
      steps.push({ element_key_int: step });
      cur = cur?.kind === 'list' ? cur.element : cur?.kind === 'tuple' ? cur.elements[step] : undefined;
    } else if (cur?.kind === 'map') {
      steps.push({ element_key_string: step });
      cur = cur.element;
    } else {
      steps.push({ attribute_name: step });
      cur = cur?.kind === 'object' ? cur.attributes[step] : undefined;
    }
  }
  return { steps };
}

/** The tfplugin6 `Diagnostic` message of `d`; `attribute` is omitted for an empty path. */
export function toProtoDiagnostic(d: Diagnostic, type?: CtyType): DiagnosticMsg {
  const out: DiagnosticMsg = {
    severity: d.severity === 'error' ? 'ERROR' : 'WARNING',
    summary: d.summary,
    detail: d.detail,
  };
  if (d.path && d.path.length) out.attribute = toAttributePath(d.path, type);
  return out;
}

/** What each tfplugin6 call does, in the words of a Terraform user (diagnostics never name the RPC). */
const ACTIONS: Readonly<Record<string, string>> = {
  ValidateProviderConfig: 'Checking the provider configuration',
  ConfigureProvider: 'Configuring the provider',
  ValidateResourceConfig: 'Checking the configuration of',
  UpgradeResourceState: 'Reading the saved state of',
  ReadResource: 'Refreshing',
  PlanResourceChange: 'Planning',
  ApplyResourceChange: 'Applying',
  ImportResourceState: 'Importing',
  ValidateDataResourceConfig: 'Checking the configuration of',
  ReadDataSource: 'Reading',
};

/**
 * An error diagnostic for an exception thrown inside the provider while serving `rpc` (for resource `typeName`):
 * the summary says what was being done to which resource type, the detail is the message only (no stack, no values).
 */
export function internalError(rpc: string, err: unknown, typeName?: string): Diagnostic {
  const message = err instanceof Error ? err.message : String(err);
  const action = ACTIONS[rpc] ?? 'Running the provider';
  return { severity: 'error', summary: `${action}${typeName ? ` ${typeName}` : ''} failed`, detail: message, path: [] };
}

/**
 * The diagnostic for a libvirt host that cannot be reached: the URI that failed (and the provider host block's
 * name, `host`, when it is one), the connector's reason and what to check. A connector error that carries its own `fix` (src/libvirt LibvirtConnectError: the failed step, what
 * the transport said, the fix) is shown as it is; otherwise the check is chosen for the kind of URI.
 */
export function hostUnreachable(uri: string, cause: unknown, host: string | null = null): Diagnostic {
  const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/[.\s]+$/, '');
  const ownFix = typeof (cause as { fix?: unknown })?.fix === 'string';
  const remote = /^[a-z0-9]+\+(ssh|tcp|tls|libssh2?)\b/i.test(uri) || /^[a-z0-9+]+:\/\/[^/]/i.test(uri);
  const check = ownFix
    ? ''
    : remote
      ? ` Check that the host is reachable and libvirtd runs there, that this machine can log in without a prompt (for qemu+ssh: ssh with a key, the host in known_hosts), and that \`virsh -c '${uri}' version\` works from here.`
      : ` Check that libvirtd (or virtqemud) is running on this machine, that this user may open its socket (root, or a member of the libvirt group), and that \`virsh -c '${uri}' version\` works. ${host === null ? "The provider's `uri` setting chooses the host." : `The provider's host block ${host} chooses it.`}`;
  const where = host === null ? uri : `host ${host} at ${uri}`;
  return {
    severity: 'error',
    summary: `Cannot connect to libvirt ${host === null ? 'at ' : ''}${where}`,
    detail: `${reason}.${check}`,
    path: [],
  };
}
