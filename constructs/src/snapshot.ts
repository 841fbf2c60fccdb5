import { Construct } from 'constructs';
import { Token } from 'cdktf';
import * as virtseed from '../generated/virtseed';
import { SNAPSHOT_NAME_PATTERN } from '../../src/snapshot/model';
import { invalidName, invalidValue } from './errors';
import { VirtualMachine } from './virtual-machine';

/** Properties of a {@link Snapshot}. */
export interface SnapshotProps {
  /** The guest: a {@link VirtualMachine}, or a domain's UUID or name. Changing it replaces the snapshot. */
  readonly machine: VirtualMachine | string;
  /**
   * Snapshot name, unique per domain: 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.
   * Changing it replaces the snapshot.
   */
  readonly name: string;
  /**
   * Free text kept with the snapshot; changing it changes the snapshot's metadata in place.
   * @default - none
   */
  readonly description?: string;
  /**
   * Whether the snapshot holds the guest's memory: `true` needs the guest running (a BIOS guest: libvirt 9.0 takes
   * no internal snapshot of a running UEFI guest), `false` needs it shut off. Changing it replaces the snapshot.
   * @default - with memory when the guest runs when the snapshot is taken, its disks only when it is shut off
   */
  readonly memory?: boolean;
  /**
   * The host of a `machine` given by UUID or name (a `HostPool` host's name); a {@link VirtualMachine}'s own
   * host otherwise. Changing it replaces the snapshot.
   * @default - the machine's host, else the provider's default host
   */
  readonly host?: string;
}

/**
 * A libvirt snapshot of a virtual machine (Terraform `virtseed_snapshot`), kept inside its qcow2 disks: of a running
 * BIOS guest its memory and disks (a revert resumes it), of a shut-off guest its disks (BIOS or UEFI; NVRAM is in
 * no snapshot). Reverting is an explicit act: `virtseed snapshot revert DOMAIN SNAPSHOT [--start]`.
 */
export class Snapshot extends Construct {
  /** The generated resource. */
  readonly resource: virtseed.snapshot.Snapshot;
  /** `<domain UUID>/<name>`. */
  readonly snapshotId: string;
  /** The domain's state when the snapshot was taken: `running`, `paused` or `shutoff` (a token). */
  readonly state: string;
  /** The guest's instance-id when the snapshot was taken (a token): what a revert returns it to. */
  readonly instanceId: string;

  /** @throws ConstructPropsError for a bad `name`. */
  constructor(scope: Construct, id: string, props: SnapshotProps) {
    super(scope, id);
    if (!Token.isUnresolved(props.name) && !SNAPSHOT_NAME_PATTERN.test(props.name)) throw invalidName('Snapshot.name', props.name, 64);
    if (typeof props.machine === 'string' && !Token.isUnresolved(props.machine) && props.machine === '') {
      throw invalidValue('Snapshot.machine', props.machine, 'a VirtualMachine, or a domain UUID or name');
    }
    const domainId = typeof props.machine === 'string' ? props.machine : props.machine.uuid;
    this.resource = new virtseed.snapshot.Snapshot(this, 'Resource', {
      domainId,
      host: typeof props.machine === 'string' ? props.host : (props.host ?? props.machine.host),
      name: props.name,
      description: props.description,
      memory: props.memory,
    });
    this.snapshotId = this.resource.id;
    this.state = this.resource.state;
    this.instanceId = this.resource.instanceId;
  }
}
