/**
 * `virtseed_ignition`: an Ignition config (spec 3.x; 2.x is translated) validated at plan and stored as a raw
 * volume, which `virtseed_domain.ignition_id` passes to the guest through QEMU fw_cfg `opt/com.coreos/config`.
 * Ignition has no instance-id; `instance_id` here is `ign-` + 16 hex of the config's sha256, so the domain's
 * re-provision policy treats a changed config like a changed cloud-init instance-id.
 */
import { Diagnostic, hasErrors } from '../../../src/diagnostics';
import { renderIgnition } from '../../../src/seed/ignition';
import { parseIgnitionText, validateIgnition } from '../../../src/seed/ignition';
import type { LibvirtClient } from '../../../src/libvirt';
import type { ResourceHandler } from '../plugin/handler';
import { IGNITION_FIELDS } from '../../../src/fields';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf } from './private/fields';
import type { IgnitionState } from './private/model';
import { settleComputed } from './private/plan';
import { plannedPrivateOf, plannedVolumeChecks, withoutReplaceMark } from './private/plan-checks';
import { mapDiagnostics } from './private/paths';
import { applyRawVolume, readRawVolume } from './private/raw-volume';
import { volumeExistsDiagnostic } from './private/storage';
import { str, UNKNOWN } from './private/values';

/** The provider schema, from the field table (src/fields/ignition.ts). */
export const IGNITION_SCHEMA: ResourceSchema = schemaOf(IGNITION_FIELDS);

/** Ignition's instance-id stand-in for a config's sha256. */
export function ignitionInstanceId(sha256: string): string {
  return `ign-${sha256.slice(0, 16)}`;
}

function render(content: string): { rendered?: ReturnType<typeof renderIgnition>; diagnostics: Diagnostic[] } {
  const text = parseIgnitionText(content, ['content']);
  if (text.diagnostics.length) return { diagnostics: text.diagnostics };
  const parsed = text.value;
  // Paths point into the parsed JSON; Terraform can only point at the string attribute, so they stop at
  // `content` and the JSON path goes into the detail ("At content.storage.files[0].path: ...").
  const inner = validateIgnition(parsed).map((d) => ({ ...d, path: ['content', ...d.path] }));
  const diagnostics = mapDiagnostics(inner, { opaque: ['content'] });
  if (hasErrors(diagnostics)) return { diagnostics };
  const rendered = renderIgnition(parsed as object);
  return { rendered, diagnostics };
}

export const ignition: ResourceHandler<IgnitionState, LibvirtClient> = {
  typeName: 'virtseed_ignition',
  schema: IGNITION_SCHEMA,

  validate(config) {
    return typeof config.content === 'string' ? render(config.content).diagnostics : [];
  },

  async plan({ prior, proposed, priorPrivate }, ctx) {
    if (!proposed) return { planned: null, requiresReplace: [], diagnostics: [] };
    let planned: IgnitionState = { ...proposed };
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
    const requiresReplace = prior ? replacePaths(IGNITION_FIELDS, prior, planned) : [];
    planned = settleComputed(planned, prior, requiresReplace.length > 0, ['id', 'path']);
    if (prior && !requiresReplace.length) {
      if (prior.instance_id !== planned.instance_id && typeof planned.instance_id === 'string')
        diagnostics.push({
          severity: 'warning',
          path: ['content'],
          summary: 'Ignition config changes: the guest will be re-provisioned',
          detail: `The config's id changes from ${String(prior.instance_id)} to ${planned.instance_id}. Ignition runs on first boot only; the domain's reprovision policy decides how the guest gets it.`,
        });
    }
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Ignition config', { prior, priorPrivate }, planned, volumeExistsDiagnostic)));
    const plannedPrivate = plannedPrivateOf(ctx, 'volume', str(prior?.id), priorPrivate, requiresReplace.length > 0);
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply({ prior, planned, plannedPrivate }, ctx) {
    const applied = await applyRawVolume({ prior, planned }, ctx, (p) => {
      const r = render(str(p.content) ?? '');
      if (!r.rendered) return { diagnostics: r.diagnostics };
      const { json, version, sha256 } = r.rendered;
      return { bytes: Buffer.from(json, 'utf8'), computed: { version, sha256, instance_id: ignitionInstanceId(sha256) } };
    });
    return { ...applied, private: withoutReplaceMark(plannedPrivate) };
  },

  read({ current }, ctx) {
    return readRawVolume(current, ctx, ({ path, sha256 }) => ({ path, sha256 }));
  },
};
