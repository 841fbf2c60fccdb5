// Test helper: the `virtseed_domain` a VirtualMachine synthesizes, from the least props that make one.
import { BaseImage, CloudInit, VirtualMachine, type VirtualMachineProps } from '../../constructs';
import { byName, synth } from './synth-helpers';

/**
 * The synthesized `virtseed_domain` body of a VirtualMachine `name` (base image /images/debian.qcow2, cloud-init
 * with hostname `name`), `props` laid over those.
 */
export function vmDomain(name: string, props: Partial<VirtualMachineProps>): Record<string, unknown> {
  const base: VirtualMachineProps = {
    name,
    baseImage: BaseImage.fromFile('/images/debian.qcow2'),
    cloudInit: CloudInit.fromConfig({ hostname: name }),
  };
  const out = synth((s) => new VirtualMachine(s, 'vm', { ...base, ...props }));
  return byName(out, 'virtseed_domain', name).body;
}
