/**
 * The README's example: a web server VM from a Debian cloud image, with a static address, an ssh key, an
 * environment file, a config file and nginx, re-provisioned by reboot when its seed's instance-id changes.
 */
import { TerraformOutput, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { BaseImage, bindings, CloudInit, Reprovision, Size, VirtualMachine } from '../../constructs';

export class WebStack extends TerraformStack {
  readonly vm: VirtualMachine;

  constructor(scope: Construct, id: string, image = '/var/lib/libvirt/images/debian-12-genericcloud-amd64.qcow2') {
    super(scope, id);
    new bindings.provider.VirtseedProvider(this, 'virtseed', { uri: 'qemu:///system' });
    this.vm = new VirtualMachine(this, 'web1', {
      name: 'web1',
      baseImage: BaseImage.fromFile(image),
      diskSize: Size.gibibytes(10),
      memoryMiB: 1024,
      vcpus: 2,
      reprovision: Reprovision.REBOOT,
      cloudInit: CloudInit.fromConfig({
        hostname: 'web1',
        publicKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGRlbW9rZXlkZW1va2V5ZGVtb2tleWRlbW9rZXlkZW0 me@laptop'],
        environment: { APP_ENV: 'production' },
        files: [{ path: '/etc/app.conf', content: 'port=8080\n', permissions: '0640', owner: 'root:root' }],
        network: {
          version: 2,
          interfaces: [{ name: 'eth0', addresses: ['192.168.122.10/24'], gateway4: '192.168.122.1', nameservers: ['192.168.122.1'] }],
        },
        cloudConfig: { packages: ['nginx'], runcmd: ['systemctl enable --now nginx'] },
      }),
    });
    new TerraformOutput(this, 'instance_id', { value: this.vm.instanceId });
  }
}
