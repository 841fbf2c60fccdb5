/**
 * Opens the byte stream for a parsed libvirt URI, the way libvirt's remote driver does:
 * - unix: the daemon's socket (`?socket=`, else /var/run/libvirt/libvirt-sock, else the modular
 *   `virt<driver>d-sock`; session URIs use $XDG_RUNTIME_DIR/libvirt/libvirt-sock);
 * - tcp: plain TCP (port 16509);
 * - tls: TLS (port 16514) with the client certificate from `?pkipath=` or the usual places, then libvirtd's
 *   one-byte verdict on our certificate (1 = accepted);
 * - ssh: `ssh … host <proxy>` with the remote proxy `virt-ssh-helper URI` or `nc -U socket` (`?proxy=`),
 *   stdio piped.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Duplex } from 'node:stream';
import * as tls from 'node:tls';
import { LibvirtError, VIR_ERR_ERROR, VIR_ERR_NO_CONNECT, VIR_FROM_RPC } from '../errors';
import { DEFAULT_SSH_PORT, DEFAULT_SYSTEM_SOCKET, DEFAULT_TCP_PORT, DEFAULT_TLS_PORT, LibvirtUri, LibvirtUriError } from '../uri';

export interface TransportOptions {
  signal?: AbortSignal;
  /** ssh executable (default `ssh`). */
  sshCommand?: string;
}

function connectError(uri: LibvirtUri, what: string): LibvirtError {
  return new LibvirtError(VIR_ERR_NO_CONNECT, VIR_FROM_RPC, VIR_ERR_ERROR, `Cannot connect to ${uri.uri}: ${what}`);
}

export async function openTransport(uri: LibvirtUri, options: TransportOptions = {}): Promise<Duplex> {
  switch (uri.transport) {
    case 'unix':
      return connectSocket(uri, net.createConnection(unixSocketPath(uri)), options.signal);
    case 'tcp':
      return connectSocket(uri, net.createConnection({ host: uri.host, port: uri.port ?? DEFAULT_TCP_PORT }), options.signal);
    case 'tls':
      return openTls(uri, options.signal);
    case 'ssh':
      return openSsh(uri, options);
  }
}

/** The local socket path for a unix-transport URI. */
export function unixSocketPath(uri: LibvirtUri): string {
  if (uri.params.socket) return uri.params.socket;
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
      reject(connectError(uri, e.message));
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
      throw connectError(uri, `cannot read TLS file ${f} (${(e as Error).message}); set ?pkipath=DIR with cacert.pem, clientcert.pem, clientkey.pem`);
    }
  };
  const verify = uri.params.no_verify !== '1';
  const socket = tls.connect({
    host: uri.host, port: uri.port ?? DEFAULT_TLS_PORT, servername: net.isIP(uri.host ?? '') ? undefined : uri.host,
    ca: read(files.ca), cert: read(files.cert), key: read(files.key), rejectUnauthorized: verify,
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
      reject(connectError(uri, 'libvirtd closed the TLS connection (our client certificate was probably rejected)'));
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
    throw connectError(uri, 'libvirtd rejected our client certificate or IP address');
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
  if (uri.port !== undefined && uri.port !== DEFAULT_SSH_PORT) args.push('-p', String(uri.port));
  if (uri.user) args.push('-l', uri.user);
  if (p.keyfile) args.push('-i', p.keyfile.replace(/^~(?=\/)/, os.homedir()));
  if (p.no_verify === '1') args.push('-o', 'StrictHostKeyChecking=no');
  if (p.known_hosts) args.push('-o', `UserKnownHostsFile=${p.known_hosts}`);
  args.push('--', uri.host as string, remoteProxyCommand(uri));
  return args;
}

function remoteProxyCommand(uri: LibvirtUri): string {
  const p = uri.params;
  const socket = p.socket ?? (uri.path === '/session' ? '$XDG_RUNTIME_DIR/libvirt/libvirt-sock' : DEFAULT_SYSTEM_SOCKET);
  const nc = `${shellQuote(p.netcat ?? 'nc')} -U ${socket.startsWith('$') ? `"${socket}"` : shellQuote(socket)}`;
  const helper = `virt-ssh-helper ${shellQuote(uri.serverName)}`;
  const proxy = p.proxy ?? 'auto';
  if (proxy === 'netcat' || p.netcat || p.socket) return nc;
  if (proxy === 'native') return helper;
  if (proxy !== 'auto') throw new LibvirtUriError(uri.uri, `proxy=${proxy} is not one of auto, netcat, native`);
  return `sh -c ${shellQuote(`if command -v virt-ssh-helper >/dev/null 2>&1; then exec ${helper}; else exec ${nc}; fi`)}`;
}

async function openSsh(uri: LibvirtUri, options: TransportOptions): Promise<Duplex> {
  options.signal?.throwIfAborted();
  const child = spawn(options.sshCommand ?? 'ssh', sshArgs(uri), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    if (stderr.length < 4096) stderr += s;
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
  child.stdout.on('end', () => duplex.push(null));
  child.stdin.on('error', () => undefined); // reported through 'exit'
  child.on('error', (e) => duplex.destroy(connectError(uri, `cannot run ssh: ${e.message}`)));
  child.on('exit', (code, sig) => {
    if (code !== 0) duplex.destroy(connectError(uri, `ssh exited (${code ?? sig}): ${stderr.trim() || 'no output'}`));
    else duplex.destroy();
  });
  options.signal?.addEventListener('abort', () => duplex.destroy(), { once: true });
  return duplex;
}
