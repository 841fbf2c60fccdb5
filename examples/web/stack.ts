/**
 * The README's example: a web server VM from a Debian cloud image on its own libvirt network (NAT, DHCP, a static
 * lease for the VM's MAC), with an ssh key, an environment file, a config file and nginx. The deploy returns once
 * cloud-init finished in the guest; the VM's address is an output. Re-provisioned by reboot when its seed's
 * instance-id changes.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import {
  BaseImage,
  bindings,
  CloudInit,
  Network,
  NetworkMode,
  Reprovision,
  Size,
  StoragePool,
  VirtualMachine,
  WaitFor,
} from '../../constructs';

/** The address the network's DHCP server always gives the VM (a static lease for its MAC). */
export const WEB_ADDRESS = '192.168.150.10';

export class WebStack extends TerraformStack {
  readonly network: Network;
  readonly vm: VirtualMachine;

  constructor(scope: Construct, id: string, image = '/var/lib/libvirt/images/debian-12-genericcloud-amd64.qcow2') {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: 'qemu:///system' });
    const mac = '52:54:00:00:96:0a';
    this.network = new Network(this, 'net', {
      name: 'web-net',
      mode: NetworkMode.NAT, // the guest downloads nginx; NetworkMode.ISOLATED keeps everything on the host
      subnets: [{ address: '192.168.150.1/24', dhcpRanges: [{ start: '192.168.150.100', end: '192.168.150.199' }] }],
      staticHosts: [{ mac, hostname: 'web1', ip: WEB_ADDRESS }],
      dnsHosts: [{ ip: WEB_ADDRESS, hostnames: ['web1.lab'] }],
    });
    const pool = new StoragePool(this, 'pool', { name: 'web', path: '/var/lib/libvirt/images/web' }); // a fresh host has no pool
    this.vm = new VirtualMachine(this, 'web1', {
      name: 'web1',
      baseImage: BaseImage.fromFile(image),
      pool,
      diskSize: Size.gibibytes(10),
      memoryMiB: 1024,
      vcpus: 2,
      networks: [this.network.attach({ mac })],
      reprovision: Reprovision.REBOOT,
      waitFor: WaitFor.CLOUD_INIT,
      cloudInit: CloudInit.fromConfig({
        hostname: 'web1',
        publicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRlbW9rZXlkZW1va2V5ZGVtb2tleWRlbW9rZXlkZW0 me@laptop'],
        environment: { APP_ENV: 'production' },
        files: [{ path: '/etc/app.conf', content: 'port=8080\n', permissions: '0640', owner: 'root:root' }],
        cloudConfig: { packages: ['nginx'], runcmd: ['systemctl enable --now nginx'] },
      }),
    });
    new TerraformOutput(this, 'instance_id', { value: this.vm.instanceId });
    new TerraformOutput(this, 'ip_address', { value: this.vm.ipAddress });
  }
}
