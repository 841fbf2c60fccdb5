/**
 * `virtseed_ignition`: an Ignition config (spec 3.x; 2.x is translated) validated at plan and stored as a raw
 * volume, which `virtseed_domain.ignition_id` passes to the guest through QEMU fw_cfg `opt/com.coreos/config`.
 * Ignition has no instance-id; `instance_id` here is `ign-` + 16 hex of the config's sha256, so the domain's
 * re-provision policy treats a changed config like a changed cloud-init instance-id.
 */
import { Diagnostic, error, hasErrors } from '../../../src/diagnostics';
import { renderIgnition } from '../../../src/seed/ignition';
import { parseIgnitionText, validateIgnition } from '../../../src/seed/ignition';
import type { LibvirtClient } from '../../../src/libvirt';
import type { ResourceHandler } from '../handler';
import { IGNITION_FIELDS, mergeTwins, twinConflicts } from '../../../src/fields';
import { keyedDigest, keyedDigestOfHex, keyedInstanceId, keyFor, keyOf, privateWithKey } from './private/keyed';
import { isUnknown } from '../plugin/cty';
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
function ignitionInstanceId(sha256: string): string {
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

/** The config's Ignition text, read from `content_wo` when that is set (unknown: UNKNOWN; null: neither). */
function contentOf(config: IgnitionState): string | null | typeof UNKNOWN {
  const c = mergeTwins(IGNITION_FIELDS.fields, config).content;
  return isUnknown(c) ? UNKNOWN : (c ?? null);
}

/** Errors for `content` and `content_wo` set together or both null. */
function contentDiagnostics(config: IgnitionState): Diagnostic[] {
  if (twinConflicts(IGNITION_FIELDS.fields, config).length)
    return [
      error(
        ['content_wo'],
        'Conflicting content_wo',
        'Set content or content_wo, not both: content_wo carries the config as a write-only value.',
      ),
    ];
  if (config.content === null && config.content_wo === null)
    return [error(['content'], 'Missing content', 'virtseed_ignition needs content or content_wo (the Ignition JSON); got neither.')];
  return [];
}

/** Ignition's keyed instance-id stand-in (with `content_wo`): `ign-` + 16 hex digits keyed by the resource's key. */
function keyedIgnitionId(key: Buffer, sha256: string): string {
  return keyedInstanceId('ign-', key, sha256);
}

export const ignition: ResourceHandler<IgnitionState, LibvirtClient> = {
  typeName: 'virtseed_ignition',
  schema: IGNITION_SCHEMA,

  validate(config) {
    const content = contentOf(config);
    const own = contentDiagnostics(config);
    return own.length ? own : typeof content === 'string' ? render(content).diagnostics : [];
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed) return { planned: null, requiresReplace: [], diagnostics: [] };
    let planned: IgnitionState = { ...proposed };
    const diagnostics: Diagnostic[] = [];
    // content_wo: the state keeps a keyed digest under the prior private state's key; without one (a create), the
    // key is made at apply and the keyed values are unknown until then (see cloudinit-seed.ts).
    const writeOnly = config !== null && config.content_wo !== null;
    const key = writeOnly ? keyOf(priorPrivate) : undefined;
    const content = config ? contentOf(config) : proposed.content;
    if (typeof content === 'string') {
      const r = render(content);
      diagnostics.push(...r.diagnostics);
      if (!r.rendered) return { planned, requiresReplace: [], diagnostics };
      planned.version = r.rendered.version;
      planned.sha256 = writeOnly ? null : r.rendered.sha256;
      planned.keyed_digest = !writeOnly ? null : key ? keyedDigest(key, Buffer.from(r.rendered.json, 'utf8')) : UNKNOWN;
      planned.instance_id = !writeOnly ? ignitionInstanceId(r.rendered.sha256) : key ? keyedIgnitionId(key, r.rendered.sha256) : UNKNOWN;
    } else {
      planned.version = UNKNOWN;
      planned.sha256 = writeOnly ? null : UNKNOWN;
      planned.keyed_digest = writeOnly ? UNKNOWN : null;
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
    const basePrivate = key ? privateWithKey(priorPrivate, key) : priorPrivate;
    const plannedPrivate = plannedPrivateOf(ctx, 'volume', str(prior?.id), basePrivate, requiresReplace.length > 0);
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply({ prior, planned, config, plannedPrivate }, ctx) {
    const writeOnly = config !== null && config.content_wo !== null;
    const key = writeOnly ? keyFor(plannedPrivate) : undefined;
    const res = await applyRawVolume({ prior, planned }, ctx, (p) => {
      const content = config ? contentOf(config) : p.content;
      const r = render(typeof content === 'string' ? content : '');
      if (!r.rendered) return { diagnostics: r.diagnostics };
      const { json, version, sha256 } = r.rendered;
      const bytes = Buffer.from(json, 'utf8');
      const computed = key
        ? { version, sha256: null, keyed_digest: keyedDigest(key, bytes), instance_id: keyedIgnitionId(key, sha256) }
        : { version, sha256, keyed_digest: null, instance_id: ignitionInstanceId(sha256) };
      return { bytes, computed };
    });
    const kept = withoutReplaceMark(plannedPrivate);
    return { ...res, private: key ? privateWithKey(kept, key) : kept };
  },

  read({ current, private: priv }, ctx) {
    const key = current.keyed_digest !== null ? keyOf(priv) : undefined;
    if (key) return readRawVolume(current, ctx, ({ path, sha256 }) => ({ path, keyed_digest: keyedDigestOfHex(sha256) }), key);
    return readRawVolume(current, ctx, ({ path, sha256 }) => ({ path, sha256 }));
  },
};
