import { LibvirtUriError, parseLibvirtUri } from '../../src/libvirt/uri';

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

  it('GIVEN a host and no transport WHEN parsed THEN libvirt\'s default TLS is used', () => {
    expect(parseLibvirtUri('qemu://kvm1/system').transport).toBe('tls');
  });

  it('GIVEN qemu+ssh with user, IPv6 host and extra params WHEN parsed THEN unknown params are forwarded to the daemon', () => {
    const u = parseLibvirtUri('qemu+ssh://root@[fd00::1]:2222/system?keyfile=/k&foo=bar');
    expect([u.user, u.host, u.port, u.params.keyfile, u.serverName]).toEqual(['root', 'fd00::1', 2222, '/k', 'qemu:///system?foo=bar']);
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
  ])('GIVEN %s WHEN parsed THEN LibvirtUriError explains %s', (uri, message) => {
    expect(() => parseLibvirtUri(uri)).toThrow(LibvirtUriError);
    expect(() => parseLibvirtUri(uri)).toThrow(message);
  });
});
