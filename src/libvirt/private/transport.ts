/**
 * Opens the byte stream for a parsed libvirt URI, the way libvirt's remote driver does:
 * - unix: the daemon's socket (`?socket=`, else /var/run/libvirt/libvirt-sock, else the modular
 *   `virt<driver>d-sock`; session URIs use $XDG_RUNTIME_DIR/libvirt/libvirt-sock);
 * - tcp: plain TCP (port 16509);
 * - tls: TLS (port 16514) with the client certificate from `?pkipath=` or the usual places, then libvirtd's
 *   one-byte verdict on our certificate (1 = accepted);
 * - ssh: `ssh … host <proxy>` with the remote proxy `virt-ssh-helper URI` or `nc -U socket` (`?proxy=`),
 *   stdio piped; ssh's own stderr becomes the error when it exits non-zero.
 * Every failure is a LibvirtConnectError naming the URI, the step (resolve, connect, authenticate, libvirt
 * handshake) and the fix.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { ConnectStep, LibvirtConnectError } from '../errors';
import {
  DEFAULT_SSH_PORT,
  DEFAULT_SYSTEM_SOCKET,
  DEFAULT_TCP_PORT,
  DEFAULT_TLS_PORT,
  LibvirtUri,
  LibvirtUriError,
  connectTimeoutSeconds,
} from '../uri';

export interface TransportOptions {
  signal?: AbortSignal;
  /** ssh executable (default `ssh`). */
  sshCommand?: string;
}

/** Seconds between ssh's own keepalives (ServerAliveInterval) and how many may go unanswered. */
export const SSH_ALIVE_INTERVAL_S = 5;
export const SSH_ALIVE_COUNT = 3;

function portOf(uri: LibvirtUri): number {
  return uri.port ?? (uri.transport === 'ssh' ? DEFAULT_SSH_PORT : uri.transport === 'tls' ? DEFAULT_TLS_PORT : DEFAULT_TCP_PORT);
}

/** The error for a socket (unix, tcp, tls) that could not be opened, classified by its errno / TLS code. */
export function socketConnectError(uri: LibvirtUri, e: Error & { code?: string }): LibvirtConnectError {
  const code = e.code ?? '';
  const where = uri.transport === 'unix' ? `socket ${unixSocketPath(uri)}` : `${uri.host} port ${portOf(uri)}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return new LibvirtConnectError(
      uri.uri,
      'resolve',
      `cannot resolve host name "${uri.host}" (${code})`,
      `check the host name in the URI (DNS or /etc/hosts)`,
    );
  }
  if (uri.transport === 'unix') {
    if (code === 'EACCES' || code === 'EPERM') {
      return new LibvirtConnectError(
        uri.uri,
        'authenticate',
        `no permission to open ${where} (${code})`,
        'run as root or as a member of the libvirt group, or use qemu:///session',
      );
    }
    return new LibvirtConnectError(
      uri.uri,
      'connect',
      `${where}: ${e.message}`,
      'start libvirtd (systemctl start libvirtd), or give its socket with ?socket=/path',
    );
  }
  if (/CERT|SIGNATURE|SELF_SIGNED|ALTNAME|ISSUER|ERR_SSL|certificate/i.test(`${code} ${e.message}`)) {
    return new LibvirtConnectError(
      uri.uri,
      'authenticate',
      `TLS: the server certificate of ${where} is not trusted: ${e.message}`,
      `put the CA that signed the server's certificate in ${tlsFiles(uri).ca} (?pkipath=DIR holds cacert.pem, clientcert.pem, clientkey.pem), make the certificate name the host "${uri.host}", or skip the check with ?no_verify=1`,
    );
  }
  if (code === 'ETIMEDOUT' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return new LibvirtConnectError(
      uri.uri,
      'connect',
      `${where}: ${e.message}`,
      `check that ${uri.host} is reachable and libvirtd listens on port ${portOf(uri)}`,
    );
  }
  const listen = uri.transport === 'tls' ? 'listen_tls = 1 (port 16514)' : 'listen_tcp = 1 (port 16509)';
  return new LibvirtConnectError(
    uri.uri,
    'connect',
    `${where}: ${e.message}`,
    `check that libvirtd runs on ${uri.host} with ${listen} (or libvirtd-${uri.transport}.socket), and the port in the URI`,
  );
}

export async function openTransport(uri: LibvirtUri, options: TransportOptions = {}): Promise<Duplex> {
  switch (uri.transport) {
    case 'unix':
      return connectSocket(uri, net.createConnection(unixSocketPath(uri)), options.signal);
    case 'tcp':
      return connectSocket(uri, net.createConnection({ host: uri.host, port: portOf(uri) }), options.signal);
    case 'tls':
      return openTls(uri, options.signal);
    case 'ssh':
      return openSsh(uri, options);
  }
}

/** The local socket path for a unix-transport URI. */
export function unixSocketPath(uri: LibvirtUri): string {
  if (uri.params.socket) return uri.params.socket;
  if (uri.params.mode === 'legacy') return DEFAULT_SYSTEM_SOCKET;
  if (uri.params.mode === 'direct' && uri.path !== '/session') return `/var/run/libvirt/virt${uri.driver}d-sock`;
  if (uri.path === '/session') {
    const runtime = process.env.XDG_RUNTIME_DIR ?? path.join(os.homedir(), '.cache');
    return path.join(runtime, 'libvirt', 'libvirt-sock');
  }
  if (fs.existsSync(DEFAULT_SYSTEM_SOCKET)) return DEFAULT_SYSTEM_SOCKET;
  const modular = `/var/run/libvirt/virt${uri.driver}d-sock`;
  return fs.existsSync(modular) ? modular : DEFAULT_SYSTEM_SOCKET;
}

function connectSocket<T extends net.Socket>(uri: LibvirtUri, socket: T, signal?: AbortSignal, readyEvent = 'connect'): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      socket.destroy();
      reject(signal?.reason);
    };
    const onError = (e: Error): void => {
      signal?.removeEventListener('abort', onAbort);
      reject(socketConnectError(uri, e));
    };
    socket.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once(readyEvent, () => {
      socket.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
      resolve(socket);
    });
  });
}

/** Client certificate files libvirt looks for (libvirt "TLS x509 certificates": pkipath, then root/user defaults). */
export function tlsFiles(uri: LibvirtUri): { ca: string; cert: string; key: string } {
  const dir = uri.params.pkipath;
  if (dir) return { ca: path.join(dir, 'cacert.pem'), cert: path.join(dir, 'clientcert.pem'), key: path.join(dir, 'clientkey.pem') };
  const userDir = path.join(os.homedir(), '.pki', 'libvirt');
  if (process.getuid?.() !== 0 && fs.existsSync(path.join(userDir, 'clientcert.pem'))) {
    return { ca: path.join(userDir, 'cacert.pem'), cert: path.join(userDir, 'clientcert.pem'), key: path.join(userDir, 'clientkey.pem') };
  }
  return { ca: '/etc/pki/CA/cacert.pem', cert: '/etc/pki/libvirt/clientcert.pem', key: '/etc/pki/libvirt/private/clientkey.pem' };
}

async function openTls(uri: LibvirtUri, signal?: AbortSignal): Promise<Duplex> {
  const files = tlsFiles(uri);
  const read = (f: string): Buffer => {
    try {
      return fs.readFileSync(f);
    } catch (e) {
      throw new LibvirtConnectError(
        uri.uri,
        'authenticate',
        `cannot read TLS file ${f} (${(e as Error).message})`,
        'set ?pkipath=DIR to a directory with cacert.pem, clientcert.pem and clientkey.pem',
      );
    }
  };
  const verify = uri.params.no_verify !== '1';
  const socket = tls.connect({
    host: uri.host,
    port: portOf(uri),
    servername: net.isIP(uri.host ?? '') ? undefined : uri.host,
    ca: read(files.ca),
    cert: read(files.cert),
    key: read(files.key),
    rejectUnauthorized: verify,
  });
  await connectSocket(uri, socket, signal, 'secureConnect');
  // libvirtd checks our certificate after the handshake and sends one byte: 1 = accepted.
  const verdict = await new Promise<number>((resolve, reject) => {
    const onReadable = (): void => {
      const b = socket.read(1) as Buffer | null;
      if (b === null) return;
      cleanup();
      resolve(b[0]);
    };
    const onEnd = (): void => {
      cleanup();
      reject(
        new LibvirtConnectError(
          uri.uri,
          'authenticate',
          'libvirtd closed the TLS connection before accepting our client certificate',
          `use a client certificate signed by the CA libvirtd trusts (${files.cert}), and check tls_allowed_dn_list in libvirtd.conf`,
        ),
      );
    };
    const cleanup = (): void => {
      socket.off('readable', onReadable);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
    };
    socket.on('readable', onReadable);
    socket.once('end', onEnd);
    socket.once('error', onEnd);
  });
  if (verdict !== 1) {
    socket.destroy();
    throw new LibvirtConnectError(
      uri.uri,
      'authenticate',
      'libvirtd rejected our client certificate or IP address',
      `use a client certificate libvirtd accepts (${files.cert}; check tls_allowed_dn_list in libvirtd.conf)`,
    );
  }
  return socket;
}

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The ssh command line for an ssh-transport URI (exported for tests). */
export function sshArgs(uri: LibvirtUri): string[] {
  const p = uri.params;
  const args: string[] = ['-T', '-e', 'none', '-o', 'BatchMode=yes'];
  args.push('-o', `ConnectTimeout=${connectTimeoutSeconds(uri)}`);
  args.push('-o', `ServerAliveInterval=${SSH_ALIVE_INTERVAL_S}`, '-o', `ServerAliveCountMax=${SSH_ALIVE_COUNT}`);
  if (uri.port !== undefined && uri.port !== DEFAULT_SSH_PORT) args.push('-p', String(uri.port));
  if (uri.user) args.push('-l', uri.user);
  if (p.keyfile) args.push('-i', expandHome(p.keyfile));
  // libvirt: no_verify=1 auto-accepts new host keys (known ones are still checked); known_hosts_verify
  // normal = only known keys, auto = accept new keys, ignore = no check at all.
  const verify = p.known_hosts_verify ?? (p.no_verify === '1' ? 'auto' : undefined);
  if (verify === 'normal') args.push('-o', 'StrictHostKeyChecking=yes');
  if (verify === 'auto') args.push('-o', 'StrictHostKeyChecking=accept-new');
  if (verify === 'ignore') args.push('-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/dev/null');
  else if (p.known_hosts) args.push('-o', `UserKnownHostsFile=${expandHome(p.known_hosts)}`);
  if (p.sshauth) {
    const methods = p.sshauth.split(',').map((m) => m.trim());
    // agent and privkey are both ssh "publickey"; without agent, ssh-agent is not asked.
    args.push('-o', 'PreferredAuthentications=publickey');
    if (!methods.includes('agent')) args.push('-o', 'IdentityAgent=none');
  }
  args.push('--', uri.host as string, remoteProxyCommand(uri));
  return args;
}

function expandHome(p: string): string {
  return p.replace(/^~(?=\/)/, os.homedir());
}

/** The socket the remote proxy opens: ?socket=, the session socket, or the mode's system socket. */
function remoteSocket(uri: LibvirtUri): string {
  const p = uri.params;
  if (p.socket) return p.socket;
  if (uri.path === '/session') return '$XDG_RUNTIME_DIR/libvirt/libvirt-sock';
  return p.mode === 'direct' ? `/var/run/libvirt/virt${uri.driver}d-sock` : DEFAULT_SYSTEM_SOCKET;
}

function remoteProxyCommand(uri: LibvirtUri): string {
  const p = uri.params;
  const socket = remoteSocket(uri);
  const nc = `${shellQuote(p.netcat ?? 'nc')} -U ${socket.startsWith('$') ? `"${socket}"` : shellQuote(socket)}`;
  const helper = `virt-ssh-helper ${shellQuote(uri.serverName)}`;
  const proxy = p.proxy ?? 'auto';
  if (proxy === 'netcat' || p.netcat || p.socket || p.mode === 'legacy' || p.mode === 'direct') return nc;
  if (proxy === 'native') return helper;
  if (proxy !== 'auto') throw new LibvirtUriError(uri.uri, `proxy=${proxy} is not one of auto, netcat, native`);
  return `sh -c ${shellQuote(`if command -v virt-ssh-helper >/dev/null 2>&1; then exec ${helper}; else exec ${nc}; fi`)}`;
}

/**
 * The error for an ssh that exited with `code` (255 = ssh itself failed; anything else = the remote proxy failed)
 * and wrote `stderr`, classified by what OpenSSH says.
 */
export function sshError(uri: LibvirtUri, code: number | null, signal: string | null, stderr: string): LibvirtConnectError {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^Warning: Permanently added/.test(l));
  const said = lines.length ? `ssh said: ${lines.slice(-4).join(' / ')}` : `ssh exited (${code ?? signal}) without a message`;
  const host = uri.host as string;
  const port = portOf(uri);
  const user = uri.user ?? os.userInfo().username;
  const text = lines.join('\n');
  const fail = (step: ConnectStep, fix: string): LibvirtConnectError => new LibvirtConnectError(uri.uri, step, said, fix);
  if (/Could not resolve hostname|Name or service not known|Temporary failure in name resolution|No address associated/i.test(text)) {
    return fail('resolve', `check the host name "${host}" in the URI (DNS or /etc/hosts)`);
  }
  if (/Connection refused/i.test(text))
    return fail('connect', `check that sshd listens on ${host} port ${port}; give another port in the URI (qemu+ssh://${host}:PORT/...)`);
  if (
    /timed out|No route to host|Network is unreachable|Connection reset|Connection closed by remote host|kex_exchange_identification/i.test(
      text,
    ) &&
    !/Permission denied/i.test(text)
  ) {
    return fail(
      'connect',
      `check that ${host} is reachable and an sshd answers on port ${port}; for slow links raise ?connect_timeout= (now ${connectTimeoutSeconds(uri)} s)`,
    );
  }
  if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|host key .* not known|No \S+ host key is known/i.test(text)) {
    return fail(
      'authenticate',
      `add the host's key to known_hosts (ssh-keyscan -p ${port} ${host} >> ~/.ssh/known_hosts), point ?known_hosts= at a file that has it, or accept a new key with ?known_hosts_verify=auto`,
    );
  }
  if (/Permission denied|Too many authentication failures|Load key|no such identity|not accessible|invalid format/i.test(text)) {
    return fail(
      'authenticate',
      `give a private key with ?keyfile=/path/to/key (or load it into ssh-agent) whose public key is in ${user}'s ~/.ssh/authorized_keys on ${host}; the user is the URI's user@ part`,
    );
  }
  if (code === 255 || signal)
    return fail('connect', `check that ${host} runs sshd on port ${port}; run ssh -p ${port} ${user}@${host} by hand to see more`);
  return fail(
    'libvirt handshake',
    `check that libvirtd runs on ${host} and listens on ${remoteSocket(uri)} (?socket=, ?mode=), and that nc or virt-ssh-helper is installed there (?netcat=, ?proxy=)`,
  );
}

async function openSsh(uri: LibvirtUri, options: TransportOptions): Promise<Duplex> {
  options.signal?.throwIfAborted();
  const command = uri.params.command ?? options.sshCommand ?? 'ssh';
  const child = spawn(command, sshArgs(uri), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    stderr = (stderr + s).slice(-8192);
  });
  const duplex = new Duplex({
    read() {
      child.stdout.resume();
    },
    write(chunk: Buffer, _enc, cb) {
      if (!child.stdin.write(chunk)) child.stdin.once('drain', () => cb());
      else cb();
    },
    final(cb) {
      child.stdin.end();
      cb();
    },
    destroy(err, cb) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      cb(err);
    },
  });
  child.stdout.on('data', (chunk: Buffer) => {
    if (!duplex.push(chunk)) child.stdout.pause();
  });
  child.stdin.on('error', () => undefined); // reported through 'close'
  child.on('error', (e) =>
    duplex.destroy(
      new LibvirtConnectError(
        uri.uri,
        'connect',
        `cannot run ${command}: ${e.message}`,
        'install the OpenSSH client (apt-get install openssh-client) or give its path with ?command=',
      ),
    ),
  );
  // End of stdout is reported only once ssh has exited, so its exit status and stderr explain the end.
  child.on('close', (code, sig) => {
    if (duplex.destroyed) return;
    if (code !== 0) duplex.destroy(sshError(uri, code, sig, stderr));
    else duplex.push(null);
  });
  options.signal?.addEventListener('abort', () => duplex.destroy(), { once: true });
  return duplex;
}
