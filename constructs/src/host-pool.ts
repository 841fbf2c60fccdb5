import { dependable, Token } from 'cdktf';
import { Construct } from 'constructs';
import * as virtseed from '../generated/virtseed';
import { invalidName, invalidNumber, invalidValue } from './errors';

/** One libvirt host of a {@link HostPool} (a provider `host` block). */
export interface PoolHost {
  /** The name resources and placements use, e.g. `kvm2`: letters, digits, `.`, `_` and `-`, up to 63 characters. */
  readonly name: string;
  /** libvirt connection URI, e.g. `qemu+tls://kvm2.example.net/system` or `qemu+ssh://root@kvm2/system`. */
  readonly uri: string;
  /**
   * The URI the other hosts' libvirtd uses to reach this one when a running VM live-migrates to it.
   * @default - `uri`
   */
  readonly migrationUri?: string;
  /**
   * MiB of guest memory placements may commit on the host (every domain there counts, running or not).
   * @default - the host's physical memory
   */
  readonly maxMemoryMiB?: number;
  /**
   * vCPUs placements may commit on the host.
   * @default - 4 per host CPU
   */
  readonly maxVcpu?: number;
}

/** Properties of a {@link HostPool}. */
export interface HostPoolProps {
  /** The hosts, in order of preference when two fit a VM equally well. */
  readonly hosts: PoolHost[];
  /**
   * The provider's default host (resources with no host or placement).
   * @default 'qemu:///system'
   */
  readonly uri?: string;
}

/** How a VM's host is chosen among the pool's (see {@link HostPool.place}). */
export type PlacementPolicy = 'spread' | 'pack';

/** Options of {@link HostPool.place}. */
export interface PlaceOptions {
  /**
   * An anti-affinity group: never two VMs of the group on one host.
   * @default - none
   */
  readonly antiAffinity?: string;
  /**
   * `spread`: the host with the least memory committed (share of its budget) with the VM added; `pack`: the most
   * that still fits.
   * @default 'spread'
   */
  readonly policy?: PlacementPolicy;
  /**
   * The host the VM must be on; changing it moves the VM (live, when it runs and both hosts answer).
   * @default - chosen by the policy
   */
  readonly pin?: string;
  /**
   * The pool's hosts to choose from.
   * @default - all of the pool's hosts
   */
  readonly hosts?: string[];
  /**
   * A trigger: changing its value (e.g. a date) chooses the VM's host again.
   * @default - never chosen again
   */
  readonly rebalance?: string;
}

const HOST_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * Named libvirt hosts (Terraform's `provider "virtseed"` block with one `host` block each) and the placement of
 * virtual machines on them: `pool.place({ antiAffinity: 'web' })` gives a {@link VirtualMachine} a
 * `virtseed_placement`, which chooses its host at plan from what the hosts report. The pool chains its placements
 * (each depends on the one made before it), so the placements of one plan see each other's choices and the apply
 * keeps them, with any `-parallelism`.
 */
export class HostPool extends Construct {
  /** The generated provider configuration (the stack's `virtseed` provider). */
  readonly provider: virtseed.provider.VirtseedProvider;
  /** The hosts' names, in the pool's order. */
  readonly hostNames: string[];
  private last: virtseed.placement.Placement | undefined;

  /** @throws ConstructPropsError for no hosts, a bad or repeated host name, or a limit that is not a whole number > 0. */
  constructor(scope: Construct, id: string, props: HostPoolProps) {
    super(scope, id);
    if (!props.hosts.length) throw invalidValue('HostPool.hosts', props.hosts, 'at least one host');
    const seen = new Set<string>();
    props.hosts.forEach((h, i) => {
      if (!Token.isUnresolved(h.name) && !HOST_NAME.test(h.name)) throw invalidName(`HostPool.hosts[${i}].name`, h.name, 63);
      if (seen.has(h.name)) throw invalidValue(`HostPool.hosts[${i}].name`, h.name, 'a name no other host of the pool has');
      seen.add(h.name);
      for (const [key, v] of [
        ['maxMemoryMiB', h.maxMemoryMiB],
        ['maxVcpu', h.maxVcpu],
      ] as const)
        if (v !== undefined && !Token.isUnresolved(v) && !(Number.isInteger(v) && v > 0))
          throw invalidNumber(`HostPool.hosts[${i}].${key}`, v, 'a whole number greater than 0');
    });
    this.hostNames = props.hosts.map((h) => h.name);
    this.provider = new virtseed.provider.VirtseedProvider(this, 'Provider', {
      uri: props.uri,
      host: props.hosts.map((h) => ({
        name: h.name,
        uri: h.uri,
        migrationUri: h.migrationUri,
        maxMemory: h.maxMemoryMiB,
        maxVcpu: h.maxVcpu,
      })),
    });
  }

  /**
   * A placement request for one VM (give it to {@link VirtualMachineProps.placement}): the VM gets a
   * `virtseed_placement` and its domain, volumes and seed go on the host it chooses.
   * @throws ConstructPropsError for a pinned or listed host that is not in the pool.
   */
  place(options: PlaceOptions = {}): Placement {
    for (const h of [...(options.hosts ?? []), ...(options.pin !== undefined ? [options.pin] : [])])
      if (!Token.isUnresolved(h) && !this.hostNames.includes(h))
        throw invalidValue('HostPool.place', h, `one of the pool's hosts (${this.hostNames.join(', ')})`);
    if (options.policy !== undefined && options.policy !== 'spread' && options.policy !== 'pack')
      throw invalidValue('HostPool.place policy', options.policy, "'spread' or 'pack'");
    return new Placement(this, options);
  }

  /** Makes `resource` the pool's latest placement, planned after the one before it. @internal */
  _chain(resource: virtseed.placement.Placement): void {
    if (this.last) resource.dependsOn = [...(resource.dependsOn ?? []), dependable(this.last)];
    this.last = resource;
  }
}

/** The VM a placement is for. @internal */
export interface PlacedVm {
  readonly name: string;
  readonly memoryMiB: number;
  readonly vcpus: number;
}

/** A placement request of a {@link HostPool} (value object; create with `pool.place()`). */
export class Placement {
  /** @internal */
  constructor(
    readonly pool: HostPool,
    readonly options: PlaceOptions,
  ) {}

  /** Creates the VM's `virtseed_placement` (id `Placement` in `scope`), chained after the pool's last one. @internal */
  _bind(scope: Construct, vm: PlacedVm): virtseed.placement.Placement {
    const resource = new virtseed.placement.Placement(scope, 'Placement', {
      name: vm.name,
      memory: vm.memoryMiB,
      vcpu: vm.vcpus,
      policy: this.options.policy,
      antiAffinity: this.options.antiAffinity,
      pin: this.options.pin,
      hosts: this.options.hosts,
      rebalance: this.options.rebalance,
      provider: this.pool.provider,
    });
    this.pool._chain(resource);
    return resource;
  }
}
