import { createHash } from 'node:crypto';
import { Construct } from 'constructs';
import { BaseImage, CloudInit, type CloudInitProps, Network, StoragePool, VirtualMachine } from '@virtseed/cdktf';
import { invalidCloudInit, invalidProp } from './errors';

/** Memory of each virtual machine when `memoryMiB` is not given, in MiB. */
export const DEFAULT_MEMORY_MIB = 256;

/** The largest fleet. */
export const MAX_REPLICAS = 32;

/** cloud-init settings every virtual machine of the fleet gets (each VM's hostname is added by the fleet). */
export type SharedCloudInit = Omit<CloudInitProps, 'hostname' | 'fqdn' | 'instanceId'>;

/** Properties of a {@link WebFleet}. */
export interface WebFleetProps {
  /**
   * Prefix of every libvirt object's name: the network `<namePrefix>net`, the storage pool `<namePrefix>pool` (when
   * the fleet makes it), the virtual machines `<namePrefix>1` …
   * `<namePrefix>N` (also their hostnames) and their volumes. 1 to 40 lower-case letters, digits and `-`, starting
   * with a letter, e.g. `shop-`.
   */
  readonly namePrefix: string;
  /** The image every virtual machine's root disk is layered on (uploaded once, shared by the fleet). */
  readonly baseImage: BaseImage;
  /**
   * The storage pool of the fleet's volumes (base image, root disks, seeds): the name of a pool the host has, or a
   * virtseed `StoragePool` of the stack.
   * @default - the fleet makes its own `dir` pool `<namePrefix>pool` at `/var/lib/libvirt/images/<namePrefix>pool`
   *   (created with the fleet, removed with it), so a host needs no pool of its own
   */
  readonly pool?: string | StoragePool;
  /**
   * Number of virtual machines, 1 to {@link MAX_REPLICAS}.
   * @default 2
   */
  readonly replicas?: number;
  /**
   * Memory of each virtual machine in MiB (at least 64).
   * @default 256
   */
  readonly memoryMiB?: number;
  /**
   * Virtual CPUs of each virtual machine, 1 to 64.
   * @default 1
   */
  readonly vcpus?: number;
  /**
   * The isolated network's IPv4 subnet, a /24 given by its network address, e.g. `10.231.0.0/24`: the host is `.1`,
   * virtual machine `i` (from 1) always gets `.(10 + i)` by a static DHCP lease. The network forwards nowhere: the
   * guests reach the host and each other, nothing else.
   * @default '10.231.0.0/24'
   */
  readonly subnet?: string;
  /**
   * cloud-init configuration shared by every virtual machine (packages, users, files, runcmd...); the fleet adds
   * each one's hostname. Checked at synth like virtseed's own.
   * @default - only the hostname
   */
  readonly cloudInit?: SharedCloudInit;
  /**
   * Keep the virtual machines running (true) or defined and shut off (false).
   * @default true
   */
  readonly running?: boolean;
}

/** One virtual machine of the fleet with its fixed address. */
export interface FleetMember {
  readonly vm: VirtualMachine;
  /** Its IPv4 address on the fleet's network (known at synth). */
  readonly address: string;
}

const NAME_PREFIX = /^[a-z][a-z0-9-]{0,39}$/;
/** A libvirt storage pool name the fleet accepts: no '/', no leading '.' or '-', printable. */
const POOL_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]{0,63}$/;
const SUBNET = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.0\/24$/;

function isIntegerIn(v: unknown, min: number, max: number): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
}

/** The first three octets of a valid `subnet`, or undefined. */
function subnetPrefix(subnet: string): string | undefined {
  const m = SUBNET.exec(subnet);
  if (!m || m.slice(1).some((o) => Number(o) > 255)) return undefined;
  return m.slice(1, 4).join('.');
}

/**
 * The props checks, in the manner of @virtseed/cdktf's constructs: every error names the prop path.
 * @throws ConstructPropsError (from @virtseed/cdktf) for the first invalid prop.
 */
function validate(props: WebFleetProps): void {
  if (typeof props.namePrefix !== 'string' || !NAME_PREFIX.test(props.namePrefix)) {
    throw invalidProp(
      'WebFleet.namePrefix',
      props.namePrefix,
      "1 to 40 lower-case letters, digits or '-', starting with a letter (e.g. 'shop-')",
    );
  }
  const pool: unknown = props.pool;
  if (pool !== undefined && !(pool instanceof StoragePool) && !(typeof pool === 'string' && POOL_NAME.test(pool))) {
    throw invalidProp(
      'WebFleet.pool',
      typeof pool === 'object' && pool !== null ? `a ${pool.constructor.name}` : pool,
      "a storage pool's name (letters, digits, '_', '.', '+', '-'; e.g. 'default') or a StoragePool of the stack",
    );
  }
  if (props.replicas !== undefined && !isIntegerIn(props.replicas, 1, MAX_REPLICAS)) {
    throw invalidProp('WebFleet.replicas', props.replicas, `a whole number from 1 to ${MAX_REPLICAS}`);
  }
  if (props.memoryMiB !== undefined && !isIntegerIn(props.memoryMiB, 64, 16 * 1024 * 1024)) {
    throw invalidProp('WebFleet.memoryMiB', props.memoryMiB, 'a whole number of MiB, at least 64');
  }
  if (props.vcpus !== undefined && !isIntegerIn(props.vcpus, 1, 64)) {
    throw invalidProp('WebFleet.vcpus', props.vcpus, 'a whole number from 1 to 64');
  }
  if (props.subnet !== undefined && subnetPrefix(props.subnet) === undefined) {
    throw invalidProp('WebFleet.subnet', props.subnet, "an IPv4 /24 network address such as '10.231.0.0/24'");
  }
  const shared = props.cloudInit as CloudInitProps | undefined;
  for (const key of ['hostname', 'fqdn', 'instanceId'] as const) {
    if (shared?.[key] !== undefined) {
      throw invalidProp(`WebFleet.cloudInit.${key}`, shared[key], 'nothing: the fleet sets it for each virtual machine');
    }
  }
  if (shared) {
    const { errors } = CloudInit.fromConfig(shared).validate();
    if (errors.length) throw invalidCloudInit('WebFleet.cloudInit', errors);
  }
}

/**
 * A fleet of identical web servers: `replicas` virtseed {@link VirtualMachine}s on one isolated libvirt network,
 * each with a fixed address, all provisioned by the same cloud-init configuration (plus their own hostname).
 */
export class WebFleet extends Construct {
  /** The fleet's network. */
  readonly network: Network;
  /** The pool of the fleet's volumes: `props.pool`, or the pool the fleet made. */
  readonly pool: string | StoragePool;
  /** The virtual machines, in order, with their addresses. */
  readonly members: FleetMember[];

  /** @throws ConstructPropsError (from @virtseed/cdktf) naming the prop, e.g. `WebFleet.replicas`. */
  constructor(scope: Construct, id: string, props: WebFleetProps) {
    super(scope, id);
    validate(props);
    const prefix = subnetPrefix(props.subnet ?? '10.231.0.0/24')!;
    const replicas = props.replicas ?? 2;
    // MACs derived from the name prefix, so two fleets on one host do not share them and a synth is reproducible.
    const tag = createHash('sha256').update(props.namePrefix).digest();
    const mac = (i: number) =>
      `52:54:00:${tag[0]!.toString(16).padStart(2, '0')}:${tag[1]!.toString(16).padStart(2, '0')}:${i.toString(16).padStart(2, '0')}`;
    const hosts = Array.from({ length: replicas }, (_, k) => ({
      index: k + 1,
      hostname: `${props.namePrefix}${k + 1}`,
      ip: `${prefix}.${11 + k}`,
      mac: mac(k + 1),
    }));

    this.network = new Network(this, 'Network', {
      name: `${props.namePrefix}net`,
      subnets: [{ address: `${prefix}.1/24`, dhcpRanges: [{ start: `${prefix}.100`, end: `${prefix}.199` }] }],
      staticHosts: hosts.map((h) => ({ ip: h.ip, mac: h.mac, hostname: h.hostname })),
    });
    this.pool =
      props.pool ??
      new StoragePool(this, 'Pool', { name: `${props.namePrefix}pool`, path: `/var/lib/libvirt/images/${props.namePrefix}pool` });
    this.members = hosts.map((h) => ({
      address: h.ip,
      vm: new VirtualMachine(this, `Vm${h.index}`, {
        name: h.hostname,
        baseImage: props.baseImage,
        pool: this.pool,
        memoryMiB: props.memoryMiB ?? DEFAULT_MEMORY_MIB,
        vcpus: props.vcpus ?? 1,
        running: props.running ?? true,
        networks: [this.network.attach({ mac: h.mac })],
        cloudInit: CloudInit.fromConfig({ ...props.cloudInit, hostname: h.hostname }),
      }),
    }));
  }
}
