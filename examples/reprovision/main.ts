/**
 * Re-provisioning example: change `VIRTSEED_MESSAGE` and run `npx cdktf diff reprovision --skip-provider-lock` to see
 * the plan's decision (the seed's new instance-id, the domain's `reprovision_action`, and a warning naming both
 * ids); `VIRTSEED_REPROVISION` picks the policy (reboot, recreate, next-boot).
 *
 * Environment: VIRTSEED_IMAGE (required, as in examples/basic), VIRTSEED_KERNEL/INITRD/CMDLINE (direct kernel boot, optional),
 * VIRTSEED_MESSAGE (default `hello`), VIRTSEED_REPROVISION (default `reboot`), VIRTSEED_RUNNING (`false` defines the
 * domain without starting it).
 */
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import { BaseImage, bindings, CloudInit, NetworkAttachment, Reprovision, StoragePool, VirtualMachine } from '../../constructs';
import { basicPropsFromEnv } from '../basic/stack';

const POLICIES: Record<string, Reprovision> = {
  reboot: Reprovision.REBOOT,
  recreate: Reprovision.RECREATE,
  'next-boot': Reprovision.NEXT_BOOT,
};

const env = basicPropsFromEnv();
const policy = process.env.VIRTSEED_REPROVISION ?? 'reboot';
if (!POLICIES[policy]) throw new Error(`VIRTSEED_REPROVISION is "${policy}"; expected one of ${Object.keys(POLICIES).join(', ')}`);

const app = new App();
const stack = new TerraformStack(app, 'reprovision');
new bindings.provider.VirtseedProvider(stack, 'virtseed', { uri: env.uri });
// Its own pool rather than libvirt's `default`, which a fresh host does not have.
const pool = new StoragePool(stack, 'pool', { name: 'virtseed-reprovision', path: '/var/lib/libvirt/images/virtseed-reprovision' });
const vm = new VirtualMachine(stack, 'vm', {
  name: 'virtseed-reprovision',
  pool,
  baseImage: BaseImage.fromFile(env.image, { volumeName: 'virtseed-reprovision-base' }),
  kernel: env.kernel,
  networks: [NetworkAttachment.userMode()], // isolated: nothing leaves the host
  running: process.env.VIRTSEED_RUNNING !== 'false',
  reprovision: POLICIES[policy],
  cloudInit: CloudInit.fromConfig({
    hostname: 'virtseed-reprovision',
    cloudConfig: { runcmd: [['sh', '-c', `echo "VIRTSEED_MESSAGE ${process.env.VIRTSEED_MESSAGE ?? 'hello'}" > /dev/ttyS0`]] },
  }),
});
new TerraformOutput(stack, 'instance_id', { value: vm.instanceId });
new TerraformOutput(stack, 'reprovision_action', { value: vm.reprovisionAction });
app.synth();
