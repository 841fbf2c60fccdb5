/**
 * `virtseed_ignition`: an Ignition config (spec 3.x; 2.x is translated) validated at plan and stored as a raw
 * volume, which `virtseed_domain.ignition_id` passes to the guest through QEMU fw_cfg `opt/com.coreos/config`.
 * Ignition has no instance-id; `instance_id` here is `ign-` + 16 hex of the config's sha256, so the domain's
 * re-provision policy treats a changed config like a changed cloud-init instance-id.
 */
import { Diagnostic, hasErrors } from '../../../src/diagnostics';
import { renderIgnition } from '../../../src/seed/ignition';
import { validateIgnition } from '../../../src/seed/ignition';
import { t } from '../plugin/cty';
import type { ResourceHandler } from '../plugin/handler';
import type { ResourceSchema } from '../plugin/schema';
import { clientOf } from './private/client';
import { plannedVolumeChecks } from './private/plan-checks';
import { mapDiagnostics } from './private/paths';
import { deleteVolume, inspectRawVolume, storeRawVolume, volumeExistsDiagnostic } from './private/storage';
import { isWhollyKnown, messageOf, str, UNKNOWN } from './private/values';

type State = Record<string, unknown>;

export const IGNITION_SCHEMA: ResourceSchema = {
  version: 0,
  description: 'An Ignition config (spec 3.x) stored in a libvirt storage pool and passed to the guest through fw_cfg `opt/com.coreos/config`.',
  attributes: {
    id: { type: t.string, computed: true, description: 'libvirt volume key.' },
    pool: { type: t.string, required: true, description: 'Storage pool name.' },
    name: { type: t.string, required: true, description: 'Volume name, e.g. `node1.ign`.' },
    content: { type: t.string, required: true, sensitive: true, description: 'Ignition JSON (`jsonencode({...})`), spec 3.0.0–3.5.0; 2.x configs are translated to 3.3.0 where that is mechanical.' },
    version: { type: t.string, computed: true, description: 'Spec version of the stored config.' },
    instance_id: { type: t.string, computed: true, description: '`ign-` + 16 hex digits of the config\'s sha256: changes whenever the config does.' },
    sha256: { type: t.string, computed: true, description: 'sha256 (hex) of the stored JSON.' },
    path: { type: t.string, computed: true, description: 'Host path of the config file.' },
  },
};

/** Ignition's instance-id stand-in for a config's sha256. */
export function ignitionInstanceId(sha256: string): string {
  return `ign-${sha256.slice(0, 16)}`;
}

function render(content: string): { rendered?: ReturnType<typeof renderIgnition>; diagnostics: Diagnostic[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (err) {
    return { diagnostics: [{ severity: 'error', path: ['content'], summary: 'Invalid Ignition JSON', detail: `content is not JSON: ${messageOf(err)}` }] };
  }
  // Paths point into the parsed JSON; Terraform can only point at the string attribute, so they stop at
  // `content` and the JSON path goes into the detail ("At content.storage.files[0].path: ...").
  const inner = validateIgnition(parsed).map((d) => ({ ...d, path: ['content', ...d.path] }));
  const diagnostics = mapDiagnostics(inner, { opaque: ['content'] });
  if (hasErrors(diagnostics)) return { diagnostics };
  const rendered = renderIgnition(parsed as object);
  return { rendered, diagnostics };
}

export const ignition: ResourceHandler<State> = {
  typeName: 'virtseed_ignition',
  schema: IGNITION_SCHEMA,

  validate(config) {
    return isWhollyKnown(config.content) && typeof config.content === 'string' ? render(config.content).diagnostics : [];
  },

  async plan({ prior, proposed }, ctx) {
    if (!proposed) return { planned: null, requiresReplace: [], diagnostics: [] };
    const planned: State = { ...proposed };
    const diagnostics: Diagnostic[] = [];
    if (typeof proposed.content === 'string') {
      const r = render(proposed.content);
      diagnostics.push(...r.diagnostics);
      if (!r.rendered) return { planned, requiresReplace: [], diagnostics };
      planned.version = r.rendered.version;
      planned.sha256 = r.rendered.sha256;
      planned.instance_id = ignitionInstanceId(r.rendered.sha256);
    } else {
      planned.version = UNKNOWN;
      planned.sha256 = UNKNOWN;
      planned.instance_id = UNKNOWN;
    }
    const requiresReplace = prior ? (['pool', 'name'] as const).filter((a) => prior[a] !== planned[a]).map((a) => [a]) : [];
    if (!prior || requiresReplace.length) {
      planned.id = UNKNOWN;
      planned.path = UNKNOWN;
    } else {
      planned.id = prior.id;
      planned.path = prior.path;
      if (prior.instance_id !== planned.instance_id && typeof planned.instance_id === 'string')
        diagnostics.push({ severity: 'warning', path: ['content'], summary: 'Ignition config changes: the guest will be re-provisioned',
          detail: `The config's id changes from ${prior.instance_id} to ${planned.instance_id}. Ignition runs on first boot only; the domain's reprovision policy decides how the guest gets it.` });
    }
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Ignition config', prior, planned, requiresReplace.length > 0, volumeExistsDiagnostic)));
    return { planned, requiresReplace, diagnostics };
  },

  async apply({ prior, planned }, ctx) {
    const client = await clientOf(ctx);
    const opts = { signal: ctx.signal };
    if (!planned) {
      if (prior && str(prior.id)) await deleteVolume(client, prior.id as string, opts);
      return { newState: null, diagnostics: [] };
    }
    const r = render(planned.content as string);
    if (!r.rendered) return { newState: prior, diagnostics: r.diagnostics };
    const bytes = Buffer.from(r.rendered.json, 'utf8');
    const target = { key: str(prior?.id), pool: planned.pool as string, name: planned.name as string };
    const stored = await storeRawVolume(client, target, bytes, opts);
    if (!stored) return { newState: prior, diagnostics: [volumeExistsDiagnostic(target.pool, target.name)] };
    return {
      newState: {
        ...planned,
        id: stored.vol.key,
        path: stored.path,
        version: r.rendered.version,
        sha256: r.rendered.sha256,
        instance_id: ignitionInstanceId(r.rendered.sha256),
      },
      diagnostics: [],
    };
  },

  async read({ current }, ctx) {
    const client = await clientOf(ctx);
    const found = str(current.id) ? await inspectRawVolume(client, current.id as string, { signal: ctx.signal }) : null;
    return { newState: found ? { ...current, path: found.path, sha256: found.sha256 } : null, diagnostics: [] };
  },
};
