/** The serial console log file of a domain depends on the daemon: system daemons get one, session daemons none. */
import { isSessionDaemon, withDefaults } from '../../../provider/src/resources/private/domain-state';
import { domainState } from '../fixtures/domain';

describe('console log and the daemon kind', () => {
  it.each([
    ['qemu:///system', false],
    ['qemu+ssh://root@host/system?keyfile=/k', false],
    ['qemu+tls://host/system', false],
    ['qemu:///session', true],
    ['qemu+unix:///session?socket=/tmp/x/libvirt-sock', true],
    ['qemu+ssh://me@host/session', true],
    ['qemu:///sessionx', false],
  ])('GIVEN %s THEN session daemon is %s', (uri, session) => {
    expect(isSessionDaemon(uri)).toBe(session);
  });

  it('GIVEN a system URI WHEN defaults are filled THEN console_log is the system log path', () => {
    const planned = withDefaults(domainState({ name: 'vm1' }), null, 'qemu:///system');
    expect(planned.console_log).toBe('/var/log/libvirt/qemu/vm1-console.log');
  });

  it('GIVEN a session URI WHEN defaults are filled THEN console_log is null (its QEMU cannot write the system log folder)', () => {
    const planned = withDefaults(domainState({ name: 'vm1' }), null, 'qemu:///session');
    expect(planned.console_log).toBeNull();
  });
});
