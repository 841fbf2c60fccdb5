/**
 * The basic example: one virtual machine from the user's image, its volumes in a storage pool the example creates
 * (a directory under /var/lib/libvirt/images, made when the pool starts and removed with it), on an isolated
 * libvirt network the example creates (DHCP, no forwarding: the guest reaches the host and nothing else), so it needs
 * nothing prepared on the host but libvirtd. Provisioned by cloud-init, which prints
 * `VIRTSEED_BASIC_OK <hostname>` on its serial console. The deploy returns once cloud-init finished in the guest
 * (`WaitFor.CLOUD_INIT`) and outputs the guest's address.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { BaseImage, bindings, CloudInit, Firmware, KernelBoot, Network, StoragePool, VirtualMachine, WaitFor } from '../../constructs';

/** Inputs of {@link BasicStack}. */
export interface BasicStackProps {
  /** libvirt connection URI. */
  readonly uri: string;
  /** Host path of a qcow2 cloud image with cloud-init. */
  readonly image: string;
  /** Boot firmware. @default Firmware.BIOS */
  readonly firmware?: Firmware;
  /** Direct kernel boot (for images without a boot loader). @default - the image's own boot loader */
  readonly kernel?: KernelBoot;
  /** An SSH public key for the `virtseed` user. */
  readonly sshPublicKey?: string;
}

/** Kernel command line for direct kernel boot of a bare root file system image (on /dev/vda, console on ttyS0). */
export const DEFAULT_CMDLINE = 'root=/dev/vda rw console=ttyS0,115200 net.ifnames=0';

/**
 * Reads the inputs from the environment:
 * - `VIRTSEED_IMAGE` (required): any qcow2 cloud image with cloud-init. `scripts/build-test-image.sh` builds a
 *   small Debian one that boots through its own GRUB under BIOS and UEFI (`scripts/example-env.sh` exports its
 *   path when VIRTSEED_IMAGE is not set).
 * - `VIRTSEED_FIRMWARE`: `bios` (default) or `efi`.
 * - `VIRTSEED_KERNEL`, `VIRTSEED_INITRD`, `VIRTSEED_CMDLINE`: when VIRTSEED_KERNEL is set, boot that kernel directly.
 * - `VIRTSEED_URI`: libvirt URI, default `qemu:///system`.
 * - `VIRTSEED_SSH_PUBLIC_KEY`: optional key for the `virtseed` user.
 * @throws Error when VIRTSEED_IMAGE is not set.
 */
export function basicPropsFromEnv(env: NodeJS.ProcessEnv = process.env): BasicStackProps {
  const image = env.VIRTSEED_IMAGE;
  if (!image) {
    throw new Error(
      'VIRTSEED_IMAGE is not set: give the path of a qcow2 cloud image with cloud-init, or source ' +
        "scripts/example-env.sh to build and use the project's small test image",
    );
  }
  return {
    uri: env.VIRTSEED_URI || 'qemu:///system',
    image,
    ...(env.VIRTSEED_FIRMWARE ? { firmware: env.VIRTSEED_FIRMWARE as Firmware } : {}),
    kernel: env.VIRTSEED_KERNEL
      ? { kernel: env.VIRTSEED_KERNEL, initrd: env.VIRTSEED_INITRD || undefined, cmdline: env.VIRTSEED_CMDLINE || DEFAULT_CMDLINE }
      : undefined,
    sshPublicKey: env.VIRTSEED_SSH_PUBLIC_KEY || undefined,
  };
}

/** The example network's subnet: host 10.213.99.1, DHCP .100–.199. */
export const BASIC_SUBNET = { address: '10.213.99.1/24', dhcpRanges: [{ start: '10.213.99.100', end: '10.213.99.199' }] };

/** Where the example's pool keeps its volumes. */
export const BASIC_POOL_DIR = '/var/lib/libvirt/images/virtseed-basic';

/** One provider, a {@link StoragePool}, an isolated {@link Network} and one {@link VirtualMachine} on them, all named
 *  `virtseed-basic`, with the guest's address, instance-id, console log and UUID as outputs. */
export class BasicStack extends TerraformStack {
  readonly vm: VirtualMachine;

  constructor(scope: Construct, id: string, props: BasicStackProps) {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: props.uri });

    const hostname = 'virtseed-basic';
    const network = new Network(this, 'net', { name: hostname, subnets: [BASIC_SUBNET] });
    // The example's own pool rather than libvirt's `default`, which a fresh host does not have.
    const pool = new StoragePool(this, 'pool', { name: hostname, path: BASIC_POOL_DIR });
    this.vm = new VirtualMachine(this, 'vm', {
      name: hostname,
      pool,
      baseImage: BaseImage.fromFile(props.image, { volumeName: `${hostname}-base` }),
      firmware: props.firmware,
      kernel: props.kernel,
      // The example's own isolated network rather than libvirt's `default` NAT network: nothing leaves the host.
      networks: [network.attach()],
      waitFor: WaitFor.CLOUD_INIT,
      cloudInit: CloudInit.fromConfig({
        hostname,
        cloudConfig: {
          users: [
            {
              name: 'virtseed',
              shell: '/bin/bash',
              sudo: 'ALL=(ALL) NOPASSWD:ALL',
              lock_passwd: true,
              ...(props.sshPublicKey ? { ssh_authorized_keys: [props.sshPublicKey] } : {}),
            },
          ],
          runcmd: [['sh', '-c', 'echo "VIRTSEED_BASIC_OK $(hostname)" > /dev/ttyS0']],
        },
      }),
    });

    new TerraformOutput(this, 'ip_address', { value: this.vm.ipAddress });
    new TerraformOutput(this, 'instance_id', { value: this.vm.instanceId });
    new TerraformOutput(this, 'console_log', { value: this.vm.consoleLog });
    new TerraformOutput(this, 'uuid', { value: this.vm.uuid });
  }
}
