/**
 * Several libvirt hosts on this machine, for the multi-host tests and benches: one privileged libvirtd per host,
 * each in a network namespace the helper makes and with libvirt's folders of its own, listening for TLS on its
 * namespace's address with certificates the helper makes. Nothing of it touches the system libvirtd.
 *
 * How a host is isolated (libvirt 9.0, privileged daemon):
 * - Network: namespace `vstest-<label>-hN` with a veth pair whose outer end is on a bridge `vsf-<label>` in the root
 *   namespace; the bridge holds `<subnet>.1/24` (the terraform side), host N `<subnet>.1N`. No namespace has a
 *   default route and the bridge forwards nowhere, so test traffic stays between these namespaces (and loopback).
 * - Folders: a privileged libvirtd has fixed paths (/etc/libvirt for its configuration and qemu.conf,
 *   /run/libvirt for sockets and runtime state, /var/lib/libvirt, /var/cache/libvirt, /var/log/libvirt), so each
 *   daemon runs in a mount namespace of its own (`unshare --mount --propagation private`) where those five folders
 *   are bind mounts of the host's folders under the helper's temporary folder. libvirtd's `--config` and
 *   `--pid-file` and virtlogd's `--pid-file` keep the pid files out of /run.
 * - qemu.conf per host: `cgroup_controllers = [ ]` (the daemons would otherwise share the system daemon's
 *   `machine` cgroups, named after domain id and name), `migration_address`/`migration_host` = the host's address
 *   (all namespaces share one hostname, so libvirt could not tell the hosts apart by name). libvirtd.conf per host:
 *   `host_uuid` (migration refuses a peer with the same host UUID), TLS only on the namespace's address,
 *   `log_outputs` into the host's log folder.
 * - Each host gets a storage pool `<prefix>pool` (a `dir` pool in the host's folder: the same pool name on every
 *   host, different paths, as on real hosts) and an isolated network `<prefix>net` (no forward mode).
 * - Certificates: one CA; per host a server certificate for its address that may also act as a client (peer-to-peer
 *   migration connects daemon to daemon); one client pkipath for terraform and the tests (`pkiPath`).
 *
 * `teardown()` kills every process in the namespaces (the daemons, their QEMU and dnsmasq), removes the
 * namespaces, the bridge and the folder, and checks that none of it is left.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connect } from '../../src/libvirt';
import { makeCa, makeCert, makeClientPkiPath } from './pki';
import { keepQemuLogs } from './qemu-logs';

export interface TestHost {
  /** 1-based. */
  readonly index: number;
  /** `h1`, `h2`, …: also the provider `host` block name the tests use. */
  readonly name: string;
  /** The host's address in its namespace. */
  readonly address: string;
  /** `qemu+tls://<address>/system?pkipath=<client pki>`. */
  readonly uri: string;
  readonly netns: string;
  /** The daemon's `host_uuid` (libvirt capabilities `<host><uuid>`). */
  readonly uuid: string;
  /** The host's folder (etc, run, lib, cache, log, pool). */
  readonly dir: string;
  /** The storage pool's folder. */
  readonly poolDir: string;
}

export interface TestHostsOptions {
  /** Short (≤ 4 characters, [a-z0-9]): names the namespaces, interfaces and folder, so two users do not meet. */
  readonly label: string;
  readonly count: number;
  /** The first three octets of the hosts' /24, e.g. `10.251.23`. */
  readonly subnet: string;
  /** `vstest-<stream>-`: the pool and network names on every host. */
  readonly prefix: string;
}

const GUEST_SUBNET = '10.252.0';
const SYSTEM_QEMU_CAPS = '/var/cache/libvirt/qemu/capabilities';

function run(cmd: string, args: string[], allowFail = false): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  if (r.status !== 0 && !allowFail) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return r.stdout ?? '';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class TestHosts {
  readonly dir: string;
  readonly hosts: TestHost[];
  /** A client pkipath folder (CA certificate, client certificate and key) for qemu+tls URIs. */
  readonly pkiPath: string;
  readonly bridge: string;
  readonly pool: string;
  readonly network: string;
  private readonly daemons = new Map<number, ChildProcess>();

  constructor(private readonly options: TestHostsOptions) {
    if (!/^[a-z0-9]{1,4}$/.test(options.label)) throw new Error(`label ${options.label}: 1-4 of [a-z0-9]`);
    this.dir = path.join(os.tmpdir(), `vstest-hosts-${options.label}`);
    this.pkiPath = path.join(this.dir, 'pki', 'client');
    this.bridge = `vsf-${options.label}`;
    this.pool = `${options.prefix}pool`;
    this.network = `${options.prefix}net`;
    this.hosts = Array.from({ length: options.count }, (_, i) => {
      const index = i + 1;
      const address = `${options.subnet}.${10 + index}`;
      const dir = path.join(this.dir, `h${index}`);
      return {
        index,
        name: `h${index}`,
        address,
        uri: `qemu+tls://${address}/system?pkipath=${this.pkiPath}`,
        netns: `vstest-${options.label}-h${index}`,
        uuid: `00000000-0000-4000-8000-${(0x23_0000_0000 + index).toString(16).padStart(12, '0')}`,
        dir,
        poolDir: path.join(dir, 'pool'),
      };
    });
  }

  /**
   * The `provider "virtseed"` block naming the hosts (`host { name = "h1", uri = ... }`, with `extra[name]` added
   * inside a host's block, e.g. `max_memory = 512`).
   */
  providerBlock(extra: Record<string, string> = {}): string {
    const blocks = this.hosts.map(
      (h) => `  host {\n    name = "${h.name}"\n    uri  = "${h.uri}"\n${extra[h.name] ? `    ${extra[h.name]}\n` : ''}  }\n`,
    );
    return `provider "virtseed" {\n${blocks.join('')}}`;
  }

  /** The root namespace's address on the bridge. */
  get gateway(): string {
    return `${this.options.subnet}.1`;
  }

  /** Makes the certificates, the network, the folders, starts every host and gives each its pool and network. */
  async setup(): Promise<void> {
    this.removeLeftovers();
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o755 });
    fs.chmodSync(this.dir, 0o755);
    const ca = path.join(this.dir, 'pki', 'ca');
    makeCa(ca, `vstest ${this.options.label} CA`);
    makeClientPkiPath(this.pkiPath, ca, 'vstest client');
    run('ip', ['link', 'add', this.bridge, 'type', 'bridge']);
    run('ip', ['addr', 'add', `${this.gateway}/24`, 'dev', this.bridge]);
    run('ip', ['link', 'set', this.bridge, 'up']);
    for (const h of this.hosts) this.prepareHost(h, ca);
    await Promise.all(this.hosts.map((h) => this.start(h.index)));
    for (const h of this.hosts) {
      this.virsh(h.index, ['pool-define-as', this.pool, 'dir', '--target', h.poolDir]);
      this.virsh(h.index, ['pool-start', this.pool]);
      const xml = path.join(h.dir, 'net.xml');
      fs.writeFileSync(
        xml,
        `<network><name>${this.network}</name><ip address='${GUEST_SUBNET}.1' prefix='24'><dhcp><range start='${GUEST_SUBNET}.100' end='${GUEST_SUBNET}.199'/></dhcp></ip></network>`,
      );
      this.virsh(h.index, ['net-define', xml]);
      this.virsh(h.index, ['net-start', this.network]);
    }
  }

  private prepareHost(h: TestHost, ca: string): void {
    for (const d of ['etc', 'run', 'lib', 'cache', 'log/qemu', 'pool', 'pki']) fs.mkdirSync(path.join(h.dir, d), { recursive: true });
    for (const d of ['', 'pool']) fs.chmodSync(path.join(h.dir, d), 0o755);
    // The system daemon's QEMU capabilities cache (same binaries, same machine): spares each daemon a ~10 s probe.
    if (fs.existsSync(SYSTEM_QEMU_CAPS))
      fs.cpSync(SYSTEM_QEMU_CAPS, path.join(h.dir, 'cache', 'qemu', 'capabilities'), { recursive: true });
    const pki = path.join(h.dir, 'pki');
    makeCert(pki, ca, 'server', `vstest ${h.name}`, { san: [`IP:${h.address}`], alsoClient: true });
    fs.writeFileSync(
      path.join(h.dir, 'etc', 'libvirtd.conf'),
      [
        'listen_tls = 1',
        'listen_tcp = 0',
        `listen_addr = "${h.address}"`,
        'auth_tls = "none"',
        `key_file = "${pki}/serverkey.pem"`,
        `cert_file = "${pki}/servercert.pem"`,
        `ca_file = "${ca}/cacert.pem"`,
        `host_uuid = "${h.uuid}"`,
        'log_outputs = "3:file:/var/log/libvirt/libvirtd.log"',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(h.dir, 'etc', 'qemu.conf'),
      ['cgroup_controllers = [ ]', `migration_address = "${h.address}"`, `migration_host = "${h.address}"`, ''].join('\n'),
    );
    const mounts = ['etc:/etc/libvirt', 'run:/run/libvirt', 'lib:/var/lib/libvirt', 'cache:/var/cache/libvirt', 'log:/var/log/libvirt'];
    fs.writeFileSync(
      path.join(h.dir, 'start.sh'),
      [
        'set -e',
        ...mounts.map((m) => `mount --bind ${path.join(h.dir, m.split(':')[0])} ${m.split(':')[1]}`),
        // virtlogd holds the guests' console logs: a libvirtd restart keeps the one that runs.
        `if ! { [ -s ${h.dir}/virtlogd.pid ] && kill -0 "$(cat ${h.dir}/virtlogd.pid)" 2>/dev/null; }; then virtlogd -p ${h.dir}/virtlogd.pid & fi`,
        `exec libvirtd --listen -p ${h.dir}/libvirtd.pid -f /etc/libvirt/libvirtd.conf`,
        '',
      ].join('\n'),
    );
    run('ip', ['netns', 'add', h.netns]);
    const veth = `${this.bridge}-${h.name}`;
    run('ip', ['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', h.netns]);
    run('ip', ['link', 'set', veth, 'master', this.bridge, 'up']);
    run('ip', ['-n', h.netns, 'addr', 'add', `${h.address}/24`, 'dev', 'eth0']);
    run('ip', ['-n', h.netns, 'link', 'set', 'eth0', 'up']);
    run('ip', ['-n', h.netns, 'link', 'set', 'lo', 'up']);
  }

  host(index: number): TestHost {
    const h = this.hosts[index - 1];
    if (!h) throw new Error(`no host ${index}`);
    return h;
  }

  /** Starts host `index`'s libvirtd (and its virtlogd unless that still runs) and waits until it answers over TLS. */
  async start(index: number): Promise<void> {
    const h = this.host(index);
    const stderr = fs.openSync(path.join(h.dir, 'stderr.log'), 'a');
    const child = spawn(
      'ip',
      ['netns', 'exec', h.netns, 'unshare', '--mount', '--propagation', 'private', 'sh', path.join(h.dir, 'start.sh')],
      { stdio: ['ignore', 'ignore', stderr], detached: true },
    );
    fs.closeSync(stderr);
    this.daemons.set(index, child);
    for (let i = 0; i < 150; i++) {
      if (child.exitCode !== null) break;
      try {
        const c = await connect(h.uri, { keepaliveInterval: 0 });
        await c.connectGetLibVersion();
        await c.close();
        return;
      } catch {
        await sleep(200);
      }
    }
    throw new Error(`host ${h.name} (${h.uri}) did not answer:\n${this.logTail(index)}`);
  }

  /** Stops host `index`'s libvirtd (its guests keep running, as on a real host whose daemon is down). */
  async stop(index: number): Promise<void> {
    const child = this.daemons.get(index);
    this.daemons.delete(index);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([gone, new Promise((r) => (timer = setTimeout(r, 10_000)))]);
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await gone;
    }
  }

  /** The end of host `index`'s daemon output and log (for failure messages). */
  logTail(index: number): string {
    const h = this.host(index);
    const tail = (f: string) => {
      try {
        return fs.readFileSync(f, 'utf8').split('\n').slice(-30).join('\n');
      } catch {
        return '';
      }
    };
    return `${tail(path.join(h.dir, 'stderr.log'))}\n${tail(path.join(h.dir, 'log', 'libvirtd.log'))}`;
  }

  /** Runs `virsh -c <host uri> ARGS`; throws with its output unless it exits 0. */
  virsh(index: number, args: string[]): string {
    const r = spawnSync('virsh', ['-c', this.host(index).uri, ...args], { encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) throw new Error(`virsh -c ${this.host(index).uri} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
    return r.stdout;
  }

  /** `virsh define` of `xml` on host `index`. */
  define(index: number, xml: string): string {
    const file = path.join(this.host(index).dir, 'define.xml');
    fs.writeFileSync(file, xml);
    return this.virsh(index, ['define', file]);
  }

  /** The names of host `index`'s domains (all, sorted). */
  domains(index: number): string[] {
    return lines(this.virsh(index, ['list', '--all', '--name']));
  }

  /** The names of host `index`'s running domains (sorted). */
  runningDomains(index: number): string[] {
    return lines(this.virsh(index, ['list', '--state-running', '--name']));
  }

  /** The names of the volumes in host `index`'s pool (refreshed first; sorted). */
  volumes(index: number): string[] {
    this.virsh(index, ['pool-refresh', this.pool]);
    return this.virsh(index, ['vol-list', this.pool])
      .split('\n')
      .slice(2)
      .map((l) => l.trim().split(/\s+/)[0])
      .filter(Boolean)
      .sort();
  }

  /** Every process in the namespaces, the namespaces, the bridge and the folder: removed. */
  async teardown(): Promise<void> {
    for (const index of [...this.daemons.keys()]) await this.stop(index).catch(() => undefined);
    for (const h of this.hosts) keepQemuLogs(path.join(h.dir, 'log', 'qemu'), `hosts-${this.options.label}-${h.name}`);
    this.removeLeftovers();
    const left = this.leftovers();
    if (left.length) throw new Error(`test hosts left: ${left.join(', ')}`);
  }

  /** What of this helper's namespaces, interfaces, processes and folder exists now. */
  leftovers(): string[] {
    const netns = run('ip', ['netns', 'list'], true);
    const links = run('ip', ['-o', 'link', 'show'], true);
    return [
      ...this.hosts.filter((h) => new RegExp(`^${h.netns}\\b`, 'm').test(netns)).map((h) => `netns ${h.netns}`),
      ...(links.includes(` ${this.bridge}`) ? [`interface ${this.bridge}*`] : []),
      ...(fs.existsSync(this.dir) ? [`folder ${this.dir}`] : []),
    ];
  }

  /** Kills what runs in our namespaces and removes them, the bridge and the folder (also what a crashed run left). */
  private removeLeftovers(): void {
    const netns = run('ip', ['netns', 'list'], true);
    const ours = this.hosts.filter((h) => new RegExp(`^${h.netns}\\b`, 'm').test(netns));
    for (const signal of ['TERM', 'KILL']) {
      const pids = ours.flatMap((h) => lines(run('ip', ['netns', 'pids', h.netns], true)));
      if (!pids.length) break;
      run('kill', [`-${signal}`, ...pids], true);
      for (let i = 0; i < 50 && ours.some((h) => lines(run('ip', ['netns', 'pids', h.netns], true)).length); i++)
        spawnSync('sleep', ['0.1']);
    }
    for (const h of ours) run('ip', ['netns', 'del', h.netns], true);
    if (run('ip', ['-o', 'link', 'show'], true).includes(` ${this.bridge}:`)) run('ip', ['link', 'del', this.bridge], true);
    for (const h of this.hosts) {
      const veth = `${this.bridge}-${h.name}`;
      if (run('ip', ['-o', 'link', 'show'], true).includes(` ${veth}@`)) run('ip', ['link', 'del', veth], true);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

function lines(s: string): string[] {
  return s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
}
