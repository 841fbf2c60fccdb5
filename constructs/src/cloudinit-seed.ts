import { Annotations } from 'cdktf';
import { Construct } from 'constructs';
import { formatDiagnostics } from '../../src/diagnostics';
import * as virtseed from '../generated/virtseed';
import { CloudInit } from './cloud-init';
import { invalidCloudInit } from './errors';
import { checkName } from './private/names';
import { onSynth } from './private/on-synth';
import { seedResourceConfig } from './private/seed-resource';
import { poolRefOf } from './pool-ref';
import type { StoragePool } from './storage-pool';
import { secretReference } from './secrets';

/**
 * Seed documents given as write-only values (Terraform 1.11 and later; docs/write-only.md): each a Terraform
 * reference (see ./secrets.ts), sent to the provider's `_wo` attribute, never written into `cdk.tf.json`, the plan
 * or the state. Each is exclusive with the same content in the {@link CloudInit}.
 */
export interface CloudInitSecrets {
  /** `cloud_config_wo`: cloud-config as JSON or YAML, merged after the generated parts. */
  readonly cloudConfig?: string;
  /** `user_data_wo`: raw user-data (`#cloud-config` YAML, a `#!` script, MIME). */
  readonly userData?: string;
  /** `user_data_base64_wo`: raw user-data as base64. */
  readonly userDataBase64?: string;
  /** `vendor_data_wo`: raw vendor-data. */
  readonly vendorData?: string;
  /** `network_config_wo`: raw network-config. */
  readonly networkConfig?: string;
}

const SECRET_ATTRIBUTES = {
  cloudConfig: 'cloudConfigWo',
  userData: 'userDataWo',
  userDataBase64: 'userDataBase64Wo',
  vendorData: 'vendorDataWo',
  networkConfig: 'networkConfigWo',
} as const satisfies Record<keyof CloudInitSecrets, string>;

/** Properties of a {@link CloudInitSeed}. */
export interface CloudInitSeedProps {
  /** Name of the seed ISO volume in the pool, e.g. `web-seed`. Changing it: replaces the seed. */
  readonly name: string;
  /**
   * Storage pool holding the seed volume: a pool's name, or a {@link StoragePool} of the stack (created first).
   * @default 'default'
   */
  readonly pool?: string | StoragePool;
  /**
   * The libvirt host (a {@link HostPool} host's name, or a placement's host).
   * @default - the provider's default host (`uri`)
   */
  readonly host?: string;
  /** The seed's content. */
  readonly cloudInit: CloudInit;
  /**
   * Seed documents given as write-only values; with any, the instance-id is the provider's (keyed) unless the
   * {@link CloudInit} sets one.
   * @default - none
   */
  readonly secrets?: CloudInitSecrets;
}

/**
 * A cloud-init seed ISO (NoCloud or ConfigDrive) stored as a volume (Terraform `virtseed_cloudinit_seed`).
 * Validates its content at synth with the shared seed generator: errors stop synth (all listed with their
 * path), warnings become annotations.
 */
export class CloudInitSeed extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.cloudinitSeed.CloudinitSeed;
  /** The seed volume's key; attach it with a domain's `cloudinit_seed_id`. */
  readonly seedId: string;
  /**
   * The seed's instance-id: known at synth (explicit, or derived from the content exactly as the provider
   * derives it) when the content holds no tokens; else the resource's `instance_id` attribute.
   */
  readonly instanceId: string;
  /** The resource's `instance_id` attribute (a token), for wiring into other resources. */
  readonly instanceIdAttribute: string;
  /** Host path of the ISO. */
  readonly path: string;
  /** sha256 of the ISO bytes. */
  readonly sha256: string;
  /** The content. */
  readonly cloudInit: CloudInit;

  /** @throws ConstructPropsError for a bad `name`; at synth, for cloud-init content with errors. */
  constructor(scope: Construct, id: string, props: CloudInitSeedProps) {
    super(scope, id);
    checkName('CloudInitSeed.name', props.name);
    this.cloudInit = props.cloudInit;

    const secrets: Record<string, string> = {};
    for (const [key, attribute] of Object.entries(SECRET_ATTRIBUTES)) {
      const value = props.secrets?.[key as keyof CloudInitSecrets];
      if (value !== undefined) secrets[attribute] = secretReference(`${this.node.path} secrets.${key}`, value);
    }
    const spec = props.cloudInit.toSeedSpec();
    this.resource = new virtseed.cloudinitSeed.CloudinitSeed(this, 'Resource', {
      pool: poolRefOf(props.pool).ref,
      host: props.host,
      name: props.name,
      ...seedResourceConfig(spec),
      ...secrets,
    });
    this.seedId = this.resource.id;
    this.instanceIdAttribute = this.resource.instanceId;
    // Write-only content is not known at synth: a derived id is the provider's.
    const known = Object.keys(secrets).length ? spec.instance_id : props.cloudInit.knownInstanceId();
    this.instanceId = known ?? this.instanceIdAttribute;
    this.path = this.resource.path;
    this.sha256 = this.resource.sha256;

    onSynth(this, () => {
      const { errors, warnings } = props.cloudInit.validate();
      if (errors.length > 0) throw invalidCloudInit(`${this.node.path} cloudInit`, errors);
      if (warnings.length > 0) Annotations.of(this).addWarning(formatDiagnostics(warnings));
    });
  }
}
