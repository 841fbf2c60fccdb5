import { boundTimeout } from './limits';
import { consolesOf } from './terraform';

describe('boundTimeout', () => {
  const MAX = 900_000;
  it('GIVEN a file with time left WHEN a test asks for more than the per-test bound THEN it gets the bound', () => {
    expect(boundTimeout(1_800_000, false, 1_500_000, MAX)).toBe(MAX);
    expect(boundTimeout(60_000, false, 1_500_000, MAX)).toBe(60_000);
  });

  it('GIVEN a file near its bound WHEN a test or set-up hook starts THEN it gets what the file has left, at least 1 s', () => {
    expect(boundTimeout(600_000, false, 120_000, MAX)).toBe(120_000);
    expect(boundTimeout(600_000, false, -5_000, MAX)).toBe(1000);
  });

  it('GIVEN a file over its bound WHEN a teardown hook starts THEN it keeps the per-test bound', () => {
    expect(boundTimeout(1_800_000, true, -5_000, MAX)).toBe(MAX);
  });
});

describe('consolesOf', () => {
  it('GIVEN domains with plain and interpolated names and an explicit console_log WHEN read THEN the plain names default consoles and the explicit path are listed', () => {
    const hcl = `
resource "virtseed_volume" "root" {
  name = "vstest-x-root.qcow2"
}
resource "virtseed_domain" "a" {
  memory = 256
  name   = "vstest-x-a"
}
resource "virtseed_domain" "b" {
  name        = "\${var.prefix}-b"
  console_log = "/var/log/libvirt/qemu/vstest-x-b.log"
}
`;
    expect(consolesOf(hcl).sort()).toEqual(['/var/log/libvirt/qemu/vstest-x-a-console.log', '/var/log/libvirt/qemu/vstest-x-b.log']);
  });

  it('GIVEN a configuration without a domain WHEN read THEN no console is watched', () => {
    expect(consolesOf('resource "virtseed_volume" "v" {\n  name = "vstest-x-v"\n}\n')).toEqual([]);
  });
});
