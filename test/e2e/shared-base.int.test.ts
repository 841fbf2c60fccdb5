/**
 * #13 shared base images through cdktf synth, real terraform and libvirtd (domains defined, never started): five
 * VirtualMachines on one image upload it once into one base volume that backs all five root volumes; with one VM
 * left the base volume stays; destroy removes everything. Objects are named `vstest-share-*`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, TerraformStack } from 'cdktf';
import { BaseImage, bindings, NetworkAttachment, VirtualMachine } from '../../constructs';
import { cleanupByPrefix, volumeNames } from '../helpers/guest';
import { destroyAndDispose, TfWorkdir } from '../helpers/terraform';

const PREFIX = 'vstest-share-';
const MiB = 1024 * 1024;

jest.setTimeout(600_000);

/** Synthesizes `count` VirtualMachines on `image` into the work dir's main.tf.json. */
function synthVms(tf: TfWorkdir, image: string, count: number): void {
  const outdir = join(tf.dir, `cdktf.out.${count}`);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'share');
  new bindings.provider.VirtseedProvider(stack, 'virtseed', { uri: 'qemu:///system' });
  const baseImage = BaseImage.fromFile(image, { volumeName: `${PREFIX}base` });
  for (let i = 1; i <= count; i++)
    new VirtualMachine(stack, `vm${i}`, {
      name: `${PREFIX}${i}`,
      baseImage,
      running: false,
      memoryMiB: 64,
      networks: [NetworkAttachment.userMode()],
    });
  app.synth();
  copyFileSync(join(outdir, 'stacks', 'share', 'cdk.tf.json'), join(tf.dir, 'main.tf.json'));
}

function backingPath(volume: string): string {
  const xml = execFileSync('virsh', ['-c', 'qemu:///system', 'vol-dumpxml', '--pool', 'default', volume], { encoding: 'utf8' });
  return /<backingStore>\s*<path>([^<]+)<\/path>/.exec(xml)?.[1] ?? '(none)';
}

describe('shared base image through terraform', () => {
  let tf: TfWorkdir;

  beforeAll(() => {
    cleanupByPrefix(PREFIX);
    tf = new TfWorkdir('share', { TF_LOG_PROVIDER: 'INFO' });
  });

  afterAll(() => destroyAndDispose(tf, () => cleanupByPrefix(PREFIX)));

  test('GIVEN 5 VirtualMachines on one image WHEN deployed THEN the image is uploaded once into one base volume backing all 5 roots', () => {
    const image = join(tf.dir, 'image.raw');
    writeFileSync(image, Buffer.alloc(8 * MiB, 0x5a));
    synthVms(tf, image, 5);
    tf.init();
    const out = tf.apply();
    expect(out).toMatch(/Apply complete! Resources: 11 added/);
    const uploads = [...out.matchAll(/volume default\/(\S+): uploaded (\d+) of/g)].filter((m) => m[2] === String(8 * MiB)).map((m) => m[1]);
    expect(uploads).toEqual([`${PREFIX}base`]);
    expect(volumeNames(PREFIX)).toEqual(
      [1, 2, 3, 4, 5]
        .map((i) => `${PREFIX}${i}-root`)
        .concat(`${PREFIX}base`)
        .sort(),
    );
    const basePath = execFileSync('virsh', ['-c', 'qemu:///system', 'vol-path', '--pool', 'default', `${PREFIX}base`], {
      encoding: 'utf8',
    }).trim();
    for (let i = 1; i <= 5; i++) expect(backingPath(`${PREFIX}${i}-root`)).toBe(basePath);
  });

  test('GIVEN 4 of the 5 removed WHEN deployed THEN their roots go and the base volume stays for the last one', () => {
    synthVms(tf, join(tf.dir, 'image.raw'), 1);
    const out = tf.apply();
    expect(out).toMatch(/Apply complete! Resources: 0 added, 0 changed, 8 destroyed/);
    expect(volumeNames(PREFIX)).toEqual([`${PREFIX}1-root`, `${PREFIX}base`]);
  });
});
