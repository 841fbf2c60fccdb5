import * as fs from 'node:fs';
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import {
  AJV_OPTIONS,
  CLOUD_CONFIG_FILE,
  CLOUD_CONFIG_OUTPUT,
  cloudConfigModules,
  cloudConfigValidatorsSource,
  OUTPUT,
  SCHEMA_FILES,
  validatorsSource,
} from '../../scripts/generate-seed-validators';
import * as generated from '../../src/seed/schemas/validators.generated';
import * as generatedCloudConfig from '../../src/seed/schemas/cloud-config.validators.generated';
import { cloudConfigSchemaDiagnostics, schemaDiagnostics } from '../../src/seed/checks/schema';
import { parseYaml } from '../../src/seed/private/yaml';

const SCHEMA_DIR = `${__dirname}/../../src/seed/schemas`;
const schema = (name: string) => JSON.parse(fs.readFileSync(`${SCHEMA_DIR}/${SCHEMA_FILES[name]}`, 'utf8'));

describe('precompiled seed schema validators', () => {
  it('GIVEN the current schema files WHEN the generator runs THEN the committed validators are what it produces (else run: npx tsx scripts/generate-seed-validators.ts)', () => {
    expect(fs.readFileSync(OUTPUT, 'utf8')).toBe(validatorsSource());
    expect(fs.readFileSync(CLOUD_CONFIG_OUTPUT, 'utf8')).toBe(cloudConfigValidatorsSource());
  });

  const cases: [string, 'networkConfigV2' | 'networkConfigV1', unknown][] = [
    ['network-config-v2', 'networkConfigV2', { version: 2, ethernets: { eth0: { dhcp4: 'maybe', addresses: [1] } } }],
    ['network-config-v1', 'networkConfigV1', { version: 1, config: [{ type: 'physical' }] }],
  ];
  it.each(cases)(
    'GIVEN %s input WHEN validated by the generated code and by ajv.compile THEN the verdict and errors are the same',
    (name, id, value) => {
      const compiled = new Ajv(AJV_OPTIONS).compile(schema(name));
      const standalone = generated[id] as typeof compiled;
      expect(standalone(value)).toBe(compiled(value));
      expect(standalone.errors ?? null).toEqual(compiled.errors ?? null);
    },
  );

  it('GIVEN a cloud-config of the wrong shape WHEN diagnosed THEN the precompiled path still names the field', () => {
    const d = schemaDiagnostics('cloud-config', { packages: 'nginx' }, ['cloud_config'], 'Invalid cloud-config');
    expect(d).toEqual([expect.objectContaining({ path: ['cloud_config', 'packages'], severity: 'error' })]);
  });

  // cloud-config: the generated module validators (with the code-generating `deprecated` keyword) against a reference
  // compiled at run time the way src/seed/checks/schema.ts did before they were precompiled: the whole schema, and a
  // `validate`-style `deprecated` keyword that compiles the sibling keywords on their own to decide whether a use
  // counts. Same verdict, same errors (instance path, keyword, params, message) and the same deprecated uses.
  const cloudConfigSchema = JSON.parse(fs.readFileSync(`${SCHEMA_DIR}/${CLOUD_CONFIG_FILE}`, 'utf8')) as object;
  function reference(): (value: unknown) => { valid: boolean; errors: unknown[]; deprecated: string[] } {
    let uses: string[] = [];
    const ajv = new AjvDraft04({ allErrors: true, strict: false, validateSchema: false });
    addFormats(ajv, ['date']);
    ajv.addFormat('hostname', true).addFormat('uri', true);
    const siblings = new WeakMap<object, ValidateFunction>();
    ajv.addKeyword({
      keyword: 'deprecated',
      schemaType: 'boolean',
      errors: false,
      validate: (isDeprecated: boolean, data: unknown, parent?: Record<string, unknown>, cxt?: { instancePath: string }) => {
        if (!isDeprecated || !parent || !cxt) return true;
        let fn = siblings.get(parent);
        if (!fn) {
          const { deprecated: _d, description: _e, ...rest } = parent;
          fn = ajv.compile(rest);
          siblings.set(parent, fn);
        }
        if (fn(data)) uses.push(`${cxt.instancePath} ${parent.description ?? ''}`);
        return true;
      },
    });
    const whole = ajv.compile(cloudConfigSchema);
    return (value) => {
      uses = [];
      const valid = whole(value) as boolean;
      return { valid, errors: (whole.errors ?? []).map(comparable), deprecated: uses };
    };
  }
  const comparable = (e: { instancePath: string; keyword: string; params: unknown; message?: string }) => ({
    instancePath: e.instancePath,
    keyword: e.keyword,
    params: e.params,
    message: e.message,
  });
  function viaGenerated(value: unknown): { valid: boolean; errors: unknown[]; deprecated: string[] } {
    const context = { deprecated: [] as { instancePath: string; description?: string }[] };
    const errors: unknown[] = [];
    const modules = (generatedCloudConfig as unknown as { modules: Record<string, ValidateFunction> }).modules;
    for (const name of cloudConfigModules(cloudConfigSchema)) {
      const fn = modules[name];
      if (!fn.call(context, value)) errors.push(...(fn.errors ?? []).map(comparable));
    }
    return { valid: errors.length === 0, errors, deprecated: context.deprecated.map((d) => `${d.instancePath} ${d.description ?? ''}`) };
  }
  const yaml = (text: string) => parseYaml(text).value;
  const cloudConfigCases: [string, unknown][] = [
    [
      'a typical config',
      yaml(
        'hostname: web1\npackages: [nginx, curl]\nruncmd:\n  - [ls, /]\n  - echo hi\nusers:\n  - default\n  - name: alice\n    sudo: "ALL=(ALL) NOPASSWD:ALL"\n    groups: [adm]\n    lock_passwd: true\n    expiredate: "2030-01-01"',
      ),
    ],
    [
      'write_files, mounts, ntp, growpart, power_state',
      yaml(
        'write_files:\n  - path: /etc/a\n    content: x\n    permissions: "0644"\nmounts:\n  - [vdb, /data, auto, "defaults,nofail", "0", "2"]\nntp:\n  enabled: true\n  servers: [ntp.example.com]\ngrowpart:\n  mode: auto\n  devices: [/]\npower_state:\n  mode: reboot\n  delay: now',
      ),
    ],
    [
      'wrong shapes',
      yaml('packages: nginx\nruncmd: 5\nssh_pwauth: [1]\ntimezone: 5\nhostname: [a]\nbootcmd: {a: b}\npackage_update: "true"'),
    ],
    [
      'bad users and files',
      yaml(
        'users:\n  - gecos: nobody\n  - name: a\n    expiredate: soon\n    inactive: true\n    shel: /bin/sh\n    lock_passwd: "yes"\nwrite_files:\n  - content: x\n  - path: /a\n    permissions: 0644\n    encoding: rot13',
      ),
    ],
    ['bad enums', yaml('power_state:\n  mode: explode\n  delay: soon\ngrowpart:\n  mode: sometimes\nntp:\n  enabled: "yes"')],
    [
      'deprecated keys',
      yaml(
        'users:\n  - name: a\n    lock-passwd: true\n    sudo: false\n    uid: "1000"\ngrowpart:\n  mode: false\npower_state:\n  mode: reboot\n  delay: "+5"\napt_update: true\napt_upgrade: true\nmanage_etc_hosts: template\nssh_pwauth: "yes"\nchpasswd:\n  list: ["a:b"]\nca_certs:\n  remove-defaults: true\ngrub-dpkg: {}',
      ),
    ],
    [
      'deprecated alternatives the value does not match',
      yaml(
        'users:\n  - name: a\n    sudo: "ALL"\n    uid: 1000\ngrowpart:\n  mode: "off"\nmanage_etc_hosts: true\nchpasswd:\n  list: 5\napt_update: "yes"',
      ),
    ],
    ['a number', 5],
    ['a list', [1, 2]],
    ['null', null],
    ['an empty object', {}],
  ];
  it.each(cloudConfigCases)(
    'GIVEN cloud-config %s WHEN validated by the generated module validators and by the run-time reference THEN the verdict, errors and deprecated uses are the same',
    (_name, value) => {
      expect(viaGenerated(value)).toEqual(reference()(value));
    },
  );

  it('GIVEN the deprecated-keys config WHEN diagnosed THEN every deprecated use is one warning and the unmatched alternatives none', () => {
    const warnings = (text: string) =>
      cloudConfigSchemaDiagnostics(yaml(text), ['cloud_config'], 'Invalid cloud-config').map((d) => [d.severity, d.path]);
    expect(warnings('users:\n  - name: a\n    sudo: false\n    uid: "1000"\ngrowpart:\n  mode: false')).toEqual([
      ['warning', ['cloud_config', 'growpart', 'mode']],
      ['warning', ['cloud_config', 'users', 0, 'sudo']],
      ['warning', ['cloud_config', 'users', 0, 'uid']],
    ]);
    expect(warnings('users:\n  - name: a\n    sudo: "ALL"\n    uid: 1000\ngrowpart:\n  mode: "off"')).toEqual([]);
  });

  it('GIVEN the cloud-config schema WHEN its modules are listed THEN every allOf part is a module the generated code exports', () => {
    const modules = cloudConfigModules(cloudConfigSchema);
    expect(modules.length).toBe((cloudConfigSchema as { allOf: unknown[] }).allOf.length);
    expect(Object.keys((generatedCloudConfig as unknown as { modules: object }).modules)).toEqual(modules);
    expect(CLOUD_CONFIG_FILE).toBe('cloud-config.schema.json');
  });
});
