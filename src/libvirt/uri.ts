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
export const DEFAULT_TCP_PORT = 16509;
export const DEFAULT_TLS_PORT = 16514;
export const DEFAULT_SSH_PORT = 22;
/** Default system-daemon socket (libvirtd; `virtqemud-sock` etc. for modular daemons). */
export const DEFAULT_SYSTEM_SOCKET = '/var/run/libvirt/libvirt-sock';

/** Query parameters the client itself consumes; they are not forwarded in `serverName`. */
const CLIENT_PARAMS = new Set([
  'name', 'command', 'socket', 'netcat', 'keyfile', 'no_verify', 'no_tty', 'pkipath', 'known_hosts',
  'known_hosts_verify', 'sshauth', 'tls_priority', 'mode', 'proxy',
]);

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
  else if (transportName === 'unix' || transportName === 'tcp' || transportName === 'tls' || transportName === 'ssh') transport = transportName;
  else throw new LibvirtUriError(uri, `unknown transport "${transportName}"; expected unix, tcp, tls or ssh`);

  if (transport === 'unix' && host) throw new LibvirtUriError(uri, `the unix transport is local and takes no host (got "${host}")`);
  if ((transport === 'tcp' || transport === 'tls' || transport === 'ssh') && !host) {
    throw new LibvirtUriError(uri, `the ${transport} transport needs a host, e.g. ${driver}+${transport}://host/system`);
  }
  if (port !== undefined && transport === 'unix') throw new LibvirtUriError(uri, 'the unix transport takes no port');
  const path = url.pathname || '/';

  return { uri, driver, transport, user, host, port, path, params, serverName: params.name ?? serverNameOf(driver, path, params) };
}

function serverNameOf(driver: string, path: string, params: Record<string, string>): string {
  const rest = Object.entries(params).filter(([k]) => !CLIENT_PARAMS.has(k));
  const query = rest.length ? `?${rest.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : '';
  return `${driver}://${path}${query}`;
}
