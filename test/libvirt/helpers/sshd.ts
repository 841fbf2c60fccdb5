/**
 * A throwaway OpenSSH server on 127.0.0.1 for transport tests: its own host key, its own authorized_keys with one
 * client key, a free port, no PAM. Root logs in with the key; the remote side reaches this machine's libvirtd.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

export interface TestSshd {
  port: number;
  dir: string;
  /** Private key whose public half is authorized. */
  clientKey: string;
  /** A private key that is not authorized. */
  strangerKey: string;
  /** known_hosts holding this server's host key for [127.0.0.1]:port. */
  knownHosts: string;
  /** An empty known_hosts. */
  emptyKnownHosts: string;
  stop(): Promise<void>;
}

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function keygen(file: string): void {
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'vstest', '-f', file]);
}

export async function startSshd(): Promise<TestSshd> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-sshd-'));
  const hostKey = path.join(dir, 'host_ed25519');
  const clientKey = path.join(dir, 'client_ed25519');
  const strangerKey = path.join(dir, 'stranger_ed25519');
  keygen(hostKey);
  keygen(clientKey);
  keygen(strangerKey);
  fs.copyFileSync(`${clientKey}.pub`, path.join(dir, 'authorized_keys'));
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege separation directory
  const port = await freePort();
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${dir}/authorized_keys`,
      `PidFile ${dir}/sshd.pid`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  const knownHosts = path.join(dir, 'known_hosts');
  fs.writeFileSync(knownHosts, `[127.0.0.1]:${port} ${fs.readFileSync(`${hostKey}.pub`, 'utf8').split(' ').slice(0, 2).join(' ')}\n`);
  const emptyKnownHosts = path.join(dir, 'known_hosts_empty');
  fs.writeFileSync(emptyKnownHosts, '');
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (b: Buffer) => (log += b.toString()));
  // Ready when the port accepts connections.
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) break;
    if (i > 100) throw new Error(`sshd did not listen on ${port}: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    dir,
    clientKey,
    strangerKey,
    knownHosts,
    emptyKnownHosts,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
