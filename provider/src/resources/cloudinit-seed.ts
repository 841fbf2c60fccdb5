/**
 * `virtseed_cloudinit_seed`: a NoCloud (`cidata`) or ConfigDrive v2 (`config-2`) ISO in a libvirt storage pool,
 * built in process by src/seed. The ISO, its sha256 and the instance-id are computed at plan whenever the inputs
 * are known, so a plan shows whether the guest will see a new instance-id (re-provision) or only new content.
 * Content changes update the volume in place (same file); see docs/CONTRACTS.md "Provider resources".
 */
import { Diagnostic, error, hasErrors, warning } from '../../../src/diagnostics';
import { deriveInstanceId, DERIVED_INSTANCE_ID_PREFIX, tryBuildSeedIso, validateSeed, type BuiltSeedIso } from '../../../src/seed';
import type { LibvirtClient } from '../../../src/libvirt';
import type { ResourceHandler } from '../handler';
import { CLOUDINIT_SEED_FIELDS, mergeTwins, setsWriteOnly, twinConflicts } from '../../../src/fields';
import { keyedDigest, keyedDigestOfHex, keyedInstanceId, keyFor, keyOf, privateWithKey } from './private/keyed';
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

const COMPUTED_ONLY: readonly string[] = ['id', 'path', 'size', 'sha256', 'keyed_digest'];
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

/** An error for each `_wo` twin set together with the attribute it stands in for, and for a MIME part with
 *  neither `content` nor `content_wo`. */
function twinDiagnostics(config: CloudinitSeedState): Diagnostic[] {
  const out = twinConflicts(CLOUDINIT_SEED_FIELDS.fields, config).map((c) =>
    error(c.path, `Conflicting ${c.twin}`, `Set ${c.of} or ${c.twin}, not both: ${c.twin} carries the same content as a write-only value.`),
  );
  const parts = Array.isArray(config.user_data_part) ? config.user_data_part : [];
  parts.forEach((p, i) => {
    if (p.content === null && p.content_wo === null)
      out.push(error(['user_data_part', i, 'content'], 'Missing content', 'A user_data_part needs content or content_wo; got neither.'));
  });
  return out;
}

/** A diagnostic's detail without the value it quotes (`...; got <value>`): a write-only input's content is not
 *  shown, even where it is wrong. */
function withoutQuotedValue(detail: string): string {
  return detail.replace(/;\s*got [\s\S]*$/, '; got a value not shown (a write-only input)');
}

/** `diagnostics` pointing at the `_wo` twin where the config gave the attribute's content through it (top level
 *  and one block level deep, e.g. `file[0].content_wo`), their details without the value they quote. */
function atTwins(config: CloudinitSeedState, diagnostics: Diagnostic[]): Diagnostic[] {
  const values = config as unknown as Record<string, unknown>;
  const twinSet = (owner: unknown, name: unknown) =>
    typeof name === 'string' && typeof owner === 'object' && owner !== null && (owner as Record<string, unknown>)[`${name}_wo`] != null;
  return diagnostics.map((d) => {
    const [a, i, b] = d.path;
    if (twinSet(values, a)) return { ...d, path: [`${String(a)}_wo`, ...d.path.slice(1)], detail: withoutQuotedValue(d.detail) };
    const element = typeof a === 'string' && typeof i === 'number' && Array.isArray(values[a]) ? (values[a] as unknown[])[i] : undefined;
    if (element !== undefined && twinSet(element, b))
      return { ...d, path: [a!, i!, `${String(b)}_wo`, ...d.path.slice(3)], detail: withoutQuotedValue(d.detail) };
    return d;
  });
}

/** The SeedSpec of a known config (its write-only twins read as their attributes), after the values the field
 *  table allows; diagnostics with attribute paths. */
function specOf(config: CloudinitSeedState): ReturnType<typeof seedSpecFromConfig> | { spec?: undefined; diagnostics: Diagnostic[] } {
  const values = [...valueDiagnostics(CLOUDINIT_SEED_FIELDS, config), ...twinDiagnostics(config)];
  return values.length ? { diagnostics: values } : seedSpecFromConfig(mergeTwins(CLOUDINIT_SEED_FIELDS.fields, config));
}

/**
 * Builds the ISO of a known config (validated and rendered once); diagnostics on bad input (then `built` is
 * undefined). With `key` (write-only inputs), a derived instance-id is keyed: `iid-` + 16 hex digits of the HMAC
 * of the plain derived id, so neither the state nor the id tells anything about the content without the key.
 */
function build(config: CloudinitSeedState, key?: Buffer): { built?: BuiltSeedIso; diagnostics: Diagnostic[] } {
  const { spec, diagnostics } = specOf(config);
  if (!spec || hasErrors(diagnostics)) return { diagnostics };
  const keyedSpec =
    key && !spec.instance_id ? { ...spec, instance_id: keyedInstanceId(DERIVED_INSTANCE_ID_PREFIX, key, deriveInstanceId(spec)) } : spec;
  const r = tryBuildSeedIso(keyedSpec);
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
    if (!isWhollyKnown(inputsOf(config))) return twinDiagnostics(config);
    return atTwins(config, check(config));
  },

  async plan({ prior, proposed, config, priorPrivate }, ctx) {
    if (!proposed || !config) return { planned: null, requiresReplace: [], diagnostics: [] };
    let planned: CloudinitSeedState = { ...proposed };
    const diagnostics: Diagnostic[] = [];
    // Write-only inputs: the state keeps a keyed digest, under the key of the prior private state. Without one (a
    // create, or the first plan with write-only values), the key is made at apply: every keyed value is unknown
    // until then (a key made here would differ from the one of the plan Terraform makes again at apply).
    const writeOnly = setsWriteOnly(CLOUDINIT_SEED_FIELDS.fields, config);
    const key = writeOnly ? keyOf(priorPrivate) : undefined;
    if (isWhollyKnown(inputsOf(config)) && (!writeOnly || key)) {
      const r = build(config, key);
      diagnostics.push(...atTwins(config, r.diagnostics));
      if (!r.built) return { planned, requiresReplace: [], diagnostics };
      planned.instance_id = r.built.instanceId;
      planned.sha256 = key ? null : r.built.sha256;
      planned.keyed_digest = key ? keyedDigest(key, r.built.iso) : null;
      planned.size = r.built.iso.length;
    } else {
      if (writeOnly && isWhollyKnown(inputsOf(config))) diagnostics.push(...check(config));
      planned.instance_id = str(config.instance_id) ?? UNKNOWN;
      planned.sha256 = writeOnly ? null : UNKNOWN;
      planned.keyed_digest = writeOnly ? UNKNOWN : null;
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
      } else if (
        from &&
        to === from &&
        (prior.sha256 !== planned.sha256 || prior.keyed_digest !== planned.keyed_digest) &&
        (typeof planned.sha256 === 'string' || typeof planned.keyed_digest === 'string')
      ) {
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
    const basePrivate = key ? privateWithKey(priorPrivate, key) : priorPrivate;
    const plannedPrivate = plannedPrivateOf(ctx, 'volume', str(prior?.id), basePrivate, requiresReplace.length > 0);
    return { planned, requiresReplace, diagnostics, plannedPrivate };
  },

  async apply({ prior, planned, config, plannedPrivate }, ctx) {
    const source = config ?? planned;
    const key = source && setsWriteOnly(CLOUDINIT_SEED_FIELDS.fields, source) ? keyFor(plannedPrivate) : undefined;
    const res = await applyRawVolume({ prior, planned }, ctx, (p) => {
      const r = build(config ?? p, key);
      if (!r.built) return { diagnostics: r.diagnostics };
      const { iso, instanceId, sha256 } = r.built;
      ctx.log.info(`seed ${String(p.name)}: ${iso.length} bytes, instance-id ${instanceId}${key ? ' (write-only inputs)' : ''}`);
      const digests = key ? { sha256: null, keyed_digest: keyedDigest(key, iso) } : { sha256, keyed_digest: null };
      return { bytes: iso, computed: { instance_id: instanceId, ...digests, size: iso.length } };
    });
    const kept = withoutReplaceMark(plannedPrivate);
    return { ...res, private: key ? privateWithKey(kept, key) : kept };
  },

  read({ current, private: priv }, ctx) {
    // A seed built from write-only inputs: its bytes against the keyed digest (drift), never a plain hash.
    const key = current.keyed_digest !== null ? keyOf(priv) : undefined;
    if (key)
      return readRawVolume(
        current,
        ctx,
        (found) => ({ path: found.path, size: found.size, keyed_digest: keyedDigestOfHex(found.sha256) }),
        key,
      );
    return readRawVolume(current, ctx, (found) => found);
  },
};
