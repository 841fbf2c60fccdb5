/**
 * LibvirtClient over libvirt's remote RPC protocol (`src/remote/remote_protocol.x`): each method encodes its
 * `remote_<proc>_args` struct, calls the procedure, and decodes `remote_<proc>_ret`.
 */
import { VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM } from './client';
import type {
  DomainJobStats,
  DomainInfo,
  DomainInterfaceAddresses,
  DomainStateInfo,
  LibvirtClient,
  NetworkDhcpLease,
  NodeInfo,
  StoragePoolInfo,
  StorageVolInfo,
} from './client';
import { LibvirtConnectError, LibvirtError, VIR_ERR_AUTH_FAILED, VIR_ERR_ERROR, VIR_ERR_RPC, VIR_FROM_RPC } from './errors';
import {
  DomRef,
  NetRef,
  PoolRef,
  REMOTE_AUTH_NONE,
  REMOTE_AUTH_POLKIT,
  REMOTE_STRING_MAX,
  RemoteProcedure as P,
  SnapRef,
  TypedParam,
  VolRef,
  CheckpointRef,
  readCheckpoint,
  readDom,
  readNet,
  readPool,
  readSnap,
  readTypedParam,
  readVol,
  writeCheckpoint,
  writeDom,
  writeNet,
  writeOptionalString,
  writePool,
  writeSnap,
  writeTypedParam,
  writeVol,
} from './protocol';
import { CallOptions, RpcConnection, RpcConnectionOptions, StreamOptions, UploadOptions } from './rpc';
import { LibvirtUri, connectTimeoutSeconds, parseLibvirtUri } from './uri';
import { XdrReader, XdrWriter } from './xdr';
import { openTransport } from './private/transport';
import { fromBytes } from './private/rechunk';

/** `VIR_CONNECT_RO`: open read-only. */
export const VIR_CONNECT_RO = 1;

export interface ConnectOptions extends RpcConnectionOptions {
  /** Aborts connecting (transport and handshake). */
  signal?: AbortSignal;
  /** Open read-only (VIR_CONNECT_RO). */
  readonly?: boolean;
  /** ssh executable for qemu+ssh URIs (default `ssh`). */
  sshCommand?: string;
}

/**
 * Connects to libvirtd: opens the URI's transport, negotiates authentication (none or polkit; SASL is not
 * supported), and opens the hypervisor connection with the URI's server part (e.g. `qemu:///system`).
 * The whole of it is bounded by `?connect_timeout=` seconds (default 10 for a remote host, 30 for the local socket;
 * ssh gets 5 s more to report its own timeout, e.g. `Connection timed out during banner exchange`). Keepalive
 * pings start once the connection is open: until then the deadline alone decides, so a silent host is reported
 * with its transport's own reason. Throws LibvirtUriError for bad URIs and LibvirtConnectError (naming the URI, the step that failed and
 * the fix) when the daemon cannot be reached or refuses; rejects with the signal's reason when aborted.
 */
export async function connect(uri: string, options: ConnectOptions = {}): Promise<RemoteLibvirtClient> {
  const parsed = parseLibvirtUri(uri);
  const seconds = connectTimeoutSeconds(parsed) + (parsed.transport === 'ssh' ? 5 : 0);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), seconds * 1000);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
  let step: 'connect' | 'libvirt handshake' = 'connect';
  let rpc: RpcConnection | undefined;
  try {
    const socket = await openTransport(parsed, { signal, sshCommand: options.sshCommand });
    step = 'libvirt handshake';
    rpc = new RpcConnection(socket, { ...options, keepaliveInterval: 0 });
    await authenticate(rpc, uri, signal);
    const w = new XdrWriter();
    writeOptionalString(w, parsed.serverName);
    w.uint(options.readonly ? VIR_CONNECT_RO : 0);
    await rpc.call(P.CONNECT_OPEN, w.finish(), { signal });
    rpc.startKeepalive(options.keepaliveInterval, options.keepaliveCount);
    return new RemoteLibvirtClient(rpc);
  } catch (e) {
    // ssh explains itself only once it has exited: give it a moment after the end of its output.
    if (rpc && parsed.transport === 'ssh' && !rpc.transportError && !options.signal?.aborted) await delay(1000);
    const transportError = rpc?.transportError;
    await rpc?.destroy();
    if (options.signal?.aborted) throw e;
    if (transportError instanceof LibvirtConnectError) throw transportError;
    if (e instanceof LibvirtConnectError) throw e;
    if (deadline.signal.aborted) throw timeoutError(parsed, step, seconds);
    if (e instanceof LibvirtError && e.code === VIR_ERR_AUTH_FAILED) {
      throw new LibvirtConnectError(
        uri,
        'authenticate',
        e.message,
        'connect over a unix socket (polkit or auth "none"), or over TLS with client certificates',
      );
    }
    if (e instanceof LibvirtError) {
      throw new LibvirtConnectError(
        uri,
        'libvirt handshake',
        e.message,
        `check that libvirtd runs on the host and serves ${parsed.serverName} (a driver it has, e.g. qemu:///system), and that this user may open it`,
      );
    }
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function timeoutError(uri: LibvirtUri, step: 'connect' | 'libvirt handshake', seconds: number): LibvirtConnectError {
  const where = uri.host ? `${uri.host}${uri.port ? `:${uri.port}` : ''}` : 'the local socket';
  return step === 'connect'
    ? new LibvirtConnectError(
        uri.uri,
        'connect',
        `no connection to ${where} within ${seconds} s`,
        `check that the host is up and the port is right; a firewall that drops packets looks like this. For slow links raise ?connect_timeout= (seconds)`,
      )
    : new LibvirtConnectError(
        uri.uri,
        'libvirt handshake',
        `${where} accepted the connection but libvirtd did not answer within ${seconds} s`,
        `${uri.host ? "check that the port is libvirtd's (16509 tcp, 16514 tls) and not another service" : "check that the socket is libvirtd's"}, and that libvirtd is not hung (stopped, or its threads all busy); raise ?connect_timeout= for slow links`,
      );
}

async function authenticate(rpc: RpcConnection, uri: string, signal?: AbortSignal): Promise<void> {
  let types: number[];
  try {
    types = new XdrReader(await rpc.call(P.AUTH_LIST, undefined, { signal })).array((r) => r.enum(), 20);
  } catch (e) {
    // Daemons without AUTH_LIST answer with an RPC error: they need no authentication.
    if (e instanceof LibvirtError && e.code === VIR_ERR_RPC && !rpc.isClosed) return;
    throw e;
  }
  if (types.length === 0 || types.includes(REMOTE_AUTH_NONE)) return;
  if (types.includes(REMOTE_AUTH_POLKIT)) {
    const complete = new XdrReader(await rpc.call(P.AUTH_POLKIT, undefined, { signal })).int();
    if (complete) return;
  }
  throw new LibvirtError(
    VIR_ERR_AUTH_FAILED,
    VIR_FROM_RPC,
    VIR_ERR_ERROR,
    `libvirtd requires authentication this client cannot do (offered: ${types.map(authName).join(', ')})`,
  );
}

function authName(t: number): string {
  return ['none', 'sasl', 'polkit'][t] ?? `type ${t}`;
}

type Writer = (w: XdrWriter) => void;

export class RemoteLibvirtClient implements LibvirtClient {
  private closing: Promise<void> | null = null;

  constructor(private readonly rpc: RpcConnection) {}

  /** True once closed or the connection was lost. */
  get isClosed(): boolean {
    return this.rpc.isClosed;
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      if (!this.rpc.isClosed) {
        try {
          await this.rpc.call(P.CONNECT_CLOSE);
        } catch {
          // closing anyway
        }
      }
      await this.rpc.destroy();
    })();
    return this.closing;
  }

  private async call<T>(proc: number, write: Writer | null, read: (r: XdrReader) => T, options?: CallOptions): Promise<T> {
    let args: Uint8Array | undefined;
    if (write) {
      const w = new XdrWriter();
      write(w);
      args = w.finish();
    }
    const r = new XdrReader(await this.rpc.call(proc, args, options));
    const out = read(r);
    r.end();
    return out;
  }

  private async callVoid(proc: number, write: Writer | null, options?: CallOptions): Promise<void> {
    await this.call(proc, write, () => undefined, options);
  }

  // migration between hosts

  domainMigratePerform3Params(
    dom: DomRef,
    dconnuri: string,
    params: readonly TypedParam[],
    flags: number,
    options?: CallOptions,
  ): Promise<void> {
    // remote_domain_migrate_perform3_params_args: dom, dconnuri, params<>, cookie_in<>, flags; ret: cookie_out<>
    // (only the source daemon's own business in peer-to-peer mode).
    return this.call(
      P.DOMAIN_MIGRATE_PERFORM3_PARAMS,
      (w) => {
        writeDom(w, dom);
        writeOptionalString(w, dconnuri);
        w.array(params, (x, p) => writeTypedParam(x, p));
        w.opaque(new Uint8Array(0));
        w.uint(flags);
      },
      (r) => void r.opaque(),
      options,
    );
  }
  domainAbortJob(dom: DomRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_ABORT_JOB, (w) => writeDom(w, dom), options);
  }

  // connection

  connectGetLibVersion(options?: CallOptions): Promise<number> {
    return this.call(P.CONNECT_GET_LIB_VERSION, null, (r) => r.uhyperNumber(), options);
  }
  connectGetUri(options?: CallOptions): Promise<string> {
    return this.call(P.CONNECT_GET_URI, null, (r) => r.string(REMOTE_STRING_MAX), options);
  }
  connectGetHostname(options?: CallOptions): Promise<string> {
    return this.call(P.CONNECT_GET_HOSTNAME, null, (r) => r.string(REMOTE_STRING_MAX), options);
  }
  connectListAllDomains(flags = 0, options?: CallOptions): Promise<DomRef[]> {
    return this.call(
      P.CONNECT_LIST_ALL_DOMAINS,
      (w) => w.int(1).uint(flags),
      (r) => listWithCount(r, readDom),
      options,
    );
  }
  connectListAllStoragePools(flags = 0, options?: CallOptions): Promise<PoolRef[]> {
    return this.call(
      P.CONNECT_LIST_ALL_STORAGE_POOLS,
      (w) => w.int(1).uint(flags),
      (r) => listWithCount(r, readPool),
      options,
    );
  }

  connectGetVersion(options?: CallOptions): Promise<number> {
    return this.call(P.CONNECT_GET_VERSION, null, (r) => r.uhyperNumber(), options);
  }
  connectGetCapabilities(options?: CallOptions): Promise<string> {
    return this.call(P.CONNECT_GET_CAPABILITIES, null, (r) => r.string(REMOTE_STRING_MAX), options);
  }
  connectGetDomainCapabilities(
    query: { emulator?: string | null; arch?: string | null; machine?: string | null; virttype?: string | null },
    flags = 0,
    options?: CallOptions,
  ): Promise<string> {
    return this.call(
      P.CONNECT_GET_DOMAIN_CAPABILITIES,
      (w) => {
        for (const s of [query.emulator, query.arch, query.machine, query.virttype]) writeOptionalString(w, s ?? null);
        w.uint(flags);
      },
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  nodeGetInfo(options?: CallOptions): Promise<NodeInfo> {
    return this.call(P.NODE_GET_INFO, null, readNodeInfo, options);
  }
  nodeGetFreeMemory(options?: CallOptions): Promise<number> {
    return this.call(P.NODE_GET_FREE_MEMORY, null, (r) => r.uhyperNumber(), options);
  }

  // storage pools

  storagePoolLookupByName(name: string, options?: CallOptions): Promise<PoolRef> {
    return this.call(P.STORAGE_POOL_LOOKUP_BY_NAME, (w) => w.string(name), readPool, options);
  }
  storagePoolLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<PoolRef> {
    return this.call(P.STORAGE_POOL_LOOKUP_BY_UUID, (w) => w.fixedOpaque(uuid, 16), readPool, options);
  }
  storagePoolDefineXml(xml: string, flags = 0, options?: CallOptions): Promise<PoolRef> {
    return this.call(P.STORAGE_POOL_DEFINE_XML, (w) => w.string(xml).uint(flags), readPool, options);
  }
  storagePoolCreate(pool: PoolRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_CREATE, (w) => (writePool(w, pool), w.uint(flags)), options);
  }
  storagePoolBuild(pool: PoolRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_BUILD, (w) => (writePool(w, pool), w.uint(flags)), options);
  }
  storagePoolDestroy(pool: PoolRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_DESTROY, (w) => writePool(w, pool), options);
  }
  storagePoolUndefine(pool: PoolRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_UNDEFINE, (w) => writePool(w, pool), options);
  }
  storagePoolGetInfo(pool: PoolRef, options?: CallOptions): Promise<StoragePoolInfo> {
    return this.call(
      P.STORAGE_POOL_GET_INFO,
      (w) => writePool(w, pool),
      (r) => ({
        state: r.uint(),
        capacity: r.uhyperNumber(),
        allocation: r.uhyperNumber(),
        available: r.uhyperNumber(),
      }),
      options,
    );
  }
  storagePoolGetXmlDesc(pool: PoolRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.STORAGE_POOL_GET_XML_DESC,
      (w) => (writePool(w, pool), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  storagePoolRefresh(pool: PoolRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_REFRESH, (w) => (writePool(w, pool), w.uint(flags)), options);
  }
  storagePoolGetAutostart(pool: PoolRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.STORAGE_POOL_GET_AUTOSTART,
      (w) => writePool(w, pool),
      (r) => r.int() !== 0,
      options,
    );
  }
  storagePoolSetAutostart(pool: PoolRef, autostart: boolean, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_SET_AUTOSTART, (w) => (writePool(w, pool), w.int(autostart ? 1 : 0)), options);
  }
  storagePoolIsActive(pool: PoolRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.STORAGE_POOL_IS_ACTIVE,
      (w) => writePool(w, pool),
      (r) => r.int() !== 0,
      options,
    );
  }
  storagePoolListAllVolumes(pool: PoolRef, flags = 0, options?: CallOptions): Promise<VolRef[]> {
    return this.call(
      P.STORAGE_POOL_LIST_ALL_VOLUMES,
      (w) => (writePool(w, pool), w.int(1).uint(flags)),
      (r) => listWithCount(r, readVol),
      options,
    );
  }

  storagePoolDelete(pool: PoolRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_POOL_DELETE, (w) => (writePool(w, pool), w.uint(flags)), options);
  }
  storagePoolIsPersistent(pool: PoolRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.STORAGE_POOL_IS_PERSISTENT,
      (w) => writePool(w, pool),
      (r) => r.int() !== 0,
      options,
    );
  }

  // volumes

  storageVolCreateXml(pool: PoolRef, xml: string, flags = 0, options?: CallOptions): Promise<VolRef> {
    return this.call(P.STORAGE_VOL_CREATE_XML, (w) => (writePool(w, pool), w.string(xml).uint(flags)), readVol, options);
  }
  storageVolCreateXmlFrom(pool: PoolRef, xml: string, clone: VolRef, flags = 0, options?: CallOptions): Promise<VolRef> {
    return this.call(
      P.STORAGE_VOL_CREATE_XML_FROM,
      (w) => (writePool(w, pool), w.string(xml), writeVol(w, clone), w.uint(flags)),
      readVol,
      options,
    );
  }
  storageVolLookupByName(pool: PoolRef, name: string, options?: CallOptions): Promise<VolRef> {
    return this.call(P.STORAGE_VOL_LOOKUP_BY_NAME, (w) => (writePool(w, pool), w.string(name)), readVol, options);
  }
  storageVolLookupByKey(key: string, options?: CallOptions): Promise<VolRef> {
    return this.call(P.STORAGE_VOL_LOOKUP_BY_KEY, (w) => w.string(key), readVol, options);
  }
  storageVolLookupByPath(path: string, options?: CallOptions): Promise<VolRef> {
    return this.call(P.STORAGE_VOL_LOOKUP_BY_PATH, (w) => w.string(path), readVol, options);
  }
  storageVolGetPath(vol: VolRef, options?: CallOptions): Promise<string> {
    return this.call(
      P.STORAGE_VOL_GET_PATH,
      (w) => writeVol(w, vol),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  storageVolGetXmlDesc(vol: VolRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.STORAGE_VOL_GET_XML_DESC,
      (w) => (writeVol(w, vol), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  storageVolGetInfo(vol: VolRef, options?: CallOptions): Promise<StorageVolInfo> {
    return this.call(
      P.STORAGE_VOL_GET_INFO,
      (w) => writeVol(w, vol),
      (r) => ({
        type: r.int(),
        capacity: r.uhyperNumber(),
        allocation: r.uhyperNumber(),
      }),
      options,
    );
  }
  storageVolDelete(vol: VolRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_VOL_DELETE, (w) => (writeVol(w, vol), w.uint(flags)), options);
  }
  storageVolResize(vol: VolRef, capacity: bigint | number, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.STORAGE_VOL_RESIZE, (w) => (writeVol(w, vol), w.uhyper(capacity).uint(flags)), options);
  }
  storageVolUpload(
    vol: VolRef,
    data: Uint8Array | AsyncIterable<Uint8Array>,
    offset = 0,
    length?: number,
    options?: UploadOptions,
  ): Promise<void> {
    const bytes = data instanceof Uint8Array;
    const len = length ?? (bytes ? data.length : 0);
    const w = new XdrWriter();
    writeVol(w, vol);
    w.uhyper(offset)
      .uhyper(len)
      .uint(options?.sparse ? VIR_STORAGE_VOL_UPLOAD_SPARSE_STREAM : 0);
    return this.rpc.upload(P.STORAGE_VOL_UPLOAD, w.finish(), bytes ? fromBytes(data) : data, options);
  }
  async storageVolDownload(vol: VolRef, offset = 0, length = 0, options?: CallOptions): Promise<Uint8Array> {
    const parts: Buffer[] = [];
    for await (const chunk of this.storageVolDownloadStream(vol, offset, length, options)) parts.push(chunk as Buffer);
    return Buffer.concat(parts);
  }
  storageVolDownloadStream(vol: VolRef, offset = 0, length = 0, options?: CallOptions): AsyncIterable<Uint8Array> {
    const w = new XdrWriter();
    writeVol(w, vol);
    w.uhyper(offset).uhyper(length).uint(0);
    return this.rpc.download(P.STORAGE_VOL_DOWNLOAD, w.finish(), options);
  }

  // domains

  async domainDefineXml(xml: string, flags = 0, options?: CallOptions): Promise<DomRef> {
    try {
      return await this.call(P.DOMAIN_DEFINE_XML_FLAGS, (w) => w.string(xml).uint(flags), readDom, options);
    } catch (e) {
      // Daemons older than libvirt 1.2.12 lack DEFINE_XML_FLAGS ("unknown procedure").
      if (!(e instanceof LibvirtError && e.code === VIR_ERR_RPC && flags === 0)) throw e;
      return this.call(P.DOMAIN_DEFINE_XML, (w) => w.string(xml), readDom, options);
    }
  }
  domainLookupByName(name: string, options?: CallOptions): Promise<DomRef> {
    return this.call(P.DOMAIN_LOOKUP_BY_NAME, (w) => w.string(name), readDom, options);
  }
  domainLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<DomRef> {
    return this.call(P.DOMAIN_LOOKUP_BY_UUID, (w) => w.fixedOpaque(uuid, 16), readDom, options);
  }
  domainGetXmlDesc(dom: DomRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.DOMAIN_GET_XML_DESC,
      (w) => (writeDom(w, dom), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  domainCreate(dom: DomRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_CREATE, (w) => writeDom(w, dom), options);
  }
  async domainCreateWithFlags(dom: DomRef, flags: number, options?: CallOptions): Promise<void> {
    await this.call(P.DOMAIN_CREATE_WITH_FLAGS, (w) => (writeDom(w, dom), w.uint(flags)), readDom, options);
  }
  domainResume(dom: DomRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_RESUME, (w) => writeDom(w, dom), options);
  }
  domainOpenConsole(dom: DomRef, devName: string | null, flags = 0, options?: StreamOptions): AsyncIterable<Uint8Array> {
    const w = new XdrWriter();
    writeDom(w, dom);
    writeOptionalString(w, devName);
    w.uint(flags);
    return this.rpc.download(P.DOMAIN_OPEN_CONSOLE, w.finish(), options);
  }
  domainShutdown(dom: DomRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SHUTDOWN, (w) => writeDom(w, dom), options);
  }
  domainDestroy(dom: DomRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_DESTROY, (w) => writeDom(w, dom), options);
  }
  domainReboot(dom: DomRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_REBOOT, (w) => (writeDom(w, dom), w.uint(flags)), options);
  }
  domainUndefine(dom: DomRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_UNDEFINE_FLAGS, (w) => (writeDom(w, dom), w.uint(flags)), options);
  }
  domainGetState(dom: DomRef, options?: CallOptions): Promise<DomainStateInfo> {
    return this.call(
      P.DOMAIN_GET_STATE,
      (w) => (writeDom(w, dom), w.uint(0)),
      (r) => ({ state: r.int(), reason: r.int() }),
      options,
    );
  }
  domainIsActive(dom: DomRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.DOMAIN_IS_ACTIVE,
      (w) => writeDom(w, dom),
      (r) => r.int() !== 0,
      options,
    );
  }
  domainSetAutostart(dom: DomRef, autostart: boolean, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SET_AUTOSTART, (w) => (writeDom(w, dom), w.int(autostart ? 1 : 0)), options);
  }
  domainGetAutostart(dom: DomRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.DOMAIN_GET_AUTOSTART,
      (w) => writeDom(w, dom),
      (r) => r.int() !== 0,
      options,
    );
  }
  domainIsPersistent(dom: DomRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.DOMAIN_IS_PERSISTENT,
      (w) => writeDom(w, dom),
      (r) => r.int() !== 0,
      options,
    );
  }
  domainGetInfo(dom: DomRef, options?: CallOptions): Promise<DomainInfo> {
    return this.call(P.DOMAIN_GET_INFO, (w) => writeDom(w, dom), readDomainInfo, options);
  }
  domainShutdownFlags(dom: DomRef, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SHUTDOWN_FLAGS, (w) => (writeDom(w, dom), w.uint(flags)), options);
  }
  domainSetMemoryFlags(dom: DomRef, kib: number, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SET_MEMORY_FLAGS, (w) => (writeDom(w, dom), w.uhyper(kib).uint(flags)), options);
  }
  domainSetVcpusFlags(dom: DomRef, nvcpus: number, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SET_VCPUS_FLAGS, (w) => (writeDom(w, dom), w.uint(nvcpus).uint(flags)), options);
  }
  domainAttachDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_ATTACH_DEVICE_FLAGS, (w) => (writeDom(w, dom), w.string(xml).uint(flags)), options);
  }
  domainDetachDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_DETACH_DEVICE_FLAGS, (w) => (writeDom(w, dom), w.string(xml).uint(flags)), options);
  }
  domainUpdateDeviceFlags(dom: DomRef, xml: string, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_UPDATE_DEVICE_FLAGS, (w) => (writeDom(w, dom), w.string(xml).uint(flags)), options);
  }
  domainSetMetadata(
    dom: DomRef,
    type: number,
    metadata: string | null,
    key: string | null,
    uri: string | null,
    flags: number,
    options?: CallOptions,
  ): Promise<void> {
    return this.callVoid(
      P.DOMAIN_SET_METADATA,
      (w) => {
        writeDom(w, dom);
        w.int(type);
        writeOptionalString(w, metadata);
        writeOptionalString(w, key);
        writeOptionalString(w, uri);
        w.uint(flags);
      },
      options,
    );
  }
  domainSetLifecycleAction(dom: DomRef, type: number, action: number, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SET_LIFECYCLE_ACTION, (w) => (writeDom(w, dom), w.uint(type).uint(action).uint(flags)), options);
  }
  domainBlockResize(dom: DomRef, disk: string, size: number, flags: number, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_BLOCK_RESIZE, (w) => (writeDom(w, dom), w.string(disk).uhyper(size).uint(flags)), options);
  }
  domainInterfaceAddresses(dom: DomRef, source: number, options?: CallOptions): Promise<DomainInterfaceAddresses[]> {
    return this.call(
      P.DOMAIN_INTERFACE_ADDRESSES,
      (w) => (writeDom(w, dom), w.uint(source).uint(0)),
      (r) =>
        r.array((x) => ({
          name: x.string(REMOTE_STRING_MAX),
          hwaddr: x.optional((y) => y.string(REMOTE_STRING_MAX)),
          addresses: x.array((y) => ({ type: y.int(), address: y.string(REMOTE_STRING_MAX), prefix: y.uint() })),
        })),
      options,
    );
  }

  // domain snapshots

  domainSnapshotCreateXml(dom: DomRef, xml: string, flags = 0, options?: CallOptions): Promise<SnapRef> {
    return this.call(P.DOMAIN_SNAPSHOT_CREATE_XML, (w) => (writeDom(w, dom), w.string(xml).uint(flags)), readSnap, options);
  }
  domainSnapshotLookupByName(dom: DomRef, name: string, options?: CallOptions): Promise<SnapRef> {
    return this.call(P.DOMAIN_SNAPSHOT_LOOKUP_BY_NAME, (w) => (writeDom(w, dom), w.string(name).uint(0)), readSnap, options);
  }
  domainSnapshotGetXmlDesc(snap: SnapRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.DOMAIN_SNAPSHOT_GET_XML_DESC,
      (w) => (writeSnap(w, snap), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  domainListAllSnapshots(dom: DomRef, flags = 0, options?: CallOptions): Promise<SnapRef[]> {
    // remote_domain_list_all_snapshots_ret: { snapshots<>; int ret; }
    return this.call(
      P.DOMAIN_LIST_ALL_SNAPSHOTS,
      (w) => (writeDom(w, dom), w.int(1).uint(flags)),
      (r) => listWithCount(r, readSnap),
      options,
    );
  }
  domainSnapshotCurrent(dom: DomRef, options?: CallOptions): Promise<SnapRef> {
    return this.call(P.DOMAIN_SNAPSHOT_CURRENT, (w) => (writeDom(w, dom), w.uint(0)), readSnap, options);
  }
  domainRevertToSnapshot(snap: SnapRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_REVERT_TO_SNAPSHOT, (w) => (writeSnap(w, snap), w.uint(flags)), options);
  }
  domainSnapshotDelete(snap: SnapRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_SNAPSHOT_DELETE, (w) => (writeSnap(w, snap), w.uint(flags)), options);
  }

  // backups and checkpoints

  domainBackupBegin(dom: DomRef, backupXml: string, checkpointXml: string | null, flags = 0, options?: CallOptions): Promise<void> {
    // remote_domain_backup_begin_args: { dom; remote_nonnull_string backup_xml; remote_string checkpoint_xml; flags }
    return this.callVoid(
      P.DOMAIN_BACKUP_BEGIN,
      (w) => (writeDom(w, dom), w.string(backupXml), writeOptionalString(w, checkpointXml), w.uint(flags)),
      options,
    );
  }
  domainBackupGetXmlDesc(dom: DomRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.DOMAIN_BACKUP_GET_XML_DESC,
      (w) => (writeDom(w, dom), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  domainGetJobStats(dom: DomRef, flags = 0, options?: CallOptions): Promise<DomainJobStats> {
    // remote_domain_get_job_stats_ret: { int type; remote_typed_param params<>; }
    return this.call(
      P.DOMAIN_GET_JOB_STATS,
      (w) => (writeDom(w, dom), w.uint(flags)),
      (r) => ({ type: r.int(), params: r.array(readTypedParam) }),
      options,
    );
  }
  domainCheckpointCreateXml(dom: DomRef, xml: string, flags = 0, options?: CallOptions): Promise<CheckpointRef> {
    return this.call(P.DOMAIN_CHECKPOINT_CREATE_XML, (w) => (writeDom(w, dom), w.string(xml).uint(flags)), readCheckpoint, options);
  }
  domainCheckpointLookupByName(dom: DomRef, name: string, options?: CallOptions): Promise<CheckpointRef> {
    return this.call(P.DOMAIN_CHECKPOINT_LOOKUP_BY_NAME, (w) => (writeDom(w, dom), w.string(name).uint(0)), readCheckpoint, options);
  }
  domainCheckpointGetXmlDesc(checkpoint: CheckpointRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.DOMAIN_CHECKPOINT_GET_XML_DESC,
      (w) => (writeCheckpoint(w, checkpoint), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  domainListAllCheckpoints(dom: DomRef, flags = 0, options?: CallOptions): Promise<CheckpointRef[]> {
    // remote_domain_list_all_checkpoints_ret: { checkpoints<>; int ret; }
    return this.call(
      P.DOMAIN_LIST_ALL_CHECKPOINTS,
      (w) => (writeDom(w, dom), w.int(1).uint(flags)),
      (r) => listWithCount(r, readCheckpoint),
      options,
    );
  }
  domainCheckpointDelete(checkpoint: CheckpointRef, flags = 0, options?: CallOptions): Promise<void> {
    return this.callVoid(P.DOMAIN_CHECKPOINT_DELETE, (w) => (writeCheckpoint(w, checkpoint), w.uint(flags)), options);
  }
  domainFsFreeze(dom: DomRef, mountpoints: readonly string[], flags = 0, options?: CallOptions): Promise<number> {
    return this.call(
      P.DOMAIN_FSFREEZE,
      (w) => (writeDom(w, dom), w.array(mountpoints, (x, m) => x.string(m)), w.uint(flags)),
      (r) => r.int(),
      options,
    );
  }
  domainFsThaw(dom: DomRef, mountpoints: readonly string[], flags = 0, options?: CallOptions): Promise<number> {
    return this.call(
      P.DOMAIN_FSTHAW,
      (w) => (writeDom(w, dom), w.array(mountpoints, (x, m) => x.string(m)), w.uint(flags)),
      (r) => r.int(),
      options,
    );
  }

  // networks

  connectListAllNetworks(flags = 0, options?: CallOptions): Promise<NetRef[]> {
    return this.call(
      P.CONNECT_LIST_ALL_NETWORKS,
      (w) => w.int(1).uint(flags),
      (r) => listWithCount(r, readNet),
      options,
    );
  }
  networkDefineXml(xml: string, options?: CallOptions): Promise<NetRef> {
    return this.call(P.NETWORK_DEFINE_XML, (w) => w.string(xml), readNet, options);
  }
  networkCreate(net: NetRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.NETWORK_CREATE, (w) => writeNet(w, net), options);
  }
  networkDestroy(net: NetRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.NETWORK_DESTROY, (w) => writeNet(w, net), options);
  }
  networkUndefine(net: NetRef, options?: CallOptions): Promise<void> {
    return this.callVoid(P.NETWORK_UNDEFINE, (w) => writeNet(w, net), options);
  }
  networkLookupByName(name: string, options?: CallOptions): Promise<NetRef> {
    return this.call(P.NETWORK_LOOKUP_BY_NAME, (w) => w.string(name), readNet, options);
  }
  networkLookupByUuid(uuid: Buffer, options?: CallOptions): Promise<NetRef> {
    return this.call(P.NETWORK_LOOKUP_BY_UUID, (w) => w.fixedOpaque(uuid, 16), readNet, options);
  }
  networkGetXmlDesc(net: NetRef, flags = 0, options?: CallOptions): Promise<string> {
    return this.call(
      P.NETWORK_GET_XML_DESC,
      (w) => (writeNet(w, net), w.uint(flags)),
      (r) => r.string(REMOTE_STRING_MAX),
      options,
    );
  }
  networkGetAutostart(net: NetRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.NETWORK_GET_AUTOSTART,
      (w) => writeNet(w, net),
      (r) => r.int() !== 0,
      options,
    );
  }
  networkSetAutostart(net: NetRef, autostart: boolean, options?: CallOptions): Promise<void> {
    return this.callVoid(P.NETWORK_SET_AUTOSTART, (w) => (writeNet(w, net), w.int(autostart ? 1 : 0)), options);
  }
  networkIsActive(net: NetRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.NETWORK_IS_ACTIVE,
      (w) => writeNet(w, net),
      (r) => r.int() !== 0,
      options,
    );
  }
  networkIsPersistent(net: NetRef, options?: CallOptions): Promise<boolean> {
    return this.call(
      P.NETWORK_IS_PERSISTENT,
      (w) => writeNet(w, net),
      (r) => r.int() !== 0,
      options,
    );
  }
  networkUpdate(
    net: NetRef,
    command: number,
    section: number,
    parentIndex: number,
    xml: string,
    flags = 0,
    options?: CallOptions,
  ): Promise<void> {
    // remote_network_update_args: net, command, section, parentIndex, xml, flags (the order libvirt >= 6.x daemons
    // expect; they advertise VIR_DRV_FEATURE_NETWORK_UPDATE_HAS_CORRECT_ORDER).
    return this.callVoid(
      P.NETWORK_UPDATE,
      (w) => (writeNet(w, net), w.uint(command).uint(section).int(parentIndex).string(xml).uint(flags)),
      options,
    );
  }
  networkGetDhcpLeases(net: NetRef, mac?: string | null, options?: CallOptions): Promise<NetworkDhcpLease[]> {
    return this.call(
      P.NETWORK_GET_DHCP_LEASES,
      (w) => (writeNet(w, net), writeOptionalString(w, mac ?? null), w.int(1).uint(0)),
      (r) =>
        listWithCount(r, (x) => ({
          iface: x.string(REMOTE_STRING_MAX),
          expiryTime: Number(x.hyper()),
          type: x.int(),
          mac: x.optional((y) => y.string(REMOTE_STRING_MAX)),
          iaid: x.optional((y) => y.string(REMOTE_STRING_MAX)),
          ipAddress: x.string(REMOTE_STRING_MAX),
          prefix: x.uint(),
          hostname: x.optional((y) => y.string(REMOTE_STRING_MAX)),
          clientId: x.optional((y) => y.string(REMOTE_STRING_MAX)),
        })),
      options,
    );
  }
}

/** `char model[32]` of XDR: 32 chars, each in a 4-byte unit (rpcgen's xdr_vector of xdr_char), NUL-terminated. */
const NODE_MODEL_CHARS = 32;

/** `remote_node_get_info_ret`. */
export function readNodeInfo(r: XdrReader): NodeInfo {
  const codes: number[] = [];
  for (let i = 0; i < NODE_MODEL_CHARS; i++) codes.push(r.int() & 0xff);
  const end = codes.indexOf(0);
  return {
    model: Buffer.from(end < 0 ? codes : codes.slice(0, end)).toString('latin1'),
    memoryKiB: r.uhyperNumber(),
    cpus: r.int(),
    mhz: r.int(),
    nodes: r.int(),
    sockets: r.int(),
    cores: r.int(),
    threads: r.int(),
  };
}

/** `remote_domain_get_info_ret` (`unsigned char` and `unsigned short` each take a 4-byte unit in XDR). */
export function readDomainInfo(r: XdrReader): DomainInfo {
  return { state: r.uint(), maxMemoryKiB: r.uhyperNumber(), memoryKiB: r.uhyperNumber(), vcpus: r.uint(), cpuTimeNs: r.uhyper() };
}

/** `{ T items<>; unsigned int ret; }` as returned by the list-all procedures. */
function listWithCount<T>(r: XdrReader, read: (r: XdrReader) => T): T[] {
  const items = r.array(read);
  r.uint();
  return items;
}
