/**
 * The desired state of the GitOps example: a JSON file the team changes through pull requests (./fleet.json). The
 * pipeline (./pipeline.sh) synthesizes the stack from it, shows the plan summary on the pull request, and applies
 * the reviewed plan once it is merged.
 */
import * as fs from 'node:fs';
import type { NetworkSubnet } from '../../constructs';

/** One virtual machine of the fleet. */
export interface FleetVm {
  /** Name within the fleet; the domain is `<prefix><name>`. */
  readonly name: string;
  /** Memory in MiB. */
  readonly memoryMiB: number;
  /**
   * Memory the guest may grow to without a restart, MiB: a later `memoryMiB` up to it is applied live.
   * @default - `memoryMiB` (any memory change restarts the guest)
   */
  readonly maxMemoryMiB?: number;
  /** Virtual CPUs. @default 1 */
  readonly vcpus?: number;
  /** Written to the guest's serial console by cloud-init: a change gives a new instance-id (re-provisioning). */
  readonly message: string;
  /** Keep the guest running. @default true */
  readonly running?: boolean;
}

/** The fleet: an isolated network and the virtual machines on it. */
export interface Fleet {
  /** Prefix of every libvirt object's name (network, volumes, domains), e.g. `gitops-`. */
  readonly prefix: string;
  /** The network's subnet: the host's address on it and DHCP (the `Network` construct's `subnets[0]`). */
  readonly network: NetworkSubnet;
  readonly vms: FleetVm[];
}

/** A fleet file that does not have the expected shape; the message names the file and the path in it. */
export class FleetFileError extends Error {
  constructor(file: string, where: string, expected: string, given: unknown) {
    super(`${file}: ${where}: expected ${expected}, got ${JSON.stringify(given)}`);
    this.name = 'FleetFileError';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Reads and checks the shape of a fleet file (values such as names, addresses and sizes are checked by the
 * constructs at synth, naming their props).
 * @throws FleetFileError naming the file and the path of the first value of the wrong type.
 */
export function readFleet(file: string): Fleet {
  const doc: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const need = (ok: boolean, where: string, expected: string, given: unknown) => {
    if (!ok) throw new FleetFileError(file, where, expected, given);
  };
  need(isObject(doc), '(document)', 'an object with prefix, network and vms', doc);
  const d = doc as Record<string, unknown>;
  need(typeof d.prefix === 'string', 'prefix', 'a string', d.prefix);
  need(
    isObject(d.network) && typeof d.network.address === 'string',
    'network',
    'an object with address (e.g. "10.213.60.1/24")',
    d.network,
  );
  need(Array.isArray(d.vms), 'vms', 'a list', d.vms);
  (d.vms as unknown[]).forEach((vm, i) => {
    need(isObject(vm), `vms[${i}]`, 'an object', vm);
    const v = vm as Record<string, unknown>;
    need(typeof v.name === 'string', `vms[${i}].name`, 'a string', v.name);
    need(typeof v.memoryMiB === 'number', `vms[${i}].memoryMiB`, 'a number of MiB', v.memoryMiB);
    need(v.maxMemoryMiB === undefined || typeof v.maxMemoryMiB === 'number', `vms[${i}].maxMemoryMiB`, 'a number of MiB', v.maxMemoryMiB);
    need(v.vcpus === undefined || typeof v.vcpus === 'number', `vms[${i}].vcpus`, 'a number', v.vcpus);
    need(typeof v.message === 'string', `vms[${i}].message`, 'a string', v.message);
    need(v.running === undefined || typeof v.running === 'boolean', `vms[${i}].running`, 'true or false', v.running);
  });
  return d as unknown as Fleet;
}
