import { Construct } from 'constructs';
import { Token } from 'cdktf';
import { VOLUME_FORMATS, isOneOf } from '../../src/fields';
import * as virtseed from '../generated/virtseed';
import { invalidNumber, invalidValue, mutuallyExclusive } from './errors';
import type { VolumeProps } from './volume-props';
import { checkName } from './private/names';
import { poolRefOf } from './pool-ref';
import { secretReference } from './secrets';

/**
 * A storage volume in a libvirt pool (Terraform `virtseed_volume`): empty, uploaded from a local file or URL, or a
 * qcow2 overlay on a backing volume.
 */
export class Volume extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.volume.Volume;
  /** The libvirt volume key (the path for `dir` pools); use it as `backingVolume` or a domain disk. */
  readonly volumeId: string;
  /** Host path of the volume. */
  readonly path: string;
  /** The volume's name. */
  readonly name: string;
  /** The name of the pool holding it (as given; for a {@link StoragePool}, its name). */
  readonly poolName: string;

  /** @throws ConstructPropsError for a bad `name`, `format`, `sha256`, a `backingVolume` with format `raw`, or a
   *  `sourceSecret` that is a plain string (or given with `source`). */
  constructor(scope: Construct, id: string, props: VolumeProps) {
    super(scope, id);
    checkName('Volume.name', props.name);
    if (props.format !== undefined && !isOneOf(VOLUME_FORMATS, props.format)) {
      throw invalidValue('Volume.format', props.format, `one of ${VOLUME_FORMATS.join(', ')}`);
    }
    if (props.backingVolume !== undefined && props.format === 'raw') {
      throw invalidValue('Volume.format', props.format, "'qcow2' (an overlay on backingVolume is always qcow2)");
    }
    if (props.sha256 !== undefined && !Token.isUnresolved(props.sha256) && !/^[0-9a-fA-F]{64}$/.test(props.sha256)) {
      throw invalidValue('Volume.sha256', props.sha256, '64 hex digits (the output of sha256sum)');
    }
    if (props.sourceSecret !== undefined && props.source !== undefined)
      throw mutuallyExclusive('Volume.source', 'Volume.sourceSecret', 'Give the URL in clear (source) or as a secret (sourceSecret).');
    const sourceWo = props.sourceSecret === undefined ? undefined : secretReference(`${this.node.path} sourceSecret`, props.sourceSecret);
    const hasSource = props.source !== undefined || sourceWo !== undefined;
    if (props.checksums && props.sha256 !== undefined) {
      throw mutuallyExclusive(
        'Volume.sha256',
        'Volume.checksums',
        'Pin the digest yourself (sha256) or take it from the checksum file (checksums).',
      );
    }
    if (props.checksums && !hasSource) {
      throw invalidValue('Volume.checksums', props.checksums.url, 'checksums only together with source (they verify the bytes of source)');
    }
    if (props.signature && !props.checksums) {
      throw invalidValue(
        'Volume.signature',
        props.signature.url ?? '(clearsigned)',
        'signature only with checksums (it signs the checksum file)',
      );
    }
    if (props.sha256 !== undefined && !hasSource) {
      throw invalidValue('Volume.sha256', props.sha256, 'sha256 only together with source (it pins the bytes of source)');
    }
    const capacity = props.capacity?.toBytes();
    if (capacity !== undefined && !Token.isUnresolved(capacity) && capacity <= 0) {
      throw invalidNumber('Volume.capacity', capacity, 'a size greater than 0 bytes');
    }

    this.resource = new virtseed.volume.Volume(this, 'Resource', {
      pool: poolRefOf(props.pool).ref,
      host: props.host,
      name: props.name,
      format: props.format ?? 'qcow2',
      capacity,
      backingVolume: props.backingVolume,
      source: props.source,
      sourceWo,
      sha256: props.sha256,
      checksumUrl: props.checksums?.url,
      checksumAlgorithm: props.checksums?.algorithm,
      signatureUrl: props.signature?.url,
      signatureKey: props.signature?.key,
    });
    this.volumeId = this.resource.id;
    this.path = this.resource.path;
    this.name = props.name;
    this.poolName = poolRefOf(props.pool).name;
  }
}
