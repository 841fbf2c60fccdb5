/**
 * go-plugin AutoMTLS, server side: a fresh ECDSA P-256 key and a self-signed certificate for `localhost` that the
 * client (Terraform) trusts as its root CA, as go-plugin's own plugins generate it (CA, keyUsage digitalSignature +
 * keyEncipherment + keyCertSign, extKeyUsage serverAuth + clientAuth, SAN DNS:localhost). The handshake line
 * carries the certificate's DER in base64 without padding; the client's certificate (`PLUGIN_CLIENT_CERT`, PEM)
 * is the CA we require client certificates from.
 *
 * The key and signature come from node:crypto; the certificate (RFC 5280 §4.1) is written by a small DER writer,
 * so starting the provider loads no X.509 library.
 */
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import * as der from './private/der';

export interface ServerCertificate {
  /** PEM of the certificate. */
  readonly certPem: string;
  /** PEM (PKCS#8) of the private key. */
  readonly keyPem: string;
  /** DER of the certificate. */
  readonly der: Buffer;
}

/** Validity of the certificate (go-plugin uses about 30 years); it starts 30 s in the past against clock skew. */
const VALIDITY_MS = 30 * 365 * 24 * 3600 * 1000;

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/** keyUsage bits (RFC 5280 §4.2.1.3): digitalSignature (0), keyEncipherment (2), keyCertSign (5) → 1010 0100, two
 *  unused trailing bits. */
const KEY_USAGE = der.bitString(Buffer.from([0xa4]), 2);

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

function name(): Buffer {
  return der.sequence(
    der.set(der.sequence(der.oid(OID.commonName), der.printableString('localhost'))),
    der.set(der.sequence(der.oid(OID.organization), der.printableString('virtseed'))),
  );
}

function pem(label: string, body: Buffer): string {
  const lines = body.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Generates the key and certificate. `now` is the start of validity (the current time in production). */
export async function generateServerCertificate(now: Date = new Date()): Promise<ServerCertificate> {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  serial[0] &= 0x7f; // positive
  const signatureAlgorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const tbs = der.sequence(
    der.explicit(0, der.unsignedInteger(Buffer.from([2]))), // v3
    der.unsignedInteger(serial),
    signatureAlgorithm,
    name(),
    der.sequence(der.time(new Date(now.getTime() - 30_000)), der.time(new Date(now.getTime() + VALIDITY_MS))),
    name(),
    publicKey.export({ type: 'spki', format: 'der' }),
    der.explicit(
      3,
      der.sequence(
        extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
        extension(OID.keyUsage, true, KEY_USAGE),
        extension(OID.extKeyUsage, false, der.sequence(der.oid(OID.serverAuth), der.oid(OID.clientAuth))),
        extension(OID.subjectAltName, false, der.sequence(der.implicitPrimitive(2, Buffer.from('localhost', 'ascii')))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const cert = der.sequence(tbs, signatureAlgorithm, der.bitString(signature));
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  return { certPem: pem('CERTIFICATE', cert), keyPem, der: cert };
}

/** The handshake's certificate field: base64 of the DER, without `=` padding. */
export function handshakeCert(der: Uint8Array): string {
  return Buffer.from(der).toString('base64').replace(/=+$/, '');
}
