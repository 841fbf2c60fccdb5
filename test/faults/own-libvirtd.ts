/**
 * A libvirtd of the tests' own, separate from the shared system daemon: a session-mode daemon run as `nobody` with
 * HOME and XDG directories in a temporary folder, so its socket, configuration, storage pools and domains are its own.
 * Tests kill and restart only this daemon. Root reaches its socket.
 *
 * The uid must have a passwd record: libvirtd 9.0 looks its own user up for every client identity, and when the
 * record is missing its error path unrefs a GLib object it never held (`g_object_ref: assertion 'G_IS_OBJECT
 * (object)' failed` after each `virGetUserEnt … Failed to find user record`), a use-after-free that crashed the
 * daemon (SIGSEGV) a few connections later in CI runs of test/libvirt/tls.int.test.ts.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect, RemoteLibvirtClient } from '../../src/libvirt';
import { keepQemuLogs } from '../helpers/qemu-logs';

/** `nobody`: a uid with a passwd record (see above; QEMU started by the daemon looks its user up too). */
export const NOBODY_UID = 65534;

export class OwnLibvirtd {
  readonly dir: string;
  readonly socket: string;
  readonly poolDir: string;
  /** The uid the daemon (and the QEMU it starts) runs as. */
  readonly uid: number;
  private child: ChildProcess | null = null;
  private log = '';
  /** How the daemon last ended without being told to (exit code or signal), or null while it runs or after stop(). */
  private ended: string | null = null;

  constructor(label: string) {
    this.uid = NOBODY_UID;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `vstest-lvd-${label}-`));
    for (const d of ['home', 'run', 'config', 'cache', 'data', 'pool']) fs.mkdirSync(path.join(this.dir, d));
    fs.chmodSync(this.dir, 0o755);
    fs.chmodSync(path.join(this.dir, 'run'), 0o700);
    for (const d of ['', 'home', 'run', 'config', 'cache', 'data', 'pool']) fs.chownSync(path.join(this.dir, d), this.uid, this.uid);
    this.socket = path.join(this.dir, 'run', 'libvirt', 'libvirt-sock');
    this.poolDir = path.join(this.dir, 'pool');
  }

  /** The URI the provider uses for this daemon. */
  get uri(): string {
    return `qemu+unix:///session?socket=${this.socket}`;
  }

  /** What the daemon wrote to stderr (its log at the default level: errors and warnings), the last 20000 characters. */
  get output(): string {
    return this.log;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * How the daemon ended when no test stopped it ("killed by SIGSEGV", "exited with code 1"), or null while it runs.
   * A test whose connection is refused names this and {@link output} so the cause is in its failure message.
   */
  get death(): string | null {
    return this.ended;
  }

  /** Extra libvirtd arguments (e.g. `--listen -f FILE` for TLS); kept for restarts. */
  args: string[] = [];

  /** Starts the daemon and waits until it answers. */
  async start(): Promise<void> {
    const d = (n: string) => path.join(this.dir, n);
    const env = {
      PATH: '/usr/sbin:/usr/bin:/sbin:/bin',
      HOME: d('home'),
      XDG_RUNTIME_DIR: d('run'),
      XDG_CONFIG_HOME: d('config'),
      XDG_CACHE_HOME: d('cache'),
      XDG_DATA_HOME: d('data'),
    };
    fs.rmSync(this.socket, { force: true });
    const child = spawn('setpriv', [`--reuid=${this.uid}`, `--regid=${this.uid}`, '--clear-groups', 'libvirtd', ...this.args], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (b: Buffer) => (this.log = (this.log + b.toString()).slice(-20000)));
    this.ended = null;
    child.once('exit', (code, signal) => {
      if (this.child === child) this.ended = signal ? `killed by ${signal}` : `exited with code ${code}`;
    });
    this.child = child;
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) throw new Error(`own libvirtd exited (${child.exitCode}):\n${this.log}`);
      try {
        const c = await connect(this.uri, { keepaliveInterval: 0 });
        await c.connectGetLibVersion();
        await c.close();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`own libvirtd did not answer on ${this.socket}:\n${this.log}`);
  }

  /** Sends `signal` to the daemon; for SIGKILL waits until it is gone. */
  async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    if (signal === 'SIGKILL' || signal === 'SIGTERM') this.child = null; // told to end: not a death
    process.kill(child.pid!, signal);
    if (signal === 'SIGKILL' || signal === 'SIGTERM') await gone;
  }

  async restart(): Promise<void> {
    await this.signal('SIGKILL');
    await this.start();
  }

  async client(): Promise<RemoteLibvirtClient> {
    return connect(this.uri);
  }

  /** Runs `f` on a connection of its own to the daemon, closed after. */
  private async withClient<T>(f: (c: RemoteLibvirtClient) => Promise<T>): Promise<T> {
    const c = await this.client();
    try {
      return await f(c);
    } finally {
      await c.close();
    }
  }

  /** Defines and starts a `dir` storage pool `name` in {@link poolDir}, marked autostart (it survives restarts). */
  async createPool(name: string): Promise<void> {
    await this.withClient(async (c) => {
      const pool = await c.storagePoolDefineXml(
        `<pool type='dir'><name>${name}</name><target><path>${this.poolDir}</path></target></pool>`,
      );
      await c.storagePoolCreate(pool);
      await c.storagePoolSetAutostart(pool, true);
    });
  }

  /** The names of the volumes in pool `name` (refreshed) and of all domains, each sorted. */
  async listing(name: string): Promise<{ volumes: string[]; domains: string[] }> {
    return this.withClient(async (c) => {
      const pool = await c.storagePoolLookupByName(name);
      await c.storagePoolRefresh(pool);
      const volumes = (await c.storagePoolListAllVolumes(pool)).map((v) => v.name).sort();
      const domains = (await c.connectListAllDomains()).map((d) => d.name).sort();
      return { volumes, domains };
    });
  }

  /** The names of domain `domain`'s snapshots, sorted. */
  async snapshotNames(domain: string): Promise<string[]> {
    return this.withClient(async (c) => (await c.domainListAllSnapshots(await c.domainLookupByName(domain))).map((s) => s.name).sort());
  }

  /** The names of all storage pools, sorted. */
  async poolNames(): Promise<string[]> {
    return this.withClient(async (c) => (await c.connectListAllStoragePools()).map((p) => p.name).sort());
  }

  async stop(): Promise<void> {
    await this.signal('SIGKILL');
  }

  dispose(): void {
    keepQemuLogs(path.join(this.dir, 'cache', 'libvirt', 'qemu', 'log'), path.basename(this.dir));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
