/**
 * Integration: bin/virtseed run as a process (the built dist/virtseed.js bundle), against the real cloud-localds
 * (cloud-image-utils), xorriso, qemu-img and tar: help and version, the cloud-localds form with the same arguments
 * giving the same files on the image, spec errors, `seed show --json`, and a closed pipe.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'virtseed');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  out: Buffer;
}

function run(cmd: string, args: string[], opts: SpawnSyncOptions = {}): Run {
  const r = spawnSync(cmd, args, { cwd: dir, timeout: 60_000, maxBuffer: 64 << 20, ...opts });
  const out = Buffer.isBuffer(r.stdout) ? r.stdout : Buffer.from(r.stdout ?? '');
  return { code: r.status, out, stdout: out.toString('utf8'), stderr: `${r.stderr ?? ''}${r.error ? r.error.message : ''}` };
}

function describeRun(cmd: string, args: string[], r: Run): string {
  return `\`${cmd} ${args.join(' ')}\` exited ${r.code}\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr}`;
}

function ok(cmd: string, args: string[], opts: SpawnSyncOptions = {}): Run {
  const r = run(cmd, args, opts);
  if (r.code !== 0) throw new Error(describeRun(cmd, args, r));
  return r;
}

function virtseed(args: string[], opts: SpawnSyncOptions = {}): Run {
  return run(BIN, args, opts);
}

/** Every file on an ISO 9660 image, read by xorriso: path -> bytes. */
function isoFiles(image: string): Map<string, Buffer> {
  const target = fs.mkdtempSync(path.join(dir, 'x-'));
  ok('xorriso', ['-osirrox', 'on', '-indev', image, '-extract', '/', target]);
  const out = new Map<string, Buffer>();
  for (const f of fs.readdirSync(target).sort()) out.set(f, fs.readFileSync(path.join(target, f)));
  return out;
}

function volumeId(image: string): string {
  return /Volume id:\s*(\S+)/.exec(ok('isoinfo', ['-d', '-i', image]).stdout)?.[1] ?? '';
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-cli-proc-'));
  fs.writeFileSync(path.join(dir, 'user-data'), '#cloud-config\npassword: passw0rd\nchpasswd: { expire: False }\nssh_pwauth: True\n');
  fs.writeFileSync(path.join(dir, 'meta-data'), 'instance-id: i-abcdefg\nlocal-hostname: vm1\n');
  fs.writeFileSync(path.join(dir, 'network-config'), 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n');
  fs.writeFileSync(path.join(dir, 'vendor-data'), '#cloud-config\nruncmd:\n  - echo vendor\n');
  fs.writeFileSync(path.join(dir, 'interfaces'), 'auto eth0\niface eth0 inet static\n  address 192.168.1.10/24\n\n');
  fs.writeFileSync(path.join(dir, 'script.sh'), '#!/bin/sh\necho hi\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('virtseed --help and --version', () => {
  it.each([
    [['--help']],
    [['-h']],
    [['seed', '--help']],
    [['seed', 'build', '--help']],
    [['seed', 'build', '-h']],
    [['seed', 'show', '--help']],
  ])('GIVEN %j WHEN run THEN usage is printed to stdout and the exit code is 0', (args) => {
    const r = virtseed(args);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(
      new RegExp(`^Usage: virtseed${args[0] === 'seed' ? ` seed${args[1] !== '--help' ? ` ${args[1]}` : ''}` : ''} `),
    );
  });

  it('GIVEN seed build --help WHEN run THEN both forms and the cloud-localds options are described', () => {
    const r = virtseed(['seed', 'build', '--help']);
    for (const flag of [
      '-N, --network-config',
      '-V, --vendor-data',
      '-H, --hostname',
      '-d, --disk-format',
      '-f, --filesystem',
      '-o, --output',
      '--format',
    ]) {
      expect(r.stdout).toContain(flag);
    }
    expect(r.stdout).toContain('OUTPUT USER-DATA [META-DATA]');
  });

  it('GIVEN --version WHEN run THEN the package version is printed', () => {
    const r = virtseed(['--version']);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it.each([[[]], [['frobnicate']], [['seed']], [['seed', 'build']], [['seed', 'build', '--bogus', 'a', 'b']]])(
    'GIVEN the usage error %j WHEN run THEN the message goes to stderr and the exit code is 2',
    (args) => {
      const r = virtseed(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toBe('');
    },
  );
});

describe('virtseed seed build with cloud-localds arguments', () => {
  const cases: Array<[string, string[]]> = [
    ['user-data and meta-data', ['user-data', 'meta-data']],
    ['user-data only (generated meta-data)', ['user-data']],
    ['-N and -V', ['-N', 'network-config', '-V', 'vendor-data', 'user-data', 'meta-data']],
    [
      'long options',
      [
        '--network-config=network-config',
        '--vendor-data',
        'vendor-data',
        '--filesystem',
        'iso',
        '--disk-format',
        'raw',
        'user-data',
        'meta-data',
      ],
    ],
    ['-H, -i and -m (generated meta-data)', ['-H', 'web1', '-i', 'interfaces', '-m', 'local', 'user-data']],
    ['-H with a script as user-data', ['-f', 'iso9660', '-H', 'db-2.example', 'script.sh']],
  ];

  it.each(cases)('GIVEN %s WHEN both build THEN the images hold byte-identical files and the cidata label', (_name, args) => {
    const tag = createHash('sha256').update(args.join(' ')).digest('hex').slice(0, 8);
    const files = args.includes('meta-data') ? 2 : 1; // USER-DATA [META-DATA] come last
    const [opts, inputs] = [args.slice(0, -files), args.slice(-files)];
    ok('cloud-localds', [...opts, `lds-${tag}.img`, ...inputs]);
    const ourArgs = ['seed', 'build', ...opts, `vs-${tag}.img`, ...inputs];
    const ours = virtseed(ourArgs);
    expect(ours.code === 0 ? '' : describeRun(BIN, ourArgs, ours)).toBe('');
    expect(ours.stdout).toBe(''); // silent like cloud-localds
    const theirs = isoFiles(path.join(dir, `lds-${tag}.img`));
    const mine = isoFiles(path.join(dir, `vs-${tag}.img`));
    expect([...mine.keys()]).toEqual([...theirs.keys()]);
    for (const [name, bytes] of theirs)
      expect({ name, content: mine.get(name)?.toString('latin1') }).toEqual({ name, content: bytes.toString('latin1') });
    expect(volumeId(path.join(dir, `vs-${tag}.img`))).toBe('cidata');
    expect(volumeId(path.join(dir, `lds-${tag}.img`))).toBe('cidata');
  });

  it('GIVEN user-data on stdin and output to stdout WHEN built THEN the image is the one written to a file', () => {
    const input = fs.readFileSync(path.join(dir, 'user-data'));
    const piped = virtseed(['seed', 'build', '-', '-', 'meta-data'], { input });
    expect(piped.code === 0 ? '' : piped.stderr).toBe('');
    ok(BIN, ['seed', 'build', 'file.img', 'user-data', 'meta-data']);
    expect(piped.out.equals(fs.readFileSync(path.join(dir, 'file.img')))).toBe(true);
    ok('cloud-localds', ['stdin.img', '-', 'meta-data'], { input });
    expect(isoFiles(path.join(dir, 'stdin.img'))).toEqual(isoFiles(path.join(dir, 'file.img')));
  });

  it('GIVEN -d qcow2 WHEN both build THEN both are qcow2 images holding the same files', () => {
    ok('cloud-localds', ['-d', 'qcow2', '-N', 'network-config', 'lds.qcow2', 'user-data', 'meta-data']);
    ok(BIN, ['seed', 'build', '-d', 'qcow2', '-N', 'network-config', 'vs.qcow2', 'user-data', 'meta-data']);
    for (const img of ['lds', 'vs']) {
      expect(JSON.parse(ok('qemu-img', ['info', '--output=json', `${img}.qcow2`]).stdout).format).toBe('qcow2');
      ok('qemu-img', ['convert', '-f', 'qcow2', '-O', 'raw', `${img}.qcow2`, `${img}-qcow2.raw`]);
    }
    expect(isoFiles(path.join(dir, 'vs-qcow2.raw'))).toEqual(isoFiles(path.join(dir, 'lds-qcow2.raw')));
  });

  it('GIVEN -d tar-seed-net WHEN both build THEN the archives hold the same paths and contents', () => {
    ok('cloud-localds', ['-d', 'tar-seed-net', 'lds.tar', 'user-data', 'meta-data']);
    ok(BIN, ['seed', 'build', '-d', 'tar-seed-net', 'vs.tar', 'user-data', 'meta-data']);
    const list = (f: string) => ok('tar', ['-tf', f]).stdout.split('\n').filter(Boolean).sort();
    expect(list('vs.tar')).toEqual(list('lds.tar'));
    for (const member of ['var/lib/cloud/seed/nocloud-net/user-data', 'var/lib/cloud/seed/nocloud-net/meta-data']) {
      expect(ok('tar', ['-xOf', 'vs.tar', member]).stdout).toBe(ok('tar', ['-xOf', 'lds.tar', member]).stdout);
    }
  });

  it('GIVEN -f vfat WHEN both build THEN both are FAT file systems labelled cidata holding the same files, and ours is reproducible', () => {
    const args = ['-f', 'vfat', '-N', 'network-config', '-V', 'vendor-data'];
    ok('cloud-localds', [...args, 'lds.vfat', 'user-data', 'meta-data']);
    ok(BIN, ['seed', 'build', ...args, 'vs.vfat', 'user-data', 'meta-data']);
    ok(BIN, ['seed', 'build', ...args, 'vs2.vfat', 'user-data', 'meta-data']);
    expect(fs.readFileSync(path.join(dir, 'vs.vfat')).equals(fs.readFileSync(path.join(dir, 'vs2.vfat')))).toBe(true);
    const fat = (img: string) => {
      expect(ok('blkid', ['-o', 'export', img]).stdout).toMatch(/^LABEL=cidata$[\s\S]*^TYPE=vfat$/m);
      const target = fs.mkdtempSync(path.join(dir, 'fat-'));
      ok('mcopy', ['-n', '-i', img, '::user-data', '::meta-data', '::network-config', '::vendor-data', target]);
      return new Map(
        fs
          .readdirSync(target)
          .sort()
          .map((f) => [f, fs.readFileSync(path.join(target, f)).toString('latin1')]),
      );
    };
    const mine = fat('vs.vfat');
    expect(mine).toEqual(fat('lds.vfat'));
    expect(mine.get('network-config')).toBe(fs.readFileSync(path.join(dir, 'network-config'), 'latin1'));
  });

  it('GIVEN a cloud-config with a wrong type and a misspelled key WHEN built THEN warnings name the file and the image holds it unchanged', () => {
    fs.writeFileSync(path.join(dir, 'odd-user-data'), '#cloud-config\npackagess: [nginx]\nusers: 3\n');
    const r = virtseed(['seed', 'build', 'odd.img', 'odd-user-data']);
    expect(r.code === 0 ? '' : describeRun(BIN, ['seed', 'build', 'odd.img', 'odd-user-data'], r)).toBe('');
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^warning: USER-DATA odd-user-data: users: Invalid cloud-config: /),
      expect.stringMatching(/^warning: USER-DATA odd-user-data: packagess: Unknown cloud-config key: /),
    ]);
    expect(isoFiles(path.join(dir, 'odd.img')).get('user-data')?.toString()).toBe('#cloud-config\npackagess: [nginx]\nusers: 3\n');
  });

  it('GIVEN a meta-data file and -H WHEN built THEN it is refused like cloud-localds refuses it, and nothing is written', () => {
    const r = virtseed(['seed', 'build', '-H', 'web1', 'conflict.img', 'user-data', 'meta-data']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/META-DATA is incompatible with .*-H\/--hostname/);
    expect(fs.existsSync(path.join(dir, 'conflict.img'))).toBe(false);
    expect(run('cloud-localds', ['-H', 'web1', 'conflict.img', 'user-data', 'meta-data']).code).not.toBe(0);
  });

  it.each([
    [['-f', 'configdrive', 'v.img', 'user-data'], /--format configdrive/],
    [['-d', 'tarball', 'v.img', 'user-data'], /tar formats are tar, tar-seed-local, tar-seed-net/],
    [['-m', 'sometimes', 'v.img', 'user-data'], /-m sometimes: expected one of local, net/],
    [['-H', 'bad host', 'v.img', 'user-data'], /-H bad host: /],
    [['v.img', 'no-such-user-data'], /USER-DATA no-such-user-data: no such file/],
    [['-N', 'no-such-nc', 'v.img', 'user-data'], /-N no-such-nc: no such file/],
    [['spec.yaml', 'user-data'], /OUTPUT spec\.yaml looks like a spec file/],
    [['v.img', 'user-data', 'meta-data', 'extra'], /too many arguments/],
  ])('GIVEN the bad arguments %j WHEN built THEN exit 2 names what was given and nothing is written', (args, message) => {
    const r = virtseed(['seed', 'build', ...args]);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(path.join(dir, 'v.img'))).toBe(false);
  });
});

describe('virtseed seed build SPEC -o ISO: what is not a spec', () => {
  it.each([
    [
      'user-data',
      /^user-data: Not a seed spec: user-data is cloud-init user-data \(#cloud-config\), not a seed spec; .*virtseed seed build OUTPUT USER-DATA/,
    ],
    ['script.sh', /^script\.sh: Not a seed spec: script\.sh is a user-data script \(#!\)/],
    ['file.img', /^file\.img: Not a seed spec: file\.img is a binary file/],
  ])('GIVEN %s passed as the spec WHEN built THEN exit 2 says what the file is and no ISO is written', (file, message) => {
    const r = virtseed(['seed', 'build', file, '-o', 'not.iso']);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(message);
    expect(fs.existsSync(path.join(dir, 'not.iso'))).toBe(false);
  });

  it('GIVEN misspelled keys at several levels WHEN built THEN each is an error with its path and a suggestion', () => {
    fs.writeFileSync(
      path.join(dir, 'typos.yaml'),
      'hostnme: web1\nfiles:\n  - path: /etc/a\n    contents: x\nnetwork:\n  version: 2\n  interfaces:\n    - name: eth0\n      dhcp: true\n',
    );
    const r = virtseed(['seed', 'build', 'typos.yaml', '-o', 'not.iso']);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toEqual([
      expect.stringMatching(/^hostnme: Unknown field: "hostnme" is not a field of a seed spec; did you mean "hostname"\?/),
      expect.stringMatching(/^files\[0\]\.contents: Unknown field: "contents" is not a field of a files entry; did you mean "content"\?/),
      expect.stringMatching(
        /^network\.interfaces\[0\]\.dhcp: Unknown field: "dhcp" is not a field of a network\.interfaces entry; did you mean "dhcp4"\?/,
      ),
    ]);
    expect(fs.existsSync(path.join(dir, 'not.iso'))).toBe(false);
  });

  it('GIVEN -N with -o WHEN built THEN the mix of forms is a usage error', () => {
    fs.writeFileSync(path.join(dir, 'ok.yaml'), 'hostname: web1\n');
    const r = virtseed(['seed', 'build', 'ok.yaml', '-o', 'ok.iso', '-N', 'network-config']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('-N belong to the cloud-localds form');
  });
});

describe('virtseed seed show', () => {
  it('GIVEN --json WHEN shown THEN one JSON object lists every file with its bytes', () => {
    ok(BIN, ['seed', 'build', '-N', 'network-config', 'show.img', 'user-data', 'meta-data']);
    const r = ok(BIN, ['seed', 'show', '--json', 'show.img']);
    const shown = JSON.parse(r.stdout) as {
      volume_id: string;
      format: string;
      files: Array<{ path: string; size: number; sha256: string; encoding: string; content: string }>;
    };
    expect(shown.volume_id).toBe('cidata');
    expect(shown.format).toBe('nocloud');
    expect(shown.files.map((f) => f.path)).toEqual(['meta-data', 'network-config', 'user-data']);
    for (const f of shown.files) {
      const bytes = fs.readFileSync(path.join(dir, f.path));
      expect({ path: f.path, content: f.content, encoding: f.encoding, size: f.size, sha256: f.sha256 }).toEqual({
        path: f.path,
        content: bytes.toString('utf8'),
        encoding: 'utf-8',
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    }
  });

  it('GIVEN a large seed piped into head WHEN the pipe closes THEN virtseed ends quietly with the SIGPIPE status', () => {
    fs.writeFileSync(path.join(dir, 'big-user-data'), `#!/bin/sh\n${'echo 0123456789abcdef0123456789abcdef\n'.repeat(100_000)}`);
    ok(BIN, ['seed', 'build', 'big.img', 'big-user-data']);
    for (const flags of ['', '--json']) {
      const script = `"${BIN}" seed show ${flags} big.img 2>stderr.txt | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`;
      const r = ok('bash', ['-c', script]);
      expect({ status: r.stdout.trim(), stderr: fs.readFileSync(path.join(dir, 'stderr.txt'), 'utf8') }).toEqual({
        status: '141',
        stderr: '',
      });
    }
  });
});

describe('virtseed provider install and the Terraform CLI configuration', () => {
  const REQUIRED = `terraform {\n  required_providers {\n    virtseed = { source = "virtseed/virtseed", version = "${VERSION}" }\n  }\n}\n`;

  it('GIVEN a CLI configuration with a provider_installation block WHEN the provider is installed THEN it says what to add, and with that added terraform init finds the provider', () => {
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    const config = path.join(home, 'cli.tfrc');
    fs.writeFileSync(config, 'provider_installation {\n  direct {}\n}\n');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, TF_CLI_CONFIG_FILE: config, CHECKPOINT_DISABLE: '1' };
    delete env.TF_PLUGIN_CACHE_DIR;
    const installed = virtseed(['provider', 'install'], { env });
    expect({ code: installed.code, stderr: installed.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining(
        `${config} has a provider_installation block, so terraform does not look in ${home}/.terraform.d/plugins`,
      ),
    });

    // What the note says to add, added where it says.
    const [, mirrorLines, excludeLine] =
      /inside the provider_installation block:\n([\s\S]*?)and this inside its direct block:\n(.*)\n/.exec(installed.stderr) ?? ['', '', ''];
    expect({ mirrorLines, excludeLine }).toEqual({
      mirrorLines: expect.stringContaining('filesystem_mirror'),
      excludeLine: expect.stringContaining('exclude'),
    });
    fs.writeFileSync(config, `provider_installation {\n${mirrorLines}  direct {\n${excludeLine}\n  }\n}\n`);
    const project = fs.mkdtempSync(path.join(dir, 'tf-'));
    fs.writeFileSync(path.join(project, 'main.tf'), REQUIRED);
    const init = run('terraform', ['init', '-input=false', '-no-color'], { cwd: project, env });
    if (init.code !== 0) throw new Error(describeRun('terraform', ['init'], init));
    expect(init.stdout).toContain(`Installing virtseed/virtseed v${VERSION}`);
  });

  it('GIVEN --mirror DIR WHEN its stdout is redirected to a file THEN that file alone is a CLI configuration with which terraform init finds the provider', () => {
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    const mirror = path.join(home, 'mirror');
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CHECKPOINT_DISABLE: '1' };
    delete env.TF_CLI_CONFIG_FILE;
    delete env.TF_PLUGIN_CACHE_DIR;
    // As a user runs it: `virtseed provider install --mirror DIR > tf.rc`.
    const installed = virtseed(['provider', 'install', '--mirror', mirror], { env });
    expect({ code: installed.code, stdout: installed.stdout }).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^provider_installation \{\n[\s\S]*\n\}\n$/),
    });
    expect(installed.stderr).toContain(`installed terraform-provider-virtseed ${VERSION}`);
    expect(installed.stderr).toContain('CLI configuration');
    const config = path.join(home, 'tf.rc');
    fs.writeFileSync(config, installed.stdout);
    const project = fs.mkdtempSync(path.join(dir, 'tf-'));
    fs.writeFileSync(path.join(project, 'main.tf'), REQUIRED);
    const init = run('terraform', ['init', '-input=false', '-no-color'], { cwd: project, env: { ...env, TF_CLI_CONFIG_FILE: config } });
    if (init.code !== 0) throw new Error(describeRun('terraform', ['init'], init));
    expect(init.stdout).toContain(`Installing virtseed/virtseed v${VERSION}`);
    expect(fs.readFileSync(path.join(project, '.terraform.lock.hcl'), 'utf8')).toContain('registry.terraform.io/virtseed/virtseed');
  });

  it('GIVEN no CLI configuration WHEN the provider is installed THEN there is no note (terraform searches ~/.terraform.d/plugins)', () => {
    const home = fs.mkdtempSync(path.join(dir, 'home-'));
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, CHECKPOINT_DISABLE: '1' };
    delete env.TF_CLI_CONFIG_FILE;
    const installed = virtseed(['provider', 'install'], { env });
    expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: '' });
  });
});
