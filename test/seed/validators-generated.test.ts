import * as fs from 'node:fs';
import Ajv from 'ajv';
import { AJV_OPTIONS, OUTPUT, SCHEMA_FILES, validatorsSource } from '../../scripts/generate-seed-validators';
import * as generated from '../../src/seed/schemas/validators.generated';
import { schemaDiagnostics } from '../../src/seed/private/schema';

const SCHEMA_DIR = `${__dirname}/../../src/seed/schemas`;
const schema = (name: string) => JSON.parse(fs.readFileSync(`${SCHEMA_DIR}/${SCHEMA_FILES[name]}`, 'utf8'));

describe('precompiled seed schema validators', () => {
  it('GIVEN the current schema files WHEN the generator runs THEN the committed validators are what it produces (else run: npx tsx scripts/generate-seed-validators.ts)', () => {
    expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(validatorsSource());
  });

  // cloud-config rows removed (#9): cloud-config is cloud-init's own draft-04 schema, compiled at run time by
  // src/seed/private/schema.ts (its `deprecated` annotations cannot be precompiled); the network schemas still are.
  const cases: [string, string, unknown][] = [
    ['network-config-v2', 'networkConfigV2', { version: 2, ethernets: { eth0: { dhcp4: 'maybe', addresses: [1] } } }],
    ['network-config-v1', 'networkConfigV1', { version: 1, config: [{ type: 'physical' }] }],
  ];
  it.each(cases)('GIVEN %s input WHEN validated by the generated code and by ajv.compile THEN the verdict and errors are the same', (name, id, value) => {
    const compiled = new Ajv(AJV_OPTIONS).compile(schema(name));
    const standalone = (generated as any)[id] as typeof compiled;
    expect(standalone(value)).toBe(compiled(value));
    expect(standalone.errors ?? null).toEqual(compiled.errors ?? null);
  });

  it('GIVEN a cloud-config of the wrong shape WHEN diagnosed THEN the precompiled path still names the field', () => {
    const d = schemaDiagnostics('cloud-config', { packages: 'nginx' }, ['cloud_config'], 'Invalid cloud-config');
    expect(d).toEqual([expect.objectContaining({ path: ['cloud_config', 'packages'], severity: 'error' })]);
  });
});
