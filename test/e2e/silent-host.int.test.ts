/**
 * Issue 27.2: a `qemu+ssh://` host whose port accepts TCP and never answers (a listener on 127.0.0.1 that never
 * writes a byte). Real `terraform plan` and `apply` of two volumes each end within 30 s in all, naming ssh's own
 * reason (`Connection timed out during banner exchange`), and the provider tries the host once per process (not
 * once per resource). The kernel completes the TCP handshakes from the listen backlog, so the listener need not
 * accept while terraform runs (jest's event loop is blocked by spawnSync meanwhile).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { PROVIDER_BLOCK, TfWorkdir } from '../helpers/terraform';

jest.setTimeout(300_000);

const PREFIX = 'vstest-defects-silent-';
const SSH_REASON = 'Connection timed out during banner exchange';

let tf: TfWorkdir;
let silent: net.Server;
const held: net.Socket[] = [];
let uri = '';

/** Runs terraform and returns its result with the seconds it took. */
function timed(args: string[]): { code: number; out: string; seconds: number } {
  const start = process.hrtime.bigint();
  const r = tf.run(args, 120_000);
  return { ...r, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

beforeAll(async () => {
  silent = net.createServer((s) => held.push(s));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  uri = `qemu+ssh://root@127.0.0.1:${(silent.address() as net.AddressInfo).port}/system?known_hosts_verify=ignore`;
  tf = new TfWorkdir('silent-host');
  const volumes = ['a', 'b']
    .map(
      (n) => `resource "virtseed_volume" "${n}" {\n  pool     = "default"\n  name     = "${PREFIX}${n}.qcow2"\n  capacity = 1048576\n}\n`,
    )
    .join('');
  fs.writeFileSync(
    path.join(tf.dir, 'main.tf'),
    PROVIDER_BLOCK.replace('provider "virtseed" {}', `provider "virtseed" {\n  uri = "${uri}"\n}`) + volumes,
  );
  tf.init();
});

afterAll(async () => {
  fs.rmSync(tf.dir, { recursive: true, force: true }); // nothing to destroy: the host was never reached
  held.forEach((s) => s.destroy());
  await new Promise((resolve) => silent.close(resolve));
});

test("GIVEN a silent ssh host WHEN planned THEN the plan ends within 30 s with one warning carrying ssh's reason", () => {
  const r = timed(['plan', '-detailed-exitcode', '-input=false']);
  const out = r.out.replace(/\s+/g, ' ');
  expect({ code: r.code, out }).toEqual({ code: 2, out: expect.stringContaining(`Warning: Plan not checked against libvirt at ${uri}`) });
  expect(out).toContain(SSH_REASON);
  expect(out).not.toContain('keepalive');
  expect(out.match(/Warning: Plan not checked/g)).toHaveLength(1);
  expect({ seconds: r.seconds < 30, measured: r.seconds }).toEqual({ seconds: true, measured: r.seconds });
});

test("GIVEN a silent ssh host WHEN applied THEN the apply fails within 30 s for each resource with ssh's reason", () => {
  const r = timed(['apply', '-auto-approve', '-input=false']);
  const out = r.out.replace(/\s+/g, ' ');
  expect({ code: r.code, out }).toEqual({ code: 1, out: expect.stringContaining(`Error: Cannot connect to libvirt at ${uri}`) });
  expect(out.match(/Error: Cannot connect to libvirt/g)).toHaveLength(2);
  expect(out.match(new RegExp(SSH_REASON, 'g'))?.length).toBeGreaterThanOrEqual(2);
  expect(out).not.toContain('keepalive');
  expect({ seconds: r.seconds < 30, measured: r.seconds }).toEqual({ seconds: true, measured: r.seconds });
});
