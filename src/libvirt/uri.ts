/**
 * libvirt connection URIs (https://libvirt.org/uri.html, "Remote URIs"):
 *
 *   driver[+transport]://[user@][host][:port]/path[?param=value&...]
 *
 * e.g. `qemu:///system`, `qemu+unix:///system?socket=/run/libvirt/libvirt-sock`, `qemu+tcp://h:16509/system`,
 * `qemu+tls://h/system?pkipath=/etc/pki/libvirt`, `qemu+ssh://root@h/system?keyfile=~/.ssh/id_ed25519`.
 */

/** Transports this client speaks. */
export type LibvirtTransport = 'unix' | 'tcp' | 'tls' | 'ssh';

/** A parsed libvirt URI. */
export interface LibvirtUri {
  /** The URI as given. */
  readonly uri: string;
  /** Hypervisor driver, e.g. `qemu`. */
  readonly driver: string;
  readonly transport: LibvirtTransport;
  readonly user?: string;
  readonly host?: string;
  /** TCP port (tcp, tls, ssh); absent = the transport's default. */
  readonly port?: number;
  /** Path, e.g. `/system`. */
  readonly path: string;
  /** Query parameters, decoded. */
  readonly params: Readonly<Record<string, string>>;
  /** The URI the daemon is asked to open (CONNECT_OPEN `name`): transport, host and client-only params removed. */
  readonly serverName: string;
}

/** Default ports: libvirtd `tcp_port` and `tls_port`, ssh. */
/** The URI virtseed connects to when none is given (the provider block's `uri`, the CLI's `--uri`): the system QEMU driver on this machine. */
export const DEFAULT_LIBVIRT_URI = 'qemu:///system';

export const DEFAULT_TCP_PORT = 16509;
export const DEFAULT_TLS_PORT = 16514;
export const DEFAULT_SSH_PORT = 22;
/** Default system-daemon socket (libvirtd; `virtqemud-sock` etc. for modular daemons). */
export const DEFAULT_SYSTEM_SOCKET = '/var/run/libvirt/libvirt-sock';

/**
 * Query parameters the client itself consumes (libvirt "Remote URIs", "Extra parameters"), with the transports
 * each applies to; they are not forwarded in `serverName`. `connect_timeout` (seconds) is virtseed's own.
 * Any other parameter is an error: libvirt would forward it to the daemon, where no driver reads it.
 */
export const CLIENT_PARAMS: Readonly<Record<string, readonly LibvirtTransport[]>> = {
  name: ['unix', 'tcp', 'tls', 'ssh'],
  command: ['ssh'],
  socket: ['unix', 'ssh'],
  netcat: ['ssh'],
  keyfile: ['ssh'],
  no_verify: ['ssh', 'tls'],
  no_tty: ['ssh'],
  pkipath: ['tls'],
  known_hosts: ['ssh'],
  known_hosts_verify: ['ssh'],
  sshauth: ['ssh'],
  mode: ['unix', 'ssh'],
  proxy: ['ssh'],
  connect_timeout: ['unix', 'tcp', 'tls', 'ssh'],
};

/**
 * Default seconds to reach the host and finish the libvirt handshake (`?connect_timeout=` overrides): 10 for a
 * remote host (tcp, tls, ssh; also ssh's `ConnectTimeout`, which bounds its TCP connect and banner exchange), so a
 * host that accepts and never answers fails a `terraform plan` or `apply` (one attempt per provider process, two
 * processes for an apply) within 30 s; 30 for the local socket, whose daemon may be slow but is never far.
 */
export const DEFAULT_CONNECT_TIMEOUT_S = 10;
export const DEFAULT_LOCAL_CONNECT_TIMEOUT_S = 30;

/** `sshauth` methods (libvirt: agent, privkey, password, keyboard-interactive). */
const SSH_AUTH_METHODS = ['agent', 'privkey', 'password', 'keyboard-interactive'];

const UNSUPPORTED_TRANSPORTS: Record<string, string> = {
  ext: 'the "ext" transport runs an arbitrary command; use qemu+ssh or qemu+unix instead',
  libssh: 'use qemu+ssh (OpenSSH client) instead of the libssh transport',
  libssh2: 'use qemu+ssh (OpenSSH client) instead of the libssh2 transport',
};

/** Thrown for URIs this client cannot use; the message says what was given and what is accepted. */
export class LibvirtUriError extends Error {
  readonly uri: string;
  constructor(uri: string, reason: string) {
    super(`Invalid libvirt URI "${uri}": ${reason}`);
    this.name = 'LibvirtUriError';
    this.uri = uri;
  }
}

/** Parses a libvirt URI. Throws LibvirtUriError for malformed URIs, unknown transports or bad ports. */
export function parseLibvirtUri(uri: string): LibvirtUri {
  const m = /^([A-Za-z][A-Za-z0-9]*)(?:\+([A-Za-z0-9]+))?:\/\//.exec(uri);
  if (!m) throw new LibvirtUriError(uri, 'expected driver[+transport]://[user@][host][:port]/path, e.g. qemu:///system');
  const driver = m[1].toLowerCase();
  const transportName = m[2]?.toLowerCase();
  let url: URL;
  try {
    // WHATWG URL treats unknown schemes generically, which fits libvirt's syntax.
    url = new URL(`virt${uri.slice(m[1].length + (m[2] ? m[2].length + 1 : 0))}`);
  } catch {
    throw new LibvirtUriError(uri, 'not a well-formed URI');
  }
  const host = url.hostname ? decodeURIComponent(url.hostname.replace(/^\[(.*)\]$/, '$1')) : undefined;
  const user = url.username ? decodeURIComponent(url.username) : undefined;
  let port: number | undefined;
  if (url.port) {
    port = Number(url.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new LibvirtUriError(uri, `port ${url.port} is not in 1..65535`);
  }
  const params: Record<string, string> = {};
  for (const [k, v] of url.searchParams) params[k] = v;

  let transport: LibvirtTransport;
  if (transportName === undefined) transport = host ? 'tls' : 'unix';
  else if (transportName in UNSUPPORTED_TRANSPORTS) throw new LibvirtUriError(uri, UNSUPPORTED_TRANSPORTS[transportName]);
  else if (transportName === 'unix' || transportName === 'tcp' || transportName === 'tls' || transportName === 'ssh')
    transport = transportName;
  else throw new LibvirtUriError(uri, `unknown transport "${transportName}"; expected unix, tcp, tls or ssh`);

  if (transport === 'unix' && host) throw new LibvirtUriError(uri, `the unix transport is local and takes no host (got "${host}")`);
  if ((transport === 'tcp' || transport === 'tls' || transport === 'ssh') && !host) {
    throw new LibvirtUriError(uri, `the ${transport} transport needs a host, e.g. ${driver}+${transport}://host/system`);
  }
  if (port !== undefined && transport === 'unix') throw new LibvirtUriError(uri, 'the unix transport takes no port');
  const path = url.pathname || '/';
  checkParams(uri, transport, params);

  return { uri, driver, transport, user, host, port, path, params, serverName: params.name ?? serverNameOf(driver, path, params) };
}

/** Rejects unknown parameters, parameters of another transport and values outside what libvirt accepts. */
function checkParams(uri: string, transport: LibvirtTransport, params: Record<string, string>): void {
  for (const [k, v] of Object.entries(params)) {
    const applies = CLIENT_PARAMS[k];
    if (!applies) {
      throw new LibvirtUriError(
        uri,
        `unknown parameter "${k}"; the parameters are ${Object.keys(CLIENT_PARAMS).join(', ')} (libvirt "Remote URIs")`,
      );
    }
    if (!applies.includes(transport)) {
      throw new LibvirtUriError(uri, `parameter "${k}" applies to the ${applies.join('/')} transport, not ${transport}; remove it`);
    }
    const oneOf = (allowed: string[]): void => {
      if (!allowed.includes(v)) throw new LibvirtUriError(uri, `${k}=${v} is not one of ${allowed.join(', ')}`);
    };
    switch (k) {
      case 'no_verify':
      case 'no_tty':
        oneOf(['0', '1']);
        break;
      case 'known_hosts_verify':
        oneOf(['normal', 'auto', 'ignore']);
        break;
      case 'mode':
        oneOf(['auto', 'legacy', 'direct']);
        break;
      case 'proxy':
        oneOf(['auto', 'netcat', 'native']);
        break;
      case 'connect_timeout':
        if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 3600)
          throw new LibvirtUriError(uri, `connect_timeout=${v} is not a whole number of seconds in 1..3600`);
        break;
      case 'sshauth': {
        const methods = v.split(',').map((m) => m.trim());
        for (const m of methods) {
          if (!SSH_AUTH_METHODS.includes(m))
            throw new LibvirtUriError(uri, `sshauth method "${m}" is not one of ${SSH_AUTH_METHODS.join(', ')}`);
          if (m === 'password' || m === 'keyboard-interactive') {
            throw new LibvirtUriError(
              uri,
              `sshauth=${m} needs someone to type a password, and a Terraform provider cannot prompt; use sshauth=agent or sshauth=privkey with keyfile=`,
            );
          }
        }
        break;
      }
      case 'command':
      case 'netcat':
      case 'keyfile':
      case 'known_hosts':
      case 'pkipath':
      case 'socket':
      case 'name':
        if (!v) throw new LibvirtUriError(uri, `parameter "${k}" is empty`);
        break;
    }
  }
}

/** Seconds allowed to connect (`?connect_timeout=`, else DEFAULT_CONNECT_TIMEOUT_S or, for unix, DEFAULT_LOCAL_CONNECT_TIMEOUT_S). */
export function connectTimeoutSeconds(uri: LibvirtUri): number {
  if (uri.params.connect_timeout) return Number(uri.params.connect_timeout);
  return uri.transport === 'unix' ? DEFAULT_LOCAL_CONNECT_TIMEOUT_S : DEFAULT_CONNECT_TIMEOUT_S;
}

function serverNameOf(driver: string, path: string, params: Record<string, string>): string {
  const rest = Object.entries(params).filter(([k]) => !(k in CLIENT_PARAMS));
  const query = rest.length ? `?${rest.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '';
  return `${driver}://${path}${query}`;
}
