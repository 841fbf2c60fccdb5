import { shellQuote, sshArgs, tlsFiles, unixSocketPath } from '../../../src/libvirt/private/transport';
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

  it('GIVEN a word with a quote WHEN shell-quoted THEN it survives a POSIX shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});

describe('tls and unix locations', () => {
  it('GIVEN ?pkipath= WHEN the TLS files are located THEN all three come from that directory', () => {
    expect(tlsFiles(parseLibvirtUri('qemu+tls://h/system?pkipath=/p'))).toEqual({ ca: '/p/cacert.pem', cert: '/p/clientcert.pem', key: '/p/clientkey.pem' });
  });

  it('GIVEN ?socket= WHEN the unix socket is located THEN that path is used', () => {
    expect(unixSocketPath(parseLibvirtUri('qemu+unix:///system?socket=/tmp/x'))).toBe('/tmp/x');
  });
});
