import { Annotations } from 'cdktf';
import { Construct } from 'constructs';
import { Diagnostic, formatDiagnostics, ValidationError } from '../../src/diagnostics';
import type { IgnitionSpec } from '../../src/seed/ignition';
import { renderIgnition, validateIgnition } from '../../src/seed/ignition';
import * as virtseed from '../generated/virtseed';
import { invalidIgnition } from './errors';
import { stableJson } from '../../src/json';
import { checkName } from './private/names';
import { onSynth } from './private/on-synth';
import { containsTokens } from './private/tokens';
import { secretReference } from './secrets';
import { poolRefOf } from './pool-ref';
import type { StoragePool } from './storage-pool';

/** Properties of an {@link IgnitionConfig}. */
export interface IgnitionConfigProps {
  /** Name of the config volume in the pool, e.g. `web-ignition`. */
  readonly name: string;
  /**
   * Storage pool holding the config volume: a pool's name, or a {@link StoragePool} of the stack (created first).
   * @default 'default'
   */
  readonly pool?: string | StoragePool;
  /**
   * The libvirt host (a {@link HostPool} host's name, or a placement's host).
   * @default - the provider's default host (`uri`)
   */
  readonly host?: string;
  /** The Ignition config: typed (spec 3.x) or raw JSON text (3.x, or 2.x which is translated). */
  readonly config: IgnitionSpec | string;
  /**
   * Send `config` as the write-only `content_wo` (Terraform 1.11 and later; docs/write-only.md): `config` must then
   * be a Terraform reference (`secretVariable(this, 'ign').stringValue`, `Fn.file(path)`), never written into
   * `cdk.tf.json`, the plan or the state; the instance-id is the provider's (keyed).
   * @default false
   */
  readonly writeOnly?: boolean;
}

/**
 * An Ignition config stored as a volume and passed to the guest through QEMU fw_cfg (Terraform
 * `virtseed_ignition`). The config is rendered to canonical JSON at synth when it holds no tokens, and validated
 * at synth (errors stop synth, warnings become annotations).
 */
export class IgnitionConfig extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.ignition.Ignition;
  /** The config volume's key; attach it with a domain's `ignition_id`. */
  readonly ignitionId: string;
  /**
   * `ign-` + 16 hex of the sha256 of the rendered JSON: known at synth when the config holds no tokens and is
   * valid, else the resource's `instance_id` attribute.
   */
  readonly instanceId: string;
  /** The resource's `instance_id` attribute (a token), for wiring into other resources. */
  readonly instanceIdAttribute: string;
  /** The JSON sent to the provider. */
  readonly content: string;

  /** @throws ConstructPropsError for a bad `name`; at synth, for a config with errors. */
  constructor(scope: Construct, id: string, props: IgnitionConfigProps) {
    super(scope, id);
    checkName('IgnitionConfig.name', props.name);
    const prop = `${this.node.path} config`;

    if (props.writeOnly) {
      const secret = secretReference(prop, typeof props.config === 'string' ? props.config : stableJson(props.config));
      this.resource = new virtseed.ignition.Ignition(this, 'Resource', {
        pool: poolRefOf(props.pool).ref,
        host: props.host,
        name: props.name,
        contentWo: secret,
      });
      this.content = secret;
      this.ignitionId = this.resource.id;
      this.instanceIdAttribute = this.resource.instanceId;
      this.instanceId = this.instanceIdAttribute;
      return;
    }
    let content = typeof props.config === 'string' ? props.config : stableJson(props.config);
    let known: string | undefined;
    let renderErrors: Diagnostic[] = [];
    let renderWarnings: Diagnostic[] = [];
    if (!containsTokens(props.config)) {
      try {
        const rendered = renderIgnition(props.config);
        content = rendered.json;
        known = `ign-${rendered.sha256.slice(0, 16)}`;
        renderWarnings = rendered.diagnostics.filter((d) => d.severity === 'warning');
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        renderErrors = e.diagnostics.filter((d) => d.severity === 'error');
      }
    }

    this.resource = new virtseed.ignition.Ignition(this, 'Resource', {
      pool: poolRefOf(props.pool).ref,
      host: props.host,
      name: props.name,
      content,
    });
    this.content = content;
    this.ignitionId = this.resource.id;
    this.instanceIdAttribute = this.resource.instanceId;
    this.instanceId = known ?? this.instanceIdAttribute;

    onSynth(this, () => {
      if (renderErrors.length > 0) throw invalidIgnition(prop, renderErrors);
      if (known === undefined) return; // holds tokens: the provider validates at plan
      const found = validateIgnition(JSON.parse(content) as unknown);
      const errors = found.filter((d) => d.severity === 'error');
      if (errors.length > 0) throw invalidIgnition(prop, errors);
      const warnings = [...renderWarnings, ...found.filter((d) => d.severity === 'warning')];
      if (warnings.length > 0) Annotations.of(this).addWarning(formatDiagnostics(dedupe(warnings)));
    });
  }
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = JSON.stringify([d.path, d.summary, d.detail]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
