import { shellQuote, socketConnectError, sshArgs, sshError, tlsFiles, unixSocketPath } from '../../../src/libvirt/private/transport';
import { parseLibvirtUri } from '../../../src/libvirt/uri';

describe('ssh transport command', () => {
  it('GIVEN user, port and keyfile WHEN the ssh command is built THEN they become -l, -p and -i and the proxy runs on the host', () => {
    const args = sshArgs(parseLibvirtUri('qemu+ssh://ops@kvm1:2200/system?keyfile=/k/id'));
    expect(args.slice(0, 5)).toEqual(['-T', '-e', 'none', '-o', 'BatchMode=yes']);
    expect(args).toEqual(expect.arrayContaining(['-p', '2200', '-l', 'ops', '-i', '/k/id']));
    expect(args.slice(-3, -1)).toEqual(['--', 'kvm1']);
    expect(args.at(-1)).toContain('virt-ssh-helper qemu:///system');
    expect(args.at(-1)).toContain('nc -U /var/run/libvirt/libvirt-sock');
  });

  it('GIVEN proxy=netcat and a socket WHEN the ssh command is built THEN only netcat on that socket runs', () => {
    expect(sshArgs(parseLibvirtUri('qemu+ssh://h/system?proxy=netcat&socket=/run/s')).at(-1)).toBe('nc -U /run/s');
  });

  it('GIVEN proxy=native WHEN the ssh command is built THEN virt-ssh-helper gets the server URI', () => {
    expect(sshArgs(parseLibvirtUri('qemu+ssh://h/system?proxy=native')).at(-1)).toBe('virt-ssh-helper qemu:///system');
  });

  it('GIVEN no parameters WHEN the ssh command is built THEN it has a connect timeout and ssh keepalives', () => {
    const args = sshArgs(parseLibvirtUri('qemu+ssh://h/system'));
    expect(args).toEqual(expect.arrayContaining(['ConnectTimeout=10', 'ServerAliveInterval=5', 'ServerAliveCountMax=3']));
    expect(sshArgs(parseLibvirtUri('qemu+ssh://h/system?connect_timeout=4'))).toContain('ConnectTimeout=4');
  });

  it.each([
    ['known_hosts_verify=normal', ['StrictHostKeyChecking=yes']],
    ['known_hosts_verify=auto', ['StrictHostKeyChecking=accept-new']],
    ['known_hosts_verify=ignore', ['StrictHostKeyChecking=no', 'UserKnownHostsFile=/dev/null']],
    ['no_verify=1', ['StrictHostKeyChecking=accept-new']],
    ['known_hosts=/tmp/kh', ['UserKnownHostsFile=/tmp/kh']],
    ['sshauth=privkey', ['PreferredAuthentications=publickey', 'IdentityAgent=none']],
  ])('GIVEN %s WHEN the ssh command is built THEN ssh gets %j', (param, options) => {
    expect(sshArgs(parseLibvirtUri(`qemu+ssh://h/system?${param}`))).toEqual(expect.arrayContaining(options));
  });

  it('GIVEN mode=direct WHEN the ssh command is built THEN netcat opens the modular daemon socket', () => {
    expect(sshArgs(parseLibvirtUri('qemu+ssh://h/system?mode=direct&netcat=ncat')).at(-1)).toBe('ncat -U /var/run/libvirt/virtqemud-sock');
  });

  it('GIVEN a word with a quote WHEN shell-quoted THEN it survives a POSIX shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('tls and unix locations', () => {
  it('GIVEN ?pkipath= WHEN the TLS files are located THEN all three come from that directory', () => {
    expect(tlsFiles(parseLibvirtUri('qemu+tls://h/system?pkipath=/p'))).toEqual({
      ca: '/p/cacert.pem',
      cert: '/p/clientcert.pem',
      key: '/p/clientkey.pem',
    });
  });

  it('GIVEN ?socket= WHEN the unix socket is located THEN that path is used', () => {
    expect(unixSocketPath(parseLibvirtUri('qemu+unix:///system?socket=/tmp/x'))).toBe('/tmp/x');
  });
});

describe('connect errors', () => {
  const ssh = parseLibvirtUri('qemu+ssh://ops@kvm1:2200/system');
  it.each([
    ['ssh: Could not resolve hostname kvm1: Name or service not known', 255, 'resolve', /check the host name "kvm1"/],
    ['ssh: connect to host kvm1 port 2200: Connection refused', 255, 'connect', /sshd listens on kvm1 port 2200/],
    ['Connection timed out during banner exchange', 255, 'connect', /raise \?connect_timeout= \(now 10 s\)/],
    [
      'No ED25519 host key is known for [kvm1]:2200 and you have requested strict checking.\nHost key verification failed.',
      255,
      'authenticate',
      /ssh-keyscan -p 2200 kvm1/,
    ],
    ['ops@kvm1: Permission denied (publickey).', 255, 'authenticate', /\?keyfile=.*ops's ~\/.ssh\/authorized_keys on kvm1/],
    ['nc: unix connect failed: No such file or directory', 1, 'libvirt handshake', /libvirtd runs on kvm1/],
  ])('GIVEN ssh stderr %j WHEN classified THEN the step and fix are named', (stderr, code, step, fix) => {
    const e = sshError(ssh, code, null, `Warning: Permanently added '[kvm1]:2200' (ED25519) to the list of known hosts.\n${stderr}\n`);
    expect(e.step).toBe(step);
    expect(e.message).toContain('Cannot connect to qemu+ssh://ops@kvm1:2200/system (step: ');
    expect(e.message).toContain(stderr.split('\n').at(-1)!.replace(/\.$/, ''));
    expect(e.message).not.toContain('Permanently added');
    expect(e.message).toMatch(fix);
  });

  it.each([
    ['qemu+tcp://nowhere.invalid/system', { code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND nowhere.invalid' }, 'resolve'],
    ['qemu+tcp://h/system', { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }, 'connect'],
    ['qemu+tls://h/system', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify the first certificate' }, 'authenticate'],
    ['qemu+unix:///system?socket=/nope', { code: 'ENOENT', message: 'connect ENOENT /nope' }, 'connect'],
  ])('GIVEN %s failing with %j WHEN classified THEN the step is %s', (uri, err, step) => {
    const e = socketConnectError(parseLibvirtUri(uri), Object.assign(new Error(err.message), { code: err.code }));
    expect(e.step).toBe(step);
    expect(e.message).toMatch(/Fix: \S/);
  });
});
