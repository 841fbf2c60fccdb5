/**
 * go-plugin AutoMTLS, server side: a fresh ECDSA P-256 key and a self-signed certificate for `localhost` that the
 * client (Terraform) trusts as its root CA, as go-plugin's own plugins generate it (CA, keyUsage digitalSignature +
 * keyEncipherment + keyCertSign, extKeyUsage serverAuth + clientAuth, SAN DNS:localhost). The handshake line
 * carries the certificate's DER in base64 without padding; the client's certificate (`PLUGIN_CLIENT_CERT`, PEM)
 * is the CA we require client certificates from.
 */
import 'reflect-metadata'; // required by @peculiar/x509 (tsyringe), before it loads
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

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

/** Generates the key and certificate. `now` is the start of validity (the current time in production). */
export async function generateServerCertificate(now: Date = new Date()): Promise<ServerCertificate> {
  const crypto = webcrypto;
  x509.cryptoProvider.set(crypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const serial = Buffer.from(crypto.getRandomValues(new Uint8Array(16)));
  serial[0] &= 0x7f; // positive
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: 'CN=localhost, O=virtseed',
    notBefore: new Date(now.getTime() - 30_000),
    notAfter: new Date(now.getTime() + VALIDITY_MS),
    signingAlgorithm: alg,
    keys: keys as any,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment | x509.KeyUsageFlags.keyCertSign,
        true,
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'dns', value: 'localhost' }]),
    ],
  });
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', keys.privateKey));
  const keyPem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END PRIVATE KEY-----\n`;
  return { certPem: cert.toString('pem') + '\n', keyPem, der: Buffer.from(cert.rawData) };
}

/** The handshake's certificate field: base64 of the DER, without `=` padding. */
export function handshakeCert(der: Uint8Array): string {
  return Buffer.from(der).toString('base64').replace(/=+$/, '');
}
