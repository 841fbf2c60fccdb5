/**
 * VirtualMachine's room to grow and what its props' changes do: `maxMemoryMiB`, `maxVcpus` and `autostart` reach
 * the domain, bad maxima fail at synth naming the prop, and every prop's doc says what changing it does in the
 * words the field table generates for its `virtseed_domain` attribute (src/fields/describe.ts), so the construct
 * docs cannot drift from the rule.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing } from 'cdktf';
import { BaseImage, CloudInit, VirtualMachine, VirtualMachineProps } from '../../../constructs';
import { changeSentence, DOMAIN_FIELDS } from '../../../src/fields';
import { byName, synth } from '../synth-helpers';

Testing.setupJest();

const base: VirtualMachineProps = {
  name: 'web',
  baseImage: BaseImage.fromFile('/images/debian.qcow2'),
  cloudInit: CloudInit.fromConfig({ hostname: 'web' }),
};

const domainOf = (props: Partial<VirtualMachineProps>) =>
  byName(
    synth((s) => new VirtualMachine(s, 'vm', { ...base, ...props })),
    'virtseed_domain',
    'web',
  ).body;

describe('VirtualMachine maxima and autostart', () => {
  test('GIVEN maxMemoryMiB, maxVcpus and autostart WHEN synthesized THEN the domain carries max_memory, max_vcpu and autostart', () => {
    expect(domainOf({ memoryMiB: 1024, maxMemoryMiB: 4096, vcpus: 2, maxVcpus: 4, autostart: true })).toMatchObject({
      memory: 1024,
      max_memory: 4096,
      vcpu: 2,
      max_vcpu: 4,
      autostart: true,
    });
  });

  test('GIVEN no maxima WHEN synthesized THEN the domain leaves them to the provider (no room to grow)', () => {
    const domain = domainOf({});
    expect(domain.max_memory).toBeUndefined();
    expect(domain.max_vcpu).toBeUndefined();
  });

  test.each<[string, Partial<VirtualMachineProps>, RegExp]>([
    ['maxMemoryMiB below memoryMiB', { memoryMiB: 2048, maxMemoryMiB: 1024 }, /^VirtualMachine\.maxMemoryMiB: .*1024.*memoryMiB \(2048\)/],
    ['maxVcpus below vcpus', { vcpus: 4, maxVcpus: 2 }, /^VirtualMachine\.maxVcpus: .*2.*vcpus \(4\)/],
  ])('GIVEN %s WHEN constructed THEN it throws naming the prop', (_, props, message) => {
    expect(() => domainOf(props)).toThrow(message);
  });
});

describe('VirtualMachine prop docs', () => {
  const source = fs.readFileSync(path.join(__dirname, '../../../constructs/src/virtual-machine.ts'), 'utf8');
  /** Each doc comment right before a `readonly <prop>?:` in VirtualMachineProps. */
  const DOC = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*readonly (\w+)\?:/g;

  test.each<[string, keyof typeof DOMAIN_FIELDS.fields]>([
    ['memoryMiB', 'memory'],
    ['maxMemoryMiB', 'max_memory'],
    ['vcpus', 'vcpu'],
    ['maxVcpus', 'max_vcpu'],
    ['firmware', 'firmware'],
    ['secureBoot', 'secure_boot'],
    ['running', 'running'],
    ['autostart', 'autostart'],
  ])('GIVEN the prop %s WHEN its doc is read THEN it says what changing %s does, as the field table words it', (prop, attribute) => {
    const docs = new Map([...source.matchAll(DOC)].map((m) => [m[2], m[1].replace(/\s*\n\s*\*\s?/g, ' ')]));
    expect(docs.get(prop)).toContain(changeSentence(DOMAIN_FIELDS.fields[attribute], DOMAIN_FIELDS.object));
  });
});
