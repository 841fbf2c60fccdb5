/**
 * Day-2 example: two running virtual machines with room to grow (`maxMemoryMiB: 1024`, `maxVcpus: 2`). Deploy it,
 * then change `VIRTSEED_WEB_MEMORY` and `VIRTSEED_DB_VCPUS` and run `npx cdktf diff day2 --skip-provider-lock`: the
 * plan says, per guest, which change is live and which guest restarts (a warning per domain, and each domain's
 * `change_impact` and `change_impacts`). Memory up to 1024 MiB changes live (the virtio balloon); a vCPU change
 * restarts a guest under TCG (`type = "qemu"`) and is live up to `maxVcpus` under KVM.
 *
 * Environment: VIRTSEED_IMAGE (required, as in examples/basic), VIRTSEED_KERNEL/INITRD/CMDLINE (direct kernel boot,
 * optional), VIRTSEED_PREFIX (the domains' and volumes' name prefix, default `virtseed-day2`), VIRTSEED_WEB_MEMORY
 * (MiB, default 512), VIRTSEED_DB_VCPUS (default 1).
 */
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import { BaseImage, bindings, CloudInit, NetworkAttachment, StoragePool, VirtualMachine } from '../../constructs';
import { basicPropsFromEnv } from '../basic/stack';

/** A whole number from the environment variable `name`, else `fallback`. */
function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} is "${raw}"; expected a whole number >= 1`);
  return n;
}

const env = basicPropsFromEnv();
const prefix = process.env.VIRTSEED_PREFIX || 'virtseed-day2';

const app = new App();
const stack = new TerraformStack(app, 'day2');
new bindings.provider.VirtseedProvider(stack, 'virtseed', { uri: env.uri });
// Its own pool rather than libvirt's `default`, which a fresh host does not have.
const pool = new StoragePool(stack, 'pool', { name: `${prefix}-pool`, path: `/var/lib/libvirt/images/${prefix}-pool` });
const baseImage = BaseImage.fromFile(env.image, { volumeName: `${prefix}-base` });
const machines = {
  web: { memoryMiB: numberFromEnv('VIRTSEED_WEB_MEMORY', 512), vcpus: 1 },
  db: { memoryMiB: 512, vcpus: numberFromEnv('VIRTSEED_DB_VCPUS', 1) },
};
for (const [role, size] of Object.entries(machines)) {
  const vm = new VirtualMachine(stack, role, {
    name: `${prefix}-${role}`,
    baseImage,
    pool,
    kernel: env.kernel,
    ...size,
    maxMemoryMiB: 1024,
    maxVcpus: 2,
    networks: [NetworkAttachment.userMode()], // isolated: nothing leaves the host
    cloudInit: CloudInit.fromConfig({ hostname: `${prefix}-${role}` }),
  });
  new TerraformOutput(stack, `${role}_change_impact`, { value: vm.changeImpact });
}
app.synth();
