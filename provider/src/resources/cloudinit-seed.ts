/**
 * `virtseed_cloudinit_seed`: a NoCloud (`cidata`) or ConfigDrive v2 (`config-2`) ISO in a libvirt storage pool,
 * built in process by src/seed. The ISO, its sha256 and the instance-id are computed at plan whenever the inputs
 * are known, so a plan shows whether the guest will see a new instance-id (re-provision) or only new content.
 * Content changes update the volume in place (same file); see docs/CONTRACTS.md "Provider resources".
 */
import { Diagnostic, hasErrors, warning } from '../../../src/diagnostics';
import { tryBuildSeedIso, validateSeed, type BuiltSeedIso } from '../../../src/seed';
import type { LibvirtClient } from '../../../src/libvirt';
import type { ResourceHandler } from '../plugin/handler';
import { CLOUDINIT_SEED_FIELDS } from '../../../src/fields';
import type { ResourceSchema } from '../plugin/schema';
import { replacePaths, schemaOf, valueDiagnostics } from './private/fields';
import { mapDiagnostics } from './private/paths';
import { SEED_PATHS, seedSpecFromConfig } from './private/seed-spec';
import { applyRawVolume, readRawVolume } from './private/raw-volume';
import type { CloudinitSeedState } from './private/model';
import { settleComputed } from './private/plan';
import { plannedPrivateOf, plannedVolumeChecks, withoutReplaceMark } from './private/plan-checks';
import { volumeExistsDiagnostic } from './private/storage';
import { isWhollyKnown, str, UNKNOWN } from './private/values';

const COMPUTED_ONLY: readonly string[] = ['id', 'path', 'size', 'sha256'];
/** A replacement's volume key and path are known after apply. */
const REPLACED_UNKNOWN = ['id', 'path'] as const;

/** The provider schema, from the field table (src/fields/cloudinit-seed.ts). */
export const CLOUDINIT_SEED_SCHEMA: ResourceSchema = schemaOf(CLOUDINIT_SEED_FIELDS);

/** The inputs of the seed: everything in the config but the computed-only attributes. */
function inputsOf(v: CloudinitSeedState): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) if (!COMPUTED_ONLY.includes(k)) out[k] = val;
  return out;
}

/** The SeedSpec of a known config, after the values the field table allows; diagnostics with attribute paths. */
function specOf(config: CloudinitSeedState): ReturnType<typeof seedSpecFromConfig> | { spec?: undefined; diagnostics: Diagnostic[] } {
  const values = valueDiagnostics(CLOUDINIT_SEED_FIELDS, config);
  return values.length ? { diagnostics: values } : seedSpecFromConfig(config);
}

/** Builds the ISO of a known config (validated and rendered once); diagnostics on bad input (then `built` is
 *  undefined). */
function build(config: CloudinitSeedState): { built?: BuiltSeedIso; diagnostics: Diagnostic[] } {
  const { spec, diagnostics } = specOf(config);
  if (!spec || hasErrors(diagnostics)) return { diagnostics };
  const r = tryBuildSeedIso(spec);
  return { ...(r.built ? { built: r.built } : {}), diagnostics: [...diagnostics, ...mapDiagnostics(r.diagnostics, SEED_PATHS)] };
}

/** The diagnostics of a known config, without building the ISO (ValidateResourceConfig). */
function check(config: CloudinitSeedState): Diagnostic[] {
  const { spec, diagnostics } = specOf(config);
  if (!spec || hasErrors(diagnostics)) return diagnostics;
  return [...diagnostics, ...mapDiagnostics(validateSeed(spec, { requireLoadedSources: true }), SEED_PATHS)];
}

export const cloudinitSeed: ResourceHandler<CloudinitSeedState, LibvirtClient> = {
  typeName: 'virtseed_cloudinit_seed',
  schema: CLOUDINIT_SEED_SCHEMA,

  validate(config) {
    if (!isWhollyKnown(inputsOf(config))) return [];
    return check(config);
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    let planned: CloudinitSeedState = { ...proposed };
    const diagnostics: Diagnostic[] = [];
    if (isWhollyKnown(inputsOf(config))) {
      const r = build(config);
      diagnostics.push(...r.diagnostics);
      if (!r.built) return { planned, requiresReplace: [], diagnostics };
      planned.instance_id = r.built.instanceId;
      planned.sha256 = r.built.sha256;
      planned.size = r.built.iso.length;
    } else {
      planned.instance_id = str(config.instance_id) ?? UNKNOWN;
      planned.sha256 = UNKNOWN;
      planned.size = UNKNOWN;
    }
    const requiresReplace = prior ? replacePaths(CLOUDINIT_SEED_FIELDS, prior, planned) : [];
    planned = settleComputed(planned, prior, requiresReplace.length > 0, REPLACED_UNKNOWN);
    if (prior) {
      const from = str(prior.instance_id);
      const to = planned.instance_id;
      if (from && typeof to === 'string' && from !== to) {
        diagnostics.push(
          warning(
            ['instance_id'],
            'instance-id changes: the guest will be re-provisioned',
            `The seed's instance-id changes from ${from} to ${to}; cloud-init runs its per-instance modules again on the next boot. The domain's reprovision policy decides when that boot happens.`,
          ),
        );
      } else if (from && to === from && prior.sha256 !== planned.sha256 && typeof planned.sha256 === 'string') {
        diagnostics.push(
          warning(
            [],
            'seed content changes, instance-id stays',
            `The seed is updated in place; its instance-id stays ${from}, so cloud-init will not re-provision the guest (per-boot modules still see the new content).`,
          ),
        );
      }
    }
    diagnostics.push(...(await plannedVolumeChecks(ctx, 'Seed', { prior, priorPrivate }, planned, volumeExistsDiagnostic)));
    const plannedPrivate = plannedPrivateOf(ctx, 'volume', str(prior?.id), priorPrivate, requiresReplace.length > 0);
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply({ prior, planned, config, plannedPrivate }, ctx) {
    const applied = await applyRawVolume({ prior, planned }, ctx, (p) => {
      const r = build(config ?? p);
      if (!r.built) return { diagnostics: r.diagnostics };
      const { iso, instanceId, sha256 } = r.built;
      ctx.log.info(`seed ${String(p.name)}: ${iso.length} bytes, instance-id ${instanceId}`);
      return { bytes: iso, computed: { instance_id: instanceId, sha256, size: iso.length } };
    });
    return { ...applied, private: withoutReplaceMark(plannedPrivate) };
  },

  read({ current }, ctx) {
    return readRawVolume(current, ctx, (found) => found);
  },
};
