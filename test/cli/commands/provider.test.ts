import { cliConfigPath, missingMirrorConfig } from '../../../cli/commands/provider';

const MIRROR = '/home/u/.terraform.d/plugins';

describe('cliConfigPath', () => {
  it('GIVEN TF_CLI_CONFIG_FILE WHEN asked THEN that file is the CLI configuration', () => {
    expect(cliConfigPath({ TF_CLI_CONFIG_FILE: '/etc/tf.rc' }, '/home/u')).toBe('/etc/tf.rc');
  });

  it('GIVEN no TF_CLI_CONFIG_FILE WHEN asked THEN it is ~/.terraformrc', () => {
    expect(cliConfigPath({}, '/home/u')).toBe('/home/u/.terraformrc');
  });
});

describe('missingMirrorConfig', () => {
  it('GIVEN a CLI configuration without provider_installation WHEN checked THEN nothing is missing (terraform searches the implicit mirrors)', () => {
    expect(missingMirrorConfig('plugin_cache_dir = "/var/cache/tf"\n# provider_installation {}\n', MIRROR)).toBeUndefined();
  });

  it('GIVEN a provider_installation block with a direct block WHEN checked THEN the mirror and the direct exclude are to be added', () => {
    expect(missingMirrorConfig('provider_installation {\n  direct {}\n}\n', MIRROR)).toBe(
      `  filesystem_mirror {\n    path    = "${MIRROR}"\n    include = ["registry.terraform.io/virtseed/*"]\n  }\n` +
        'and this inside its direct block:\n    exclude = ["registry.terraform.io/virtseed/*"]\n',
    );
  });

  it('GIVEN a provider_installation block that names the mirror WHEN checked THEN nothing is missing', () => {
    const config = `provider_installation {\n  filesystem_mirror {\n    path = "${MIRROR}"\n  }\n  direct {}\n}\n`;
    expect(missingMirrorConfig(config, MIRROR)).toBeUndefined();
  });

  it('GIVEN a provider_installation block without a direct block WHEN checked THEN only the mirror is to be added', () => {
    expect(missingMirrorConfig('provider_installation {\n  network_mirror { url = "https://m/" }\n}\n', MIRROR)).not.toMatch(/direct/);
  });
});
