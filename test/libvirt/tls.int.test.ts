/**
 * qemu+tls against a real libvirtd listening on 127.0.0.1 (the tests' own session daemon with --listen and its own
 * configuration; never the shared system daemon), with a CA, server and client certificates this test makes with
 * openssl: pkipath, no_verify, an untrusted server, a client certificate from another CA, a refused port.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as tls from 'node:tls';
import { LibvirtConnectError, connect } from '../../src/libvirt';
import { OwnLibvirtd } from '../faults/own-libvirtd';
import { makeCa, makeCert } from '../helpers/pki';
import { freePort } from './helpers/sshd';
import { TfWorkdir } from '../helpers/terraform';

jest.setTimeout(120_000);

/** libvirtd's log lines of a connection that ended without a TLS close (gnutls: premature termination). */
function failedReads(log: string): string[] {
  return log.split('\n').filter((l) => /Cannot recv data|virNetSocketReadWire/.test(l));
}

describe('qemu+tls against our own libvirtd on 127.0.0.1', () => {
  const lvd = new OwnLibvirtd('tls');
  const pki = path.join(lvd.dir, 'pki');
  let port = 0;
  let base = '';

  beforeAll(async () => {
    makeCa(path.join(pki, 'ca'), 'vstest CA');
    makeCert(path.join(pki, 'server'), path.join(pki, 'ca'), 'server', '127.0.0.1');
    makeCert(path.join(pki, 'client'), path.join(pki, 'ca'), 'client', 'vstest client');
    fs.copyFileSync(path.join(pki, 'ca', 'cacert.pem'), path.join(pki, 'client', 'cacert.pem'));
    // A second CA: its cacert does not know the server; its client certificate is unknown to libvirtd.
    makeCa(path.join(pki, 'other-ca'), 'vstest other CA');
    makeCert(path.join(pki, 'other'), path.join(pki, 'other-ca'), 'client', 'vstest stranger');
    fs.copyFileSync(path.join(pki, 'other-ca', 'cacert.pem'), path.join(pki, 'other', 'cacert.pem'));
    execFileSync('chown', ['-R', `${lvd.uid}:${lvd.uid}`, pki]);
    port = await freePort();
    const conf = path.join(lvd.dir, 'libvirtd.conf');
    fs.writeFileSync(
      conf,
      [
        'listen_tls = 1',
        'listen_tcp = 0',
        `tls_port = "${port}"`,
        'listen_addr = "127.0.0.1"',
        'auth_tls = "none"',
        `key_file = "${pki}/server/serverkey.pem"`,
        `cert_file = "${pki}/server/servercert.pem"`,
        `ca_file = "${pki}/ca/cacert.pem"`,
        `unix_sock_dir = "${lvd.dir}/run/libvirt"`,
        '',
      ].join('\n'),
    );
    fs.chownSync(conf, lvd.uid, lvd.uid);
    lvd.args = ['--listen', '-f', conf];
    await lvd.start();
    base = `qemu+tls://127.0.0.1:${port}/session`;
  });

  // Our libvirtd died once in CI between two tests, with no message saying how. A test fails naming the daemon's end
  // and log when it died during the test; a death after a test ends is printed, and the next test restarts the daemon.
  beforeEach(async () => {
    if (!lvd.death) return;
    process.stderr.write(
      `tls.int.test: our libvirtd ${lvd.death} after the test before; restarted. Its log:\n${lvd.output.slice(-4000)}\n`,
    );
    await lvd.start();
  });

  afterEach(() => {
    if (lvd.death) throw new Error(`our libvirtd ${lvd.death} during this test; its log:\n${lvd.output.slice(-4000)}`);
    // GLib's critical warnings came before each of those deaths (own-libvirtd.ts says why): a test that sees one fails.
    if (/GLib-GObject-CRITICAL/.test(lvd.output))
      throw new Error(`our libvirtd logged a GLib critical; its log:\n${lvd.output.slice(-4000)}`);
  });

  afterAll(async () => {
    await lvd.stop();
    lvd.dispose();
  });

  async function failure(uri: string): Promise<LibvirtConnectError> {
    try {
      const c = await connect(uri);
      await c.close();
    } catch (e) {
      if (e instanceof LibvirtConnectError) {
        if (process.env.VIRTSEED_SHOW_ERRORS) process.stdout.write(`${e.message}\n`);
        return e;
      }
      throw e;
    }
    throw new Error(`connecting to ${uri} succeeded`);
  }

  it('GIVEN pkipath with the CA and a client certificate WHEN connecting THEN libvirtd answers over TLS', async () => {
    const c = await connect(`${base}?pkipath=${pki}/client`);
    try {
      expect(await c.connectGetUri()).toBe('qemu:///session');
    } finally {
      await c.close();
    }
  });

  it.each([2, 4, 16])(
    'GIVEN %i calls started at once over TLS (no keepalive to wake libvirtd) WHEN awaited THEN each burst is answered within 2 s',
    async (n) => {
      // One TLS record holding several packets: libvirtd 9.0 dispatched the first and left the rest until more bytes came.
      const c = await connect(`${base}?pkipath=${pki}/client`, { keepaliveInterval: 0 });
      try {
        for (let i = 0; i < 5; i++) {
          let timer: NodeJS.Timeout | undefined;
          const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`burst ${i} not answered within 2 s`), 2000)));
          const calls = Array.from({ length: n - 1 }, () => c.connectGetLibVersion());
          const burst = Promise.all([...calls, c.connectGetUri()]).then((r) => r[n - 1]);
          expect(await Promise.race([burst, late])).toBe('qemu:///session');
          clearTimeout(timer);
        }
      } finally {
        await c.close();
      }
    },
  );

  it('GIVEN ten TLS connections used and closed WHEN libvirtd logs THEN it logs no failed read for them (the client ends TLS cleanly)', async () => {
    const before = lvd.output.length;
    for (let i = 0; i < 10; i++) {
      const c = await connect(`${base}?pkipath=${pki}/client`);
      expect(await c.connectGetLibVersion()).toBeGreaterThan(0);
      await c.close();
    }
    await new Promise((r) => setTimeout(r, 1000)); // libvirtd logs a failed read when it handles the socket's end
    expect(failedReads(lvd.output.slice(before))).toEqual([]);
  });

  it("GIVEN terraform plans a data source read over TLS WHEN terraform is done THEN libvirtd logs no failed read for the provider's connections", async () => {
    const tf = new TfWorkdir('tls-close');
    try {
      await lvd.createPool('vstest-tls-pool');
      tf.write(
        `data "virtseed_pool" "p" {\n  name = "vstest-tls-pool"\n}\noutput "t" {\n  value = data.virtseed_pool.p.type\n}\n`,
        `provider "virtseed" {\n  uri = "${base}?pkipath=${pki}/client"\n}`,
      );
      tf.init();
      const before = lvd.output.length;
      for (let i = 0; i < 3; i++) tf.ok(['plan', '-input=false']);
      await new Promise((r) => setTimeout(r, 1000));
      expect(failedReads(lvd.output.slice(before))).toEqual([]);
    } finally {
      tf.dispose();
    }
  });

  it("GIVEN terraform applies and destroys a volume over TLS WHEN terraform is done THEN libvirtd logs no failed read for the provider's connections", async () => {
    const tf = new TfWorkdir('tls-apply');
    try {
      // The pool of the test before (one directory holds one pool); made here when this test runs alone.
      await lvd.createPool('vstest-tls-pool').catch(() => undefined);
      tf.write(
        `resource "virtseed_volume" "v" {\n  pool     = "vstest-tls-pool"\n  name     = "vstest-tls-v.raw"\n  format   = "raw"\n  capacity = 1048576\n}\n`,
        `provider "virtseed" {\n  uri = "${base}?pkipath=${pki}/client"\n}`,
      );
      tf.init();
      const before = lvd.output.length;
      tf.ok(['apply', '-auto-approve', '-input=false']);
      tf.ok(['destroy', '-auto-approve', '-input=false']);
      await new Promise((r) => setTimeout(r, 1000));
      expect(failedReads(lvd.output.slice(before))).toEqual([]);
    } finally {
      tf.dispose();
    }
  });

  it('GIVEN a CA that did not sign the server certificate WHEN connecting THEN the step is authenticate and no_verify=1 gets through', async () => {
    const dir = path.join(pki, 'mixed');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(path.join(pki, 'other-ca', 'cacert.pem'), path.join(dir, 'cacert.pem'));
    fs.copyFileSync(path.join(pki, 'client', 'clientcert.pem'), path.join(dir, 'clientcert.pem'));
    fs.copyFileSync(path.join(pki, 'client', 'clientkey.pem'), path.join(dir, 'clientkey.pem'));
    const e = await failure(`${base}?pkipath=${dir}`);
    expect(e.step).toBe('authenticate');
    expect(e.message).toContain('server certificate of 127.0.0.1 port');
    expect(e.message).toContain('?no_verify=1');
    const c = await connect(`${base}?pkipath=${dir}&no_verify=1`);
    expect(await c.connectGetLibVersion()).toBeGreaterThan(0);
    await c.close();
  });

  it('GIVEN a client certificate from a CA libvirtd does not trust WHEN connecting THEN libvirtd refuses it (step authenticate)', async () => {
    const e = await failure(`${base}?pkipath=${pki}/other&no_verify=1`);
    expect(e.step).toBe('authenticate');
    expect(e.message).toMatch(/client certificate/);
  });

  it('GIVEN a pkipath without the files WHEN connecting THEN the error names the missing file', async () => {
    const e = await failure(`${base}?pkipath=${pki}/nowhere`);
    expect(e.step).toBe('authenticate');
    expect(e.message).toContain(`${pki}/nowhere/cacert.pem`);
  });

  it('GIVEN a port nobody listens on WHEN connecting over TLS THEN the step is connect and the fix names listen_tls', async () => {
    const e = await failure(`qemu+tls://127.0.0.1:${await freePort()}/session?pkipath=${pki}/client`);
    expect(e.step).toBe('connect');
    expect(e.message).toContain('listen_tls = 1');
  });
  it('GIVEN a TLS connection dropped without a TLS close WHEN libvirtd logs THEN it logs the failed read (what the checks above look for)', async () => {
    const before = lvd.output.length;
    const socket = tls.connect({
      host: '127.0.0.1',
      port,
      ca: fs.readFileSync(path.join(pki, 'client', 'cacert.pem')),
      cert: fs.readFileSync(path.join(pki, 'client', 'clientcert.pem')),
      key: fs.readFileSync(path.join(pki, 'client', 'clientkey.pem')),
      servername: '127.0.0.1',
    });
    await new Promise<void>((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    // libvirt's TLS handshake ends with the server's one-byte check; then the socket is closed without close_notify.
    await new Promise((r) => setTimeout(r, 500));
    socket.destroy();
    const end = Date.now() + 5000;
    while (!failedReads(lvd.output.slice(before)).length && Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    expect({ lines: failedReads(lvd.output.slice(before)).length, log: lvd.output.slice(before) }).toEqual({
      lines: 1,
      log: expect.any(String),
    });
  });
});
