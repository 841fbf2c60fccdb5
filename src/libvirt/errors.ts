/**
 * libvirt errors as thrown by the client. Numbers are libvirt's own (`include/libvirt/virterror.h`,
 * enums virErrorNumber, virErrorDomain, virErrorLevel), which are stable across versions.
 */
import { XdrReader, XdrWriter } from './xdr';

// virErrorNumber (subset)
export const VIR_ERR_OK = 0;
export const VIR_ERR_INTERNAL_ERROR = 1;
export const VIR_ERR_NO_SUPPORT = 3;
export const VIR_ERR_NO_CONNECT = 5;
export const VIR_ERR_INVALID_ARG = 8;
export const VIR_ERR_OPERATION_FAILED = 9;
export const VIR_ERR_XML_ERROR = 27;
export const VIR_ERR_DOM_EXIST = 28;
export const VIR_ERR_OPERATION_DENIED = 29;
export const VIR_ERR_SYSTEM_ERROR = 38;
export const VIR_ERR_RPC = 39;
export const VIR_ERR_NO_DOMAIN = 42;
export const VIR_ERR_NO_NETWORK = 43;
export const VIR_ERR_AUTH_FAILED = 45;
export const VIR_ERR_NO_STORAGE_POOL = 49;
export const VIR_ERR_NO_STORAGE_VOL = 50;
export const VIR_ERR_OPERATION_INVALID = 55;
export const VIR_ERR_CONFIG_UNSUPPORTED = 67;
export const VIR_ERR_OPERATION_TIMEOUT = 68;
export const VIR_ERR_NO_DOMAIN_SNAPSHOT = 72;
export const VIR_ERR_INVALID_STREAM = 73;
export const VIR_ERR_ARGUMENT_UNSUPPORTED = 74;
export const VIR_ERR_STORAGE_POOL_BUILT = 76;
export const VIR_ERR_OPERATION_ABORTED = 78;
export const VIR_ERR_OPERATION_UNSUPPORTED = 84;
export const VIR_ERR_AGENT_UNRESPONSIVE = 86;
// virterror.h: "domain checkpoint not found" is 103 (102 is VIR_ERR_INVALID_DOMAIN_CHECKPOINT).
export const VIR_ERR_NO_DOMAIN_CHECKPOINT = 103;
export const VIR_ERR_NO_DOMAIN_BACKUP = 104;

// virErrorDomain (subset)
export const VIR_FROM_NONE = 0;
export const VIR_FROM_RPC = 7;
export const VIR_FROM_QEMU = 10;
export const VIR_FROM_REMOTE = 13;
export const VIR_FROM_STORAGE = 18;
export const VIR_FROM_DOMAIN = 20;
export const VIR_FROM_STREAMS = 38;

// virErrorLevel
export const VIR_ERR_NONE = 0;
export const VIR_ERR_WARNING = 1;
export const VIR_ERR_ERROR = 2;

/** Fields of libvirt's `remote_error` / `virNetMessageError` besides code, domain, message and level. */
export interface LibvirtErrorDetails {
  str1?: string | null;
  str2?: string | null;
  str3?: string | null;
  int1?: number;
  int2?: number;
}

/**
 * An error reported by libvirtd (decoded from `remote_error`), or by this client with libvirt's numbering for
 * transport failures (code VIR_ERR_SYSTEM_ERROR or VIR_ERR_RPC, domain VIR_FROM_RPC). `code` is a virErrorNumber
 * (e.g. VIR_ERR_NO_DOMAIN = 42), `domain` a virErrorDomain, `level` a virErrorLevel.
 */
export class LibvirtError extends Error {
  readonly code: number;
  readonly domain: number;
  readonly level: number;
  readonly str1: string | null;
  readonly str2: string | null;
  readonly str3: string | null;
  readonly int1: number;
  readonly int2: number;

  constructor(code: number, domain: number, level: number, message: string, details: LibvirtErrorDetails = {}) {
    super(message);
    this.name = 'LibvirtError';
    this.code = code;
    this.domain = domain;
    this.level = level;
    this.str1 = details.str1 ?? null;
    this.str2 = details.str2 ?? null;
    this.str3 = details.str3 ?? null;
    this.int1 = details.int1 ?? 0;
    this.int2 = details.int2 ?? 0;
  }
}

/** True when `e` is a LibvirtError with the given virErrorNumber. */
export function isLibvirtError(e: unknown, code?: number): e is LibvirtError {
  return e instanceof LibvirtError && (code === undefined || e.code === code);
}

/**
 * Decodes a `remote_error` payload (sent with status ERROR) into a LibvirtError.
 * Layout: int code; int domain; string* message; int level; domain* dom; string* str1..str3; int int1, int2;
 * network* net. Throws XdrError for malformed bytes.
 */
export function decodeRemoteError(payload: Uint8Array): LibvirtError {
  const r = new XdrReader(payload);
  const code = r.int();
  const domain = r.int();
  const message = r.optional((x) => x.string());
  const level = r.int();
  r.optional(skipDomain);
  const str1 = r.optional((x) => x.string());
  const str2 = r.optional((x) => x.string());
  const str3 = r.optional((x) => x.string());
  const int1 = r.int();
  const int2 = r.int();
  r.optional(skipNetwork);
  return new LibvirtError(code, domain, level, message ?? `libvirt error code ${code}`, { str1, str2, str3, int1, int2 });
}

/** Encodes a `remote_error` (dom and net absent). Used to abort streams and by tests. */
export function encodeRemoteError(
  e: { code: number; domain: number; level: number; message: string | null } & LibvirtErrorDetails,
): Buffer {
  const w = new XdrWriter();
  w.int(e.code).int(e.domain);
  w.optional(e.message, (x, s) => x.string(s));
  w.int(e.level);
  w.bool(false);
  w.optional(e.str1, (x, s) => x.string(s));
  w.optional(e.str2, (x, s) => x.string(s));
  w.optional(e.str3, (x, s) => x.string(s));
  w.int(e.int1 ?? 0).int(e.int2 ?? 0);
  w.bool(false);
  return w.finish();
}

function skipDomain(r: XdrReader): void {
  r.string();
  r.fixedOpaque(16);
  r.int();
}

function skipNetwork(r: XdrReader): void {
  r.string();
  r.fixedOpaque(16);
}

/** The steps of connecting to libvirtd, in order. */
export type ConnectStep = 'resolve' | 'connect' | 'authenticate' | 'libvirt handshake';

/**
 * A failure to connect to libvirtd (code VIR_ERR_NO_CONNECT, domain VIR_FROM_RPC). The message names the URI, the
 * step that failed, what the transport said (e.g. ssh's own stderr) and the fix:
 * `Cannot connect to <uri> (step: <step>): <detail>. Fix: <fix>`.
 */
export class LibvirtConnectError extends LibvirtError {
  readonly uri: string;
  readonly step: ConnectStep;
  readonly detail: string;
  readonly fix: string;
  constructor(uri: string, step: ConnectStep, detail: string, fix: string) {
    super(
      VIR_ERR_NO_CONNECT,
      VIR_FROM_RPC,
      VIR_ERR_ERROR,
      `Cannot connect to ${uri} (step: ${step}): ${detail.replace(/[.\s]+$/, '')}. Fix: ${fix}`,
    );
    this.name = 'LibvirtConnectError';
    this.uri = uri;
    this.step = step;
    this.detail = detail;
    this.fix = fix;
  }
}
