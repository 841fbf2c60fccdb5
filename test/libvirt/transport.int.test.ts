/**
 * Transports against real servers on 127.0.0.1: an sshd this test starts (own host key, own authorized_keys, free
 * port) in front of this machine's libvirtd, a TCP listener that never answers, a refused port, and a TCP relay to
 * libvirtd's socket that goes silent (keepalive). Each failure must name the URI, the step and the fix, with ssh's
 * own words, within a bounded time. Only read-only calls reach the shared libvirtd.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { LibvirtConnectError, connect } from '../../src/libvirt';
import { freePort, startSshd, TestSshd } from './helpers/sshd';

jest.setTimeout(120_000);

async function connectError(uri: string): Promise<{ error: LibvirtConnectError; seconds: number }> {
  const started = Date.now();
  try {
    const c = await connect(uri);
    await c.close();
  } catch (e) {
    if (!(e instanceof LibvirtConnectError))
      throw new Error(`expected a LibvirtConnectError for ${uri}, got ${String((e as Error).stack ?? e)}`);
    if (process.env.VIRTSEED_SHOW_ERRORS) process.stdout.write(`${e.message}\n`);
    return { error: e, seconds: (Date.now() - started) / 1000 };
  }
  throw new Error(`connecting to ${uri} succeeded`);
}

describe('qemu+ssh against a real sshd', () => {
  let sshd: TestSshd;
  let base: string;
  beforeAll(async () => {
    sshd = await startSshd();
    base = `qemu+ssh://root@127.0.0.1:${sshd.port}/system`;
  });
  afterAll(async () => sshd?.stop());

  it('GIVEN the authorized key and the host key in known_hosts WHEN connecting THEN libvirtd answers over ssh', async () => {
    const c = await connect(`${base}?keyfile=${sshd.clientKey}&known_hosts=${sshd.knownHosts}`);
    try {
      expect(await c.connectGetLibVersion()).toBeGreaterThan(1_000_000);
    } finally {
      await c.close();
    }
  });

  it("GIVEN a host name that does not resolve WHEN connecting THEN the step is resolve with ssh's words", async () => {
    const { error } = await connectError(`qemu+ssh://root@vstest-nohost.invalid/system?keyfile=${sshd.clientKey}`);
    expect(error.step).toBe('resolve');
    expect(error.message).toMatch(
      /^Cannot connect to qemu\+ssh:\/\/root@vstest-nohost\.invalid\/system\?keyfile=\S+ \(step: resolve\): ssh said: ssh: Could not resolve hostname vstest-nohost\.invalid/,
    );
    expect(error.message).toContain('Fix: check the host name "vstest-nohost.invalid"');
  });

  it('GIVEN a port nobody listens on WHEN connecting THEN the step is connect: Connection refused', async () => {
    const port = await freePort();
    const { error } = await connectError(`qemu+ssh://root@127.0.0.1:${port}/system`);
    expect(error.step).toBe('connect');
    expect(error.message).toContain(`port ${port}: Connection refused`);
    expect(error.message).toContain(`Fix: check that sshd listens on 127.0.0.1 port ${port}`);
  });

  it('GIVEN a host key not in known_hosts WHEN connecting THEN the step is authenticate: Host key verification failed', async () => {
    const { error } = await connectError(`${base}?keyfile=${sshd.clientKey}&known_hosts=${sshd.emptyKnownHosts}`);
    expect(error.step).toBe('authenticate');
    expect(error.message).toContain('Host key verification failed');
    expect(error.message).toContain(`ssh-keyscan -p ${sshd.port} 127.0.0.1`);
  });

  it("GIVEN known_hosts_verify=ignore or auto WHEN the host key is unknown THEN libvirt's meaning holds (no check; accept and record)", async () => {
    const c1 = await connect(`${base}?keyfile=${sshd.clientKey}&known_hosts=${sshd.emptyKnownHosts}&known_hosts_verify=ignore`);
    await c1.close();
    expect(fs.readFileSync(sshd.emptyKnownHosts, 'utf8')).toBe('');
    const fresh = `${sshd.dir}/known_hosts_auto`;
    fs.writeFileSync(fresh, '');
    const c2 = await connect(`${base}?keyfile=${sshd.clientKey}&known_hosts=${fresh}&known_hosts_verify=auto`);
    await c2.close();
    expect(fs.readFileSync(fresh, 'utf8')).toContain(fs.readFileSync(sshd.knownHosts, 'utf8').split(' ')[2].trim());
  });

  it('GIVEN a key the host does not authorize WHEN connecting THEN the step is authenticate: Permission denied', async () => {
    const { error } = await connectError(`${base}?keyfile=${sshd.strangerKey}&known_hosts=${sshd.knownHosts}&sshauth=privkey`);
    expect(error.step).toBe('authenticate');
    expect(error.message).toContain('Permission denied (publickey)');
    expect(error.message).toContain('Fix: give a private key with ?keyfile=');
  });

  it("GIVEN a socket libvirtd does not listen on WHEN connecting THEN the step is libvirt handshake with netcat's words", async () => {
    const { error } = await connectError(
      `${base}?keyfile=${sshd.clientKey}&known_hosts=${sshd.knownHosts}&socket=/run/vstest-no-such.sock`,
    );
    expect(error.step).toBe('libvirt handshake');
    expect(error.message).toMatch(/ssh said: .*(No such file|nc:)/);
    expect(error.message).toContain('Fix: check that libvirtd runs on 127.0.0.1 and listens on /run/vstest-no-such.sock');
  });

  it('GIVEN a TCP listener that accepts and never answers WHEN connecting with connect_timeout=2 THEN it fails within a bounded time', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((s) => held.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { error, seconds } = await connectError(`qemu+ssh://root@127.0.0.1:${port}/system?connect_timeout=2`);
      expect(error.step).toBe('connect');
      expect(error.message).toMatch(/banner exchange|within \d+ s/);
      expect(seconds).toBeLessThan(10);
    } finally {
      held.forEach((s) => s.destroy());
      silent.close();
    }
  });
});

describe('qemu+tcp failures and keepalive', () => {
  it('GIVEN a refused port WHEN connecting over tcp THEN the step is connect and the fix names listen_tcp', async () => {
    const port = await freePort();
    const { error } = await connectError(`qemu+tcp://127.0.0.1:${port}/system`);
    expect(error.step).toBe('connect');
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.message).toContain('listen_tcp = 1');
  });

  it('GIVEN a listener that never answers WHEN connecting over tcp with connect_timeout=1 THEN the handshake times out', async () => {
    const held: net.Socket[] = [];
    const silent = net.createServer((s) => held.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const { error, seconds } = await connectError(`qemu+tcp://127.0.0.1:${port}/system?connect_timeout=1`);
      expect(error.step).toBe('libvirt handshake');
      expect(error.message).toContain('accepted the connection but libvirtd did not answer within 1 s');
      expect(seconds).toBeLessThan(5);
    } finally {
      held.forEach((s) => s.destroy());
      silent.close();
    }
  });

  it('GIVEN a connection whose path goes silent WHEN a call waits THEN keepalive fails it within interval × (count + 1)', async () => {
    let frozen = false;
    const pairs: net.Socket[] = [];
    const relay = net.createServer((client) => {
      const daemon = net.connect('/var/run/libvirt/libvirt-sock');
      pairs.push(client, daemon);
      client.on('data', (b) => !frozen && daemon.write(b));
      daemon.on('data', (b) => !frozen && client.write(b));
      client.on('error', () => daemon.destroy());
      daemon.on('error', () => client.destroy());
      client.on('close', () => daemon.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const port = (relay.address() as net.AddressInfo).port;
    const c = await connect(`qemu+tcp://127.0.0.1:${port}/system`, { keepaliveInterval: 1, keepaliveCount: 2 });
    try {
      expect(await c.connectGetLibVersion()).toBeGreaterThan(0);
      // Idle with the relay working: pings are answered, the connection stays up.
      await new Promise((r) => setTimeout(r, 3500));
      expect(await c.connectGetLibVersion()).toBeGreaterThan(0);
      frozen = true;
      const started = Date.now();
      await expect(c.connectGetHostname()).rejects.toThrow(/did not answer 2 keepalive pings/);
      expect((Date.now() - started) / 1000).toBeLessThan(5);
    } finally {
      await c.close();
      pairs.forEach((s) => s.destroy());
      relay.close();
    }
  });
});
