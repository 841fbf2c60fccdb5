import { connectTimeoutSeconds, LibvirtUriError, parseLibvirtUri } from '../../src/libvirt/uri';

describe('parseLibvirtUri', () => {
  it('GIVEN qemu:///system WHEN parsed THEN it is the local unix transport opening qemu:///system', () => {
    const u = parseLibvirtUri('qemu:///system');
    expect([u.driver, u.transport, u.host, u.path, u.serverName]).toEqual(['qemu', 'unix', undefined, '/system', 'qemu:///system']);
  });

  it('GIVEN qemu+unix with ?socket= WHEN parsed THEN the socket is a client param, not sent to the daemon', () => {
    const u = parseLibvirtUri('qemu+unix:///system?socket=/run/x.sock');
    expect([u.transport, u.params.socket, u.serverName]).toEqual(['unix', '/run/x.sock', 'qemu:///system']);
  });

  it('GIVEN qemu+tcp with a port WHEN parsed THEN host and port are kept', () => {
    const u = parseLibvirtUri('qemu+tcp://kvm1.example:16000/system');
    expect([u.transport, u.host, u.port, u.serverName]).toEqual(['tcp', 'kvm1.example', 16000, 'qemu:///system']);
  });

  it.each([
    ['qemu:///system', 30],
    ['qemu+tcp://h/system', 10],
    ['qemu+tls://h/system', 10],
    ['qemu+ssh://h/system', 10],
    ['qemu+ssh://h/system?connect_timeout=45', 45],
  ])('GIVEN %s WHEN its connect timeout is asked THEN it is %i s (remote hosts 10, the local socket 30)', (uri, seconds) => {
    expect(connectTimeoutSeconds(parseLibvirtUri(uri))).toBe(seconds);
  });

  it("GIVEN a host and no transport WHEN parsed THEN libvirt's default TLS is used", () => {
    expect(parseLibvirtUri('qemu://kvm1/system').transport).toBe('tls');
  });

  it('GIVEN qemu+ssh with user, IPv6 host and a keyfile WHEN parsed THEN the keyfile stays with the client', () => {
    const u = parseLibvirtUri('qemu+ssh://root@[fd00::1]:2222/system?keyfile=/k');
    expect([u.user, u.host, u.port, u.params.keyfile, u.serverName]).toEqual(['root', 'fd00::1', 2222, '/k', 'qemu:///system']);
  });

  it('GIVEN every libvirt ssh parameter WHEN parsed THEN all are accepted and none reaches the daemon', () => {
    const u = parseLibvirtUri(
      'qemu+ssh://h/system?keyfile=/k&known_hosts=/kh&known_hosts_verify=auto&no_verify=1&no_tty=1&sshauth=agent,privkey&command=/usr/bin/ssh&socket=/s&netcat=ncat&mode=legacy&proxy=netcat&connect_timeout=7',
    );
    expect(u.serverName).toBe('qemu:///system');
    expect(Object.keys(u.params)).toHaveLength(12);
  });

  it('GIVEN ?name= WHEN parsed THEN it overrides the server name', () => {
    expect(parseLibvirtUri('qemu+ssh://h/system?name=qemu:///session').serverName).toBe('qemu:///session');
  });

  it.each([
    ['not a uri', /expected driver\[\+transport\]/],
    ['qemu+foo://h/system', /unknown transport "foo"/],
    ['qemu+ext:///system', /"ext" transport/],
    ['qemu+tcp:///system', /needs a host/],
    ['qemu+unix://host/system', /takes no host/],
    ['qemu+ssh://h/system?foo=bar', /unknown parameter "foo"; the parameters are name, command/],
    ['qemu+ssh://h/system?known_hosts_verify=never', /known_hosts_verify=never is not one of normal, auto, ignore/],
    ['qemu+ssh://h/system?no_verify=yes', /no_verify=yes is not one of 0, 1/],
    ['qemu+ssh://h/system?sshauth=password', /cannot prompt; use sshauth=agent or sshauth=privkey/],
    ['qemu+ssh://h/system?sshauth=agent,kerberos', /sshauth method "kerberos"/],
    ['qemu+ssh://h/system?connect_timeout=0', /connect_timeout=0 is not a whole number of seconds in 1..3600/],
    ['qemu+tls://h/system?keyfile=/k', /"keyfile" applies to the ssh transport, not tls/],
    ['qemu+tcp://h/system?pkipath=/p', /"pkipath" applies to the tls transport, not tcp/],
    ['qemu+tls://h/system?tls_priority=NORMAL', /unknown parameter "tls_priority"/],
  ])('GIVEN %s WHEN parsed THEN LibvirtUriError explains %s', (uri, message) => {
    expect(() => parseLibvirtUri(uri)).toThrow(LibvirtUriError);
    expect(() => parseLibvirtUri(uri)).toThrow(message);
  });
});
