/**
 * The GitOps example's stack: Terraform state in PostgreSQL through Terraform's own `pg` backend (shared by every
 * pipeline run, with its locking), and the fleet of ./fleet.json: a storage pool of its own (so a host needs no
 * pool named `default`), one isolated network (no forwarding: the guests reach the host and each other, nothing
 * else) and a virtual machine per entry, provisioned by cloud-init.
 */
import * as path from 'node:path';
import { PgBackend, TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { BaseImage, bindings, CloudInit, Network, StoragePool, VirtualMachine } from '../../constructs';
import { readFleet, type Fleet } from './fleet';

/** Where the state lives: Terraform's `pg` backend settings. */
export interface StateBackendProps {
  /**
   * `postgres://USER@HOST:PORT/DB?sslmode=...`, without a password: it is written into cdk.tf.json, `.terraform/`
   * and every saved plan. The password comes from a pgpass file (`PGPASSFILE`, as scripts/ensure-postgres.sh makes).
   */
  readonly connStr: string;
  /** The schema holding the `states` table (one row per workspace). */
  readonly schemaName: string;
}

/** Inputs of {@link GitOpsStack}. */
export interface GitOpsStackProps {
  readonly state: StateBackendProps;
  /** libvirt connection URI. */
  readonly uri: string;
  /** Host path of the qcow2 cloud image with cloud-init the virtual machines are layered on. */
  readonly image: string;
  readonly fleet: Fleet;
}

/** A connection string holding a password: refused, because synth would write it into files a pipeline keeps. */
export function connStrHasPassword(connStr: string): boolean {
  if (/^postgres(ql)?:\/\//.test(connStr)) {
    try {
      return new URL(connStr).password !== '' || new URL(connStr).searchParams.has('password');
    } catch {
      return false;
    }
  }
  return /(^|\s)password\s*=/.test(connStr);
}

/**
 * Reads the inputs from the environment:
 * - `PG_CONN_STR` (required): the state database, without a password (Terraform's pg backend reads the password
 *   from `PGPASSFILE`); `PG_SCHEMA_NAME`: the schema, default `virtseed_gitops`.
 * - `VIRTSEED_IMAGE` (required): the base image; `VIRTSEED_URI`: default `qemu:///system`.
 * - `GITOPS_FLEET`: the fleet file, default ./fleet.json.
 * @throws Error naming the variable when one is missing or PG_CONN_STR holds a password; FleetFileError for a
 *   fleet file of the wrong shape.
 */
export function gitopsPropsFromEnv(env: NodeJS.ProcessEnv = process.env): GitOpsStackProps {
  const connStr = env.PG_CONN_STR;
  if (!connStr) {
    throw new Error('PG_CONN_STR is not set: give the state database, e.g. the output of scripts/ensure-postgres.sh');
  }
  if (connStrHasPassword(connStr)) {
    throw new Error(
      'PG_CONN_STR holds a password, which synth would write into cdk.tf.json and every saved plan; ' +
        'remove it and put it into a pgpass file named by PGPASSFILE (scripts/ensure-postgres.sh does both)',
    );
  }
  if (!env.VIRTSEED_IMAGE) throw new Error('VIRTSEED_IMAGE is not set: give the path of a qcow2 cloud image with cloud-init');
  return {
    state: { connStr, schemaName: env.PG_SCHEMA_NAME || 'virtseed_gitops' },
    uri: env.VIRTSEED_URI || 'qemu:///system',
    image: env.VIRTSEED_IMAGE,
    fleet: readFleet(env.GITOPS_FLEET || path.join(__dirname, 'fleet.json')),
  };
}

/** The state backend, the provider, the fleet's storage pool (a `dir` pool `<prefix>pool` in
 *  /var/lib/libvirt/images/<prefix>pool, removed with the stack), its network and its virtual machines, with their instance-ids and
 *  UUIDs as outputs (values a plan's refresh does not change, so a drift check stays quiet). */
export class GitOpsStack extends TerraformStack {
  readonly vms: VirtualMachine[];

  constructor(scope: Construct, id: string, props: GitOpsStackProps) {
    super(scope, id);
    new PgBackend(this, { connStr: props.state.connStr, schemaName: props.state.schemaName });
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: props.uri });

    const { prefix } = props.fleet;
    const pool = new StoragePool(this, 'pool', { name: `${prefix}pool`, path: `/var/lib/libvirt/images/${prefix}pool` });
    const network = new Network(this, 'net', { name: `${prefix}net`, subnets: [props.fleet.network] });
    const baseImage = BaseImage.fromFile(props.image, { volumeName: `${prefix}base` });
    this.vms = props.fleet.vms.map((vm) => {
      const name = `${prefix}${vm.name}`;
      const machine = new VirtualMachine(this, vm.name, {
        name,
        baseImage,
        pool,
        memoryMiB: vm.memoryMiB,
        maxMemoryMiB: vm.maxMemoryMiB,
        vcpus: vm.vcpus,
        running: vm.running,
        networks: [network.attach()],
        cloudInit: CloudInit.fromConfig({
          hostname: name,
          cloudConfig: { runcmd: [['sh', '-c', `echo "GITOPS_MESSAGE ${vm.message}" > /dev/ttyS0`]] },
        }),
      });
      new TerraformOutput(this, `${vm.name}_instance_id`, { value: machine.instanceId });
      new TerraformOutput(this, `${vm.name}_uuid`, { value: machine.uuid });
      return machine;
    });
  }
}
