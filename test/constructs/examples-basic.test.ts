// The basic example (examples/basic): its inputs from the environment, and a snapshot of its whole synth.
import { Testing } from 'cdktf';
import { BasicStack, basicPropsFromEnv, DEFAULT_CMDLINE } from '../../examples/basic/stack';

describe('examples/basic', () => {
  test('GIVEN no VIRTSEED_IMAGE WHEN the inputs are read THEN it throws saying how to get an image', () => {
    expect(() => basicPropsFromEnv({})).toThrow(/VIRTSEED_IMAGE is not set.*scripts\/example-env\.sh/);
  });

  test('GIVEN VIRTSEED_KERNEL without a cmdline WHEN the inputs are read THEN direct kernel boot uses the default cmdline', () => {
    const props = basicPropsFromEnv({ VIRTSEED_IMAGE: '/i.qcow2', VIRTSEED_KERNEL: '/k', VIRTSEED_INITRD: '/r' });
    expect(props).toEqual({ uri: 'qemu:///system', image: '/i.qcow2', kernel: { kernel: '/k', initrd: '/r', cmdline: DEFAULT_CMDLINE } });
  });

  test('GIVEN VIRTSEED_FIRMWARE=efi WHEN the inputs are read THEN the machine boots under UEFI', () => {
    expect(basicPropsFromEnv({ VIRTSEED_IMAGE: '/i.qcow2', VIRTSEED_FIRMWARE: 'efi' })).toEqual({
      uri: 'qemu:///system',
      image: '/i.qcow2',
      firmware: 'efi',
    });
  });

  test('GIVEN VIRTSEED_URI WHEN the inputs are read THEN the provider connects there', () => {
    expect(basicPropsFromEnv({ VIRTSEED_IMAGE: '/i.qcow2', VIRTSEED_URI: 'qemu+ssh://h/system' }).uri).toBe('qemu+ssh://h/system');
  });

  test('GIVEN fixed inputs WHEN the whole example is synthesized THEN it matches the snapshot (the image boots through its own boot loader)', () => {
    const app = Testing.app();
    const stack = new BasicStack(app, 'basic', { uri: 'qemu:///system', image: '/var/cache/virtseed/images/test/disk.qcow2' });
    expect(JSON.parse(Testing.synth(stack))).toMatchSnapshot();
  });
});
