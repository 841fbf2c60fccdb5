import { TerraformOutput, TerraformStack, Testing } from 'cdktf';
import { deriveInstanceId } from '../../../src/seed';
import {
  BaseImage,
  bindings,
  CloudInit,
  Firmware,
  Network,
  NetworkAttachment,
  Reprovision,
  Size,
  SnapshotBefore,
  VirtualMachine,
  VirtualMachineProps,
  WaitFor,
} from '../../../constructs';
import { byName, resources, synth, Synth } from '../synth-helpers';

Testing.setupJest();

const cloudInit = CloudInit.fromConfig({ hostname: 'web', cloudConfig: { runcmd: ['true'] } });
const base: VirtualMachineProps = { name: 'web', baseImage: BaseImage.fromFile('/images/debian.qcow2'), cloudInit };

function vm(props: Partial<VirtualMachineProps> = {}): { out: Synth; machine: VirtualMachine } {
  let machine!: VirtualMachine;
  const out = synth((s) => {
    machine = new VirtualMachine(s, 'vm', { ...base, ...props });
  });
  return { out, machine };
}

/** The one upload volume (a virtseed_volume with a source) of a synth. */
function baseOf(out: Synth): { address: string; body: Record<string, unknown> } {
  const found = resources(out, 'virtseed_volume').filter(([, b]) => b.source !== undefined);
  expect(found).toHaveLength(1);
  return { address: `virtseed_volume.${found[0][0]}`, body: found[0][1] };
}

describe('VirtualMachine volumes', () => {
  test('GIVEN an image file WHEN synthesized THEN a base volume <file stem>-<12 hex> uploads it', () => {
    const { out } = vm();
    expect(baseOf(out).body).toMatchObject({ pool: 'default', source: '/images/debian.qcow2', format: 'qcow2' });
    expect(baseOf(out).body.name).toMatch(/^debian-[0-9a-f]{12}$/);
  });

  test('GIVEN the same stack synthesized twice WHEN compared THEN the base volume name is the same (deterministic)', () => {
    expect(baseOf(vm().out).body.name).toBe(baseOf(vm().out).body.name);
  });

  test('GIVEN a disk size WHEN synthesized THEN the root volume <name>-root is a qcow2 overlay on the base with that capacity', () => {
    const { out } = vm({ diskSize: Size.gibibytes(4) });
    const baseAddress = baseOf(out).address;
    expect(byName(out, 'virtseed_volume', 'web-root').body).toMatchObject({
      format: 'qcow2',
      backing_volume: `\${${baseAddress}.id}`,
      capacity: 4 * 1024 ** 3,
    });
  });

  test('GIVEN an existing volume as image WHEN synthesized THEN no base volume is made and the root is backed by it', () => {
    const { out } = vm({ baseImage: BaseImage.fromVolume('/var/lib/libvirt/images/golden.qcow2') });
    expect(resources(out, 'virtseed_volume').map(([, b]) => b.name)).toEqual(['web-root']);
    expect(byName(out, 'virtseed_volume', 'web-root').body.backing_volume).toBe('/var/lib/libvirt/images/golden.qcow2');
  });

  test('GIVEN a .raw image file WHEN synthesized THEN the base volume format is raw', () => {
    const { out } = vm({ baseImage: BaseImage.fromFile('/images/disk.raw') });
    expect(baseOf(out).body.format).toBe('raw');
  });

  test('GIVEN a sha256 and a volume name WHEN synthesized THEN the base volume carries both', () => {
    const sha256 = 'ab'.repeat(32);
    const { out } = vm({ baseImage: BaseImage.fromUrl('https://example.org/debian.qcow2?x=1', { sha256, volumeName: 'web-base' }) });
    expect(baseOf(out).body).toMatchObject({ name: 'web-base', sha256, source: 'https://example.org/debian.qcow2?x=1' });
  });

  test('GIVEN a sha256 of 10 digits WHEN synthesized THEN it fails naming Volume.sha256', () => {
    expect(() => vm({ baseImage: BaseImage.fromFile('/i.qcow2', { sha256: '0123456789' }) })).toThrow(
      "Volume.sha256: invalid value '0123456789'; expected 64 hex digits (the output of sha256sum)",
    );
  });
});

describe('VirtualMachine shared base images', () => {
  const image = BaseImage.fromFile('/images/debian.qcow2');
  const five = (s: TerraformStack, extra: Partial<VirtualMachineProps> = {}) => {
    for (let i = 1; i <= 5; i++) new VirtualMachine(s, `vm${i}`, { ...base, name: `web${i}`, baseImage: image, ...extra });
  };

  test('GIVEN 5 virtual machines on one image in one pool WHEN synthesized THEN one base volume uploads it and every root is backed by it', () => {
    const out = synth((s) => five(s));
    const shared = baseOf(out);
    for (let i = 1; i <= 5; i++)
      expect(byName(out, 'virtseed_volume', `web${i}-root`).body.backing_volume).toBe(`\${${shared.address}.id}`);
  });

  test('GIVEN the same image in two pools WHEN synthesized THEN each pool gets its own base volume', () => {
    const out = synth((s) => {
      new VirtualMachine(s, 'a', { ...base, name: 'a', baseImage: image });
      new VirtualMachine(s, 'b', { ...base, name: 'b', baseImage: image, pool: 'fast' });
    });
    const uploads = resources(out, 'virtseed_volume')
      .filter(([, b]) => b.source !== undefined)
      .map(([, b]) => b.pool);
    expect(uploads.sort()).toEqual(['default', 'fast']);
  });

  test('GIVEN no virtual machine uses the image any more WHEN synthesized THEN no base volume remains in the configuration', () => {
    const out = synth((s) => new VirtualMachine(s, 'a', { ...base, name: 'a', baseImage: BaseImage.fromVolume('/golden.qcow2') }));
    expect(resources(out, 'virtseed_volume').filter(([, b]) => b.source !== undefined)).toEqual([]);
  });

  test('GIVEN two images given the same volumeName WHEN synthesized THEN it fails naming BaseImage.volumeName', () => {
    expect(() =>
      synth((s) => {
        new VirtualMachine(s, 'a', { ...base, name: 'a', baseImage: BaseImage.fromFile('/one.qcow2', { volumeName: 'img' }) });
        new VirtualMachine(s, 'b', { ...base, name: 'b', baseImage: BaseImage.fromFile('/two.qcow2', { volumeName: 'img' }) });
      }),
    ).toThrow(
      "BaseImage.volumeName: invalid value 'img'; expected a name no other base image of this stack uses (each image needs its own volume)",
    );
  });
});

describe('VirtualMachine domain', () => {
  test('GIVEN defaults WHEN synthesized THEN the domain has 512 MiB, 1 vCPU, a NIC on the libvirt network "default", reboot policy, running', () => {
    const out = Testing.synthScope((s) => new VirtualMachine(s, 'vm', base));
    expect(out).toHaveResourceWithProperties(bindings.domain.Domain, {
      name: 'web',
      memory: 512,
      vcpu: 1,
      reprovision: 'reboot',
      running: true,
      network_interface: [{ network: 'default', model: 'virtio' }],
    });
  });

  test('GIVEN NetworkAttachment.userMode() WHEN synthesized THEN the NIC is restricted QEMU user networking', () => {
    const { out } = vm({ networks: [NetworkAttachment.userMode()] });
    expect(byName(out, 'virtseed_domain', 'web').body.network_interface).toEqual([{ user: true, restrict: true, model: 'virtio' }]);
  });

  test('GIVEN a Network WHEN the VM is attached to it THEN the NIC names the network resource id, with the MAC given', () => {
    let net!: Network;
    const out = synth((s) => {
      net = new Network(s, 'lab', {
        name: 'lab',
        subnets: [{ address: '10.10.0.1/24', dhcpRanges: [{ start: '10.10.0.100', end: '10.10.0.199' }] }],
      });
      new VirtualMachine(s, 'vm', { ...base, networks: [net.attach({ mac: '52:54:00:00:00:10' })] });
    });
    const address = byName(out, 'virtseed_network', 'lab').address;
    expect(byName(out, 'virtseed_domain', 'web').body.network_interface).toEqual([
      { network: `\${${address}.id}`, mac: '52:54:00:00:00:10', model: 'virtio' },
    ]);
  });

  test('GIVEN qemuAgent WHEN synthesized THEN the domain asks for the agent channel', () => {
    const { out } = vm({ qemuAgent: true });
    expect(byName(out, 'virtseed_domain', 'web').body.qemu_agent).toBe(true);
  });

  test("GIVEN a VM WHEN its addresses are output THEN the outputs reference the domain's ip_address and addresses", () => {
    const out = synth((s) => {
      const machine = new VirtualMachine(s, 'vm', base);
      new TerraformOutput(s, 'ip', { value: machine.ipAddress });
      new TerraformOutput(s, 'all', { value: machine.addresses });
    });
    const domain = byName(out, 'virtseed_domain', 'web').address;
    expect(out.output).toMatchObject({ ip: { value: `\${${domain}.ip_address}` }, all: { value: `\${${domain}.addresses}` } });
  });

  test('GIVEN WaitFor.LEASE with only user-mode NICs WHEN constructed THEN it throws naming waitFor', () => {
    expect(() => vm({ waitFor: WaitFor.LEASE, networks: [NetworkAttachment.userMode()] })).toThrow(
      /^VirtualMachine\.waitFor: invalid value 'lease'; expected WaitFor\.LEASE only with an interface on a libvirt network/,
    );
  });

  test('GIVEN a cloud-init seed WHEN synthesized THEN the domain uses the root disk, the seed and the seed instance_id', () => {
    const { out } = vm();
    const root = byName(out, 'virtseed_volume', 'web-root').address;
    const seed = byName(out, 'virtseed_cloudinit_seed', 'web-seed').address;
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({
      disk: [{ volume_id: `\${${root}.id}` }],
      cloudinit_seed_id: `\${${seed}.id}`,
      instance_id: `\${${seed}.instance_id}`,
    });
  });

  test('GIVEN direct kernel boot, sizes and a libvirt network WHEN synthesized THEN the domain carries them', () => {
    const { out } = vm({
      memoryMiB: 1024,
      vcpus: 2,
      kernel: { kernel: '/k/vmlinuz', initrd: '/k/initrd.img', cmdline: 'root=/dev/vda' },
      networks: [NetworkAttachment.libvirtNetwork('isolated')],
      running: false,
    });
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({
      memory: 1024,
      vcpu: 2,
      kernel: '/k/vmlinuz',
      initrd: '/k/initrd.img',
      cmdline: 'root=/dev/vda',
      network_interface: [{ network: 'isolated', model: 'virtio' }],
      running: false,
    });
  });

  test('GIVEN plain cloud-init content WHEN constructed THEN instanceId equals deriveInstanceId of the same spec', () => {
    const { machine } = vm();
    expect(machine.instanceId).toBe(deriveInstanceId({ hostname: 'web', cloud_config: { runcmd: ['true'] } }));
  });

  test('GIVEN the domain WHEN constructed THEN consoleLog and uuid refer to its attributes', () => {
    let machine!: VirtualMachine;
    const out = synth((s) => {
      machine = new VirtualMachine(s, 'vm', base);
      new TerraformOutput(s, 'log', { value: machine.consoleLog });
    });
    expect(out.output?.log.value).toBe(`\${${byName(out, 'virtseed_domain', 'web').address}.console_log}`);
  });
});

describe('VirtualMachine re-provisioning', () => {
  test('GIVEN the domain WHEN constructed THEN reprovisionAction and previousInstanceId refer to its planned decision', () => {
    let machine!: VirtualMachine;
    const out = synth((s) => {
      machine = new VirtualMachine(s, 'vm', base);
      new TerraformOutput(s, 'action', { value: machine.reprovisionAction });
      new TerraformOutput(s, 'previous', { value: machine.previousInstanceId });
    });
    const domain = byName(out, 'virtseed_domain', 'web').address;
    expect(out.output?.action.value).toBe(`\${${domain}.reprovision_action}`);
    expect(out.output?.previous.value).toBe(`\${${domain}.previous_instance_id}`);
  });

  test('GIVEN RECREATE WHEN synthesized THEN the root volume is replaced when the seed instance_id changes', () => {
    const { out } = vm({ reprovision: Reprovision.RECREATE });
    const seed = byName(out, 'virtseed_cloudinit_seed', 'web-seed').address;
    expect(byName(out, 'virtseed_volume', 'web-root').body.lifecycle).toEqual({ replace_triggered_by: [`${seed}.instance_id`] });
    expect(byName(out, 'virtseed_domain', 'web').body.reprovision).toBe('recreate');
  });

  test('GIVEN REBOOT WHEN synthesized THEN the root volume has no lifecycle rule', () => {
    const { out } = vm({ reprovision: Reprovision.REBOOT });
    expect(byName(out, 'virtseed_volume', 'web-root').body.lifecycle).toBeUndefined();
  });

  test('GIVEN NEXT_BOOT WHEN synthesized THEN the domain policy is next-boot', () => {
    const { out } = vm({ reprovision: Reprovision.NEXT_BOOT });
    expect(byName(out, 'virtseed_domain', 'web').body.reprovision).toBe('next-boot');
  });
});

describe('VirtualMachine with Ignition', () => {
  const ignition = { config: '{"ignition":{"version":"3.3.0"}}' };

  test('GIVEN ignition props WHEN synthesized THEN a <name>-ignition config is wired to the domain and no seed is made', () => {
    const { out, machine } = vm({ cloudInit: undefined, ignition });
    const ign = byName(out, 'virtseed_ignition', 'web-ignition').address;
    expect(resources(out, 'virtseed_cloudinit_seed')).toEqual([]);
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({
      ignition_id: `\${${ign}.id}`,
      instance_id: `\${${ign}.instance_id}`,
    });
    expect(machine.instanceId).toMatch(/^ign-[0-9a-f]{16}$/);
  });

  test('GIVEN ignition and RECREATE WHEN synthesized THEN the root volume is replaced when the ignition instance_id changes', () => {
    const { out } = vm({ cloudInit: undefined, ignition, reprovision: Reprovision.RECREATE });
    const ign = byName(out, 'virtseed_ignition', 'web-ignition').address;
    expect(byName(out, 'virtseed_volume', 'web-root').body.lifecycle).toEqual({ replace_triggered_by: [`${ign}.instance_id`] });
  });
});

describe('VirtualMachine props validation', () => {
  test('GIVEN cloudInit and ignition WHEN constructed THEN it throws naming both props', () => {
    expect(() => vm({ ignition: { config: '{"ignition":{"version":"3.3.0"}}' } })).toThrow(
      /VirtualMachine\.cloudInit and VirtualMachine\.ignition were both given/,
    );
  });

  test('GIVEN a name with a space WHEN constructed THEN it throws naming VirtualMachine.name', () => {
    expect(() => vm({ name: 'web server' })).toThrow(/VirtualMachine\.name: invalid name 'web server'; expected/);
  });

  test('GIVEN 16 MiB of memory WHEN constructed THEN it throws naming VirtualMachine.memoryMiB and the minimum', () => {
    expect(() => vm({ memoryMiB: 16 })).toThrow(/VirtualMachine\.memoryMiB: invalid value 16; expected a whole number of MiB >= 64/);
  });

  test('GIVEN 0 vCPUs WHEN constructed THEN it throws naming VirtualMachine.vcpus', () => {
    expect(() => vm({ vcpus: 0 })).toThrow(/VirtualMachine\.vcpus/);
  });

  test('GIVEN an unknown reprovision policy WHEN constructed THEN it throws naming VirtualMachine.reprovision', () => {
    expect(() => vm({ reprovision: 'reset' as Reprovision })).toThrow(/VirtualMachine\.reprovision: invalid value 'reset'/);
  });
});

describe('VirtualMachine firmware', () => {
  test('GIVEN no firmware WHEN synthesized THEN firmware and secure_boot are left to the provider defaults (bios, false)', () => {
    const body = byName(vm().out, 'virtseed_domain', 'web').body;
    expect([body.firmware, body.secure_boot]).toEqual([undefined, undefined]);
  });

  test('GIVEN Firmware.EFI with secure boot WHEN synthesized THEN the domain carries firmware efi and secure_boot', () => {
    const { out } = vm({ firmware: Firmware.EFI, secureBoot: true });
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({ firmware: 'efi', secure_boot: true });
  });

  test('GIVEN secure boot without Firmware.EFI WHEN constructed THEN it throws naming VirtualMachine.secureBoot', () => {
    expect(() => vm({ secureBoot: true })).toThrow(
      /VirtualMachine\.secureBoot: invalid value true; expected secureBoot only with firmware: Firmware\.EFI/,
    );
  });

  test('GIVEN an unknown firmware WHEN constructed THEN it throws naming VirtualMachine.firmware', () => {
    expect(() => vm({ firmware: 'uefi' as Firmware })).toThrow(
      /VirtualMachine\.firmware: invalid value 'uefi'; expected one of Firmware\.BIOS, Firmware\.EFI/,
    );
  });
});

describe('VirtualMachine waitFor', () => {
  test('GIVEN no waitFor WHEN synthesized THEN wait_for is left to the provider default (none)', () => {
    const { out, machine } = vm();
    expect(byName(out, 'virtseed_domain', 'web').body.wait_for).toBeUndefined();
    expect(machine.waitFor).toBe(WaitFor.NONE);
  });

  test('GIVEN WaitFor.CLOUD_INIT and a timeout WHEN synthesized THEN the domain carries wait_for and wait_timeout', () => {
    const { out, machine } = vm({ waitFor: WaitFor.CLOUD_INIT, waitTimeoutSeconds: 300 });
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({ wait_for: 'cloud-init', wait_timeout: 300 });
    expect(machine.waitFor).toBe(WaitFor.CLOUD_INIT);
  });

  test('GIVEN WaitFor.CLOUD_INIT without cloudInit WHEN constructed THEN it throws naming VirtualMachine.waitFor', () => {
    expect(() => vm({ cloudInit: undefined, waitFor: WaitFor.CLOUD_INIT })).toThrow(
      /VirtualMachine\.waitFor: invalid value 'cloud-init'; expected WaitFor\.CLOUD_INIT only with cloudInit/,
    );
  });

  test('GIVEN WaitFor.IGNITION without ignition WHEN constructed THEN it throws naming VirtualMachine.waitFor', () => {
    expect(() => vm({ waitFor: WaitFor.IGNITION })).toThrow(/VirtualMachine\.waitFor: invalid value 'ignition'/);
  });

  test('GIVEN a zero timeout WHEN constructed THEN it throws naming VirtualMachine.waitTimeoutSeconds', () => {
    expect(() => vm({ waitFor: WaitFor.CLOUD_INIT, waitTimeoutSeconds: 0 })).toThrow(
      /VirtualMachine\.waitTimeoutSeconds: invalid value 0; expected seconds > 0/,
    );
  });
});

describe('VirtualMachine snapshotBefore', () => {
  test('GIVEN SnapshotBefore.DISRUPTIVE and a keep of 2 WHEN synthesized THEN the domain carries snapshot_before and snapshot_keep', () => {
    const { out } = vm({ waitFor: WaitFor.CLOUD_INIT, snapshotBefore: SnapshotBefore.DISRUPTIVE, snapshotKeep: 2 });
    expect(byName(out, 'virtseed_domain', 'web').body).toMatchObject({ snapshot_before: 'disruptive', snapshot_keep: 2 });
  });

  test('GIVEN no snapshotBefore WHEN synthesized THEN both are left to the provider defaults', () => {
    const body = byName(vm().out, 'virtseed_domain', 'web').body;
    expect([body.snapshot_before, body.snapshot_keep]).toEqual([undefined, undefined]);
  });

  test('GIVEN a negative snapshotKeep WHEN constructed THEN it throws naming VirtualMachine.snapshotKeep', () => {
    expect(() => vm({ snapshotBefore: SnapshotBefore.ALWAYS, snapshotKeep: -1 })).toThrow(/VirtualMachine\.snapshotKeep: invalid value -1/);
  });
});
