import { spawnSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { checkPluginEnvironment, handshakeLine, MAGIC_COOKIE_VALUE } from '../../../provider/src/plugin/handshake';
import { generateServerCertificate, handshakeCert } from '../../../provider/src/plugin/tls';

describe('checkPluginEnvironment', () => {
  it('GIVEN no magic cookie WHEN checked THEN it explains that terraform runs this plugin', () => {
    expect(checkPluginEnvironment({})).toMatch(/plugin for Terraform/);
  });

  it('GIVEN the cookie and protocol versions 5,6 WHEN checked THEN all is well', () => {
    expect(checkPluginEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5,6' })).toBeNull();
  });

  it('GIVEN only protocol 5 offered WHEN checked THEN it refuses', () => {
    expect(checkPluginEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '5' })).toMatch(/protocol 6/);
  });
});

describe('handshakeLine', () => {
  it('GIVEN a unix socket and a cert WHEN formatted THEN it is the go-plugin line', () => {
    expect(handshakeLine('unix', '/tmp/x/plugin.sock', 'ABC')).toBe('1|6|unix|/tmp/x/plugin.sock|grpc|ABC\n');
  });
});

describe('server certificate', () => {
  let cert: X509Certificate;
  let der: Buffer;
  let keyPem: string;
  beforeAll(async () => {
    const own = await generateServerCertificate(new Date('2026-01-01T00:00:00Z'));
    der = own.der;
    keyPem = own.keyPem;
    cert = new X509Certificate(own.certPem);
  });

  it('GIVEN a generated certificate WHEN checked THEN it is self-signed by the returned private key', () => {
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.issuer).toBe(cert.subject);
    expect(cert.subject).toBe('CN=localhost\nO=virtseed');
  });

  it('GIVEN a start time WHEN generated THEN validity starts 30 s before it and lasts about 30 years', () => {
    expect(new Date(cert.validFrom).toISOString()).toBe('2025-12-31T23:59:30.000Z');
    expect(new Date(cert.validTo).getUTCFullYear()).toBe(2055);
  });

  it('GIVEN a generated certificate WHEN read by openssl THEN key usages are those go-plugin sets', () => {
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
    const out = spawnSync('openssl', ['x509', '-noout', '-text'], { input: cert.toString(), encoding: 'utf8' });
    expect({ status: out.status, stderr: out.stderr }).toEqual({ status: 0, stderr: '' });
    expect(out.stdout).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment, Certificate Sign/);
    expect(out.stdout).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE/);
    expect(out.stdout).toMatch(/TLS Web Server Authentication, TLS Web Client Authentication/);
    expect(out.stdout).toMatch(/Version: 3/);
  });

  it('GIVEN a generated certificate WHEN parsed THEN it is a CA for localhost', () => {
    expect(cert.ca).toBe(true);
    expect(cert.subjectAltName).toBe('DNS:localhost');
    expect(cert.checkHost('localhost')).toBe('localhost');
  });

  it('GIVEN a generated certificate WHEN parsed THEN its key is ECDSA P-256', () => {
    expect(cert.publicKey.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
  });

  it('GIVEN a generated certificate WHEN put in the handshake THEN it is unpadded base64 of the DER', () => {
    const field = handshakeCert(der);
    expect(field).not.toMatch(/=$/);
    expect(Buffer.from(field, 'base64').equals(der)).toBe(true);
  });
});
