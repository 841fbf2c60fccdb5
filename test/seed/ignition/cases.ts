// Shared tables: configs we generate (valid) and invalid configs, used by unit and integration tests.
import { IgnitionBuilder, type IgnitionSpec, type IgnitionVersion } from '../../../src/seed/ignition';

export const KUBEVIRT_2_2_0 = {
  ignition: { config: {}, version: '2.2.0' },
  networkd: {},
  passwd: { users: [{ name: 'core', sshAuthorizedKeys: ['ssh-rsa AAAAB3NzaC1yc2E test@example'] }] },
  storage: {},
  systemd: {},
};

export const V2_WITH_NETWORKD = {
  ignition: { version: '2.3.0' },
  storage: {
    files: [{ filesystem: 'root', path: '/etc/motd', mode: 420, contents: { source: 'data:,hello' } }],
    directories: [{ filesystem: 'root', path: '/opt/app', mode: 493 }],
    links: [{ filesystem: 'root', path: '/usr/local/bin/app', target: '/opt/app/run' }],
  },
  networkd: { units: [{ name: '10-eth0.network', contents: '[Match]\nName=eth0\n\n[Network]\nDHCP=yes\n' }] },
  systemd: {
    units: [
      { name: 'app.service', enable: true, contents: '[Service]\nExecStart=/opt/app/run\n\n[Install]\nWantedBy=multi-user.target\n' },
    ],
  },
  passwd: { users: [{ name: 'core', groups: ['wheel'] }], groups: [{ name: 'ops', gid: 1100 }] },
};

/** Typed specs that must render for every version in `versions`. */
export const VALID_SPECS: { name: string; versions: IgnitionVersion[]; spec: IgnitionSpec | object }[] = [
  {
    name: 'builder: files (plain, base64, gzip), directory, link, unit with drop-in, user, group',
    versions: ['3.0.0', '3.1.0', '3.2.0', '3.3.0'],
    spec: new IgnitionBuilder()
      .addFile('/etc/hostname', 'vm-1\n')
      .addFile('/opt/bin/hello', '#!/bin/sh\necho "hello, world" && exit 0\n', { mode: 0o755 })
      .addFile('/etc/blob', new Uint8Array([0, 1, 2, 255, 254]))
      .addFile('/etc/big.txt', 'line\n'.repeat(200), { gzip: true })
      .addDirectory('/var/lib/app', { user: { name: 'core' } })
      .addLink('/etc/localtime', '/usr/share/zoneinfo/UTC')
      .addUnit('hello.service', '[Service]\nType=oneshot\nExecStart=/opt/bin/hello\n\n[Install]\nWantedBy=multi-user.target\n', {
        enabled: true,
        dropins: { '10-env.conf': '[Service]\nEnvironment=A=1\n' },
      })
      .addUnit('docker.service', undefined, { mask: true })
      .addUser('core', { sshAuthorizedKeys: ['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI test'], groups: ['wheel'], shell: '/bin/bash' })
      .addGroup('ops', { gid: 1100 })
      .build(),
  },
  {
    name: 'raw: config merge, timeouts, remote file with sha512',
    versions: ['3.0.0', '3.1.0', '3.2.0', '3.3.0'],
    spec: {
      ignition: {
        config: { merge: [{ source: 'https://example.com/extra.ign' }] },
        timeouts: { httpResponseHeaders: 20, httpTotal: 600 },
      },
      storage: {
        files: [
          { path: '/etc/remote', contents: { source: 'https://example.com/f', verification: { hash: `sha512-${'a'.repeat(128)}` } } },
        ],
      },
    },
  },
  {
    name: '3.2+: luks with tang, user shouldExist false',
    versions: ['3.2.0', '3.3.0'],
    spec: {
      storage: { luks: [{ name: 'data', device: '/dev/vdb', clevis: { tang: [{ url: 'https://tang.example.com', thumbprint: 'abc' }] } }] },
      passwd: { users: [{ name: 'olduser', shouldExist: false }] },
    },
  },
  {
    name: '3.3: kernelArguments',
    versions: ['3.3.0'],
    spec: { kernelArguments: { shouldExist: ['console=ttyS0'], shouldNotExist: ['quiet'] } },
  },
  { name: '2.2.0 KubeVirt example (translated)', versions: ['3.0.0', '3.3.0'], spec: KUBEVIRT_2_2_0 },
  { name: '2.3.0 with networkd (translated)', versions: ['3.0.0', '3.3.0'], spec: V2_WITH_NETWORKD },
];

/** Raw configs that are invalid: our first error path, and whether ignition-validate should also fail. */
export const INVALID_CONFIGS: { name: string; config: object; path: (string | number)[] }[] = [
  {
    name: 'relative path',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ path: 'etc/x' }] } },
    path: ['storage', 'files', 0, 'path'],
  },
  {
    name: 'duplicate path across file and directory',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a' }], directories: [{ path: '/a' }] } },
    path: ['storage', 'directories', 0, 'path'],
  },
  {
    name: 'mode too large',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', mode: 70000 }] } },
    path: ['storage', 'files', 0, 'mode'],
  },
  {
    name: 'bad base64 data URL',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', contents: { source: 'data:;base64,@@@' } }] } },
    path: ['storage', 'files', 0, 'contents', 'source'],
  },
  {
    name: 'unit without suffix',
    config: { ignition: { version: '3.3.0' }, systemd: { units: [{ name: 'hello' }] } },
    path: ['systemd', 'units', 0, 'name'],
  },
  {
    name: 'wrong type',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', mode: '0644' }] } },
    path: ['storage', 'files', 0, 'mode'],
  },
  {
    name: 'missing path',
    config: { ignition: { version: '3.3.0' }, storage: { files: [{ mode: 420 }] } },
    path: ['storage', 'files', 0, 'path'],
  },
  {
    name: 'gs: source in 3.0.0',
    config: { ignition: { version: '3.0.0' }, storage: { files: [{ path: '/a', contents: { source: 'gs://b/o' } }] } },
    path: ['storage', 'files', 0, 'contents', 'source'],
  },
  {
    name: 'link without target',
    config: { ignition: { version: '3.3.0' }, storage: { links: [{ path: '/l' }] } },
    path: ['storage', 'links', 0, 'target'],
  },
  { name: 'unsupported version', config: { ignition: { version: '3.6.0' } }, path: ['ignition', 'version'] },
];
