/**
 * VirtualMachine's room to grow and what its props' changes do: `maxMemoryMiB`, `maxVcpus` and `autostart` reach
 * the domain, bad maxima fail at synth naming the prop, and every prop's doc says what changing it does in the
 * words the field table generates for its `virtseed_domain` attribute (src/fields/describe.ts) and states the
 * table's default, so the construct docs cannot drift from the rules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Testing } from 'cdktf';
import { Firmware, LifecycleAction, Reprovision, SnapshotBefore, VideoModel, VirtualMachineProps, WaitFor } from '../../../constructs';
import { changeSentence, DOMAIN_FIELDS, isBlock, nameIn, type AttributeField, type Field, type Scalar } from '../../../src/fields';
import { vmDomain } from '../vm-domain';

Testing.setupJest();

const domainOf = (props: Partial<VirtualMachineProps>) => vmDomain('web', props);

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
  const source = fs.readFileSync(path.join(__dirname, '../../../constructs/src/virtual-machine-props.ts'), 'utf8');
  const props = source.slice(source.indexOf('export interface VirtualMachineProps'), source.indexOf('export class VirtualMachine'));
  /** Each doc comment right before a `readonly <prop>?: <type>` in VirtualMachineProps, lines joined. */
  const DOC = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*readonly (\w+)\??: (\w+)/g;
  const found = [...props.matchAll(DOC)];
  const docs = new Map(found.map((m) => [m[2], m[1].replace(/\s*\n\s*\*\s?/g, ' ').trim()]));
  const types = new Map(found.map((m) => [m[2], m[3]]));
  /** Every `virtseed_domain` attribute that is a VirtualMachine prop (its construct spelling in the field table). */
  const attributes = Object.entries(DOMAIN_FIELDS.fields)
    .filter(([, f]) => !isBlock(f))
    .map(([name, f]) => [nameIn(name, f, 'prop') as string, name as keyof typeof DOMAIN_FIELDS.fields] as const)
    .filter(([prop]) => docs.has(prop));
  /** How a construct doc writes a table default: a member of the prop's enum type, else the value. */
  const ENUMS: Record<string, Record<string, string>> = { Firmware, LifecycleAction, Reprovision, SnapshotBefore, VideoModel, WaitFor };
  const shown = (v: Scalar, type: string | undefined) =>
    Object.entries(ENUMS[type ?? ''] ?? {})
      .find(([, x]) => x === v)?.[0]
      ?.replace(/^/, `${type}.`) ?? String(v);

  test('GIVEN the props WHEN matched to the field table THEN the domain attributes with a prop are all there', () => {
    expect(attributes.map(([prop]) => prop).sort()).toEqual(
      [
        'autostart',
        'description',
        'firmware',
        'kernel',
        'maxMemoryMiB',
        'maxVcpus',
        'memoryMiB',
        'metadata',
        'name',
        'onCrash',
        'onPoweroff',
        'onReboot',
        'qemuAgent',
        'reprovision',
        'running',
        'secureBoot',
        'snapshotBefore',
        'snapshotKeep',
        'title',
        'vcpus',
        'video',
        'waitFor',
        'waitTimeoutSeconds',
      ].sort(),
    );
  });

  test.each(attributes)(
    'GIVEN the prop %s WHEN its doc is read THEN it says what changing %s does, as the field table words it',
    (prop, attribute) => {
      expect(docs.get(prop)).toContain(changeSentence(DOMAIN_FIELDS.fields[attribute], DOMAIN_FIELDS.object));
    },
  );

  test.each(attributes)('GIVEN the prop %s WHEN its doc is read THEN its @default is the field table default of %s', (prop, attribute) => {
    const field = DOMAIN_FIELDS.fields[attribute] as Field as AttributeField;
    const stated = /@default (.*)$/.exec(docs.get(prop) ?? '')?.[1];
    const table = field.propDefault ?? field.default;
    if (table === undefined) expect(stated ?? '- ').toMatch(/^- /);
    else if (typeof table === 'object') expect(stated).toMatch(/^- /);
    else expect(stated).toBe(shown(table, types.get(prop)));
  });
});
