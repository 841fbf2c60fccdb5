/**
 * A certificate authority and certificates for the tests' TLS libvirt daemons, made with openssl in a test folder
 * (the file names are libvirt's: `cacert.pem`, `servercert.pem`/`serverkey.pem`, `clientcert.pem`/`clientkey.pem`,
 * so a folder holding a CA certificate and a client pair is a `?pkipath=` for qemu+tls URIs).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

function openssl(args: string[], cwd: string): void {
  try {
    execFileSync('openssl', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(`openssl ${args.join(' ')} failed: ${err.stderr?.toString() ?? err.message}`);
  }
}

/** Makes a CA in `dir` (cacert.pem, cakey.pem), valid 30 days. */
export function makeCa(dir: string, cn: string): void {
  fs.mkdirSync(dir, { recursive: true });
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'cakey.pem',
      '-out',
      'cacert.pem',
      '-days',
      '30',
      '-subj',
      `/CN=${cn}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ],
    dir,
  );
}

export interface CertOptions {
  /** Subject alternative names of a server certificate, e.g. `['IP:127.0.0.1', 'DNS:localhost']`. */
  readonly san?: readonly string[];
  /** A server certificate that may also act as a client (a libvirtd that connects to its peers). */
  readonly alsoClient?: boolean;
}

/** Makes `<name>cert.pem` / `<name>key.pem` in `dir`, signed by the CA in `caDir`, valid 30 days. */
export function makeCert(dir: string, caDir: string, name: 'server' | 'client', cn: string, options: CertOptions = {}): void {
  fs.mkdirSync(dir, { recursive: true });
  const ext = path.join(dir, `${name}.ext`);
  const base = 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n';
  fs.writeFileSync(
    ext,
    name === 'server'
      ? `${base}extendedKeyUsage=serverAuth${options.alsoClient ? ',clientAuth' : ''}\nsubjectAltName=${(options.san ?? ['IP:127.0.0.1', 'DNS:localhost']).join(',')}\n`
      : `${base}extendedKeyUsage=clientAuth\n`,
  );
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}key.pem`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      path.join(caDir, 'cacert.pem'),
      '-CAkey',
      path.join(caDir, 'cakey.pem'),
      '-CAcreateserial',
      '-out',
      `${name}cert.pem`,
      '-days',
      '30',
      '-extfile',
      ext,
    ],
    dir,
  );
}

/** Makes a client pkipath folder `dir`: the CA certificate of `caDir` and a client pair signed by it. */
export function makeClientPkiPath(dir: string, caDir: string, cn: string): void {
  makeCert(dir, caDir, 'client', cn);
  fs.copyFileSync(path.join(caDir, 'cacert.pem'), path.join(dir, 'cacert.pem'));
}
