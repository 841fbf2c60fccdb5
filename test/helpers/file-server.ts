/**
 * A static HTTP file server on 127.0.0.1 in a process of its own (tests run terraform with spawnSync, which blocks
 * their own event loop: a server inside the test process would never answer the provider). Serves the files of a
 * folder, with `Range: bytes=a-b` requests answered 206, and appends one line per request to a log
 * (`METHOD URL RANGE-or--`), so a test can count what was downloaded. `.json` files are served as
 * `application/json` (as static hosts do; Terraform's service discovery requires it), over HTTPS when asked. With
 * `basicAuth`, every request must carry `Authorization: Basic base64(user:password)` (else 401), and each log line
 * ends with `auth` or `noauth` (whether it carried them; never the header itself).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The server's program, run by `node -e` (plain JavaScript: no build step). */
const PROGRAM = `
const fs = require('node:fs');
const path = require('node:path');
const [root, log, cert, key] = process.argv.slice(1);
const want = process.env.FILE_SERVER_AUTH;
const handle = (req, res) => {
  const range = req.headers.range || '-';
  const authed = want !== undefined && req.headers.authorization === want;
  fs.appendFileSync(log, req.method + ' ' + req.url + ' ' + range + ' ' + (authed ? 'auth' : 'noauth') + '\\n');
  if (want !== undefined && !authed) return void res.writeHead(401, { 'www-authenticate': 'Basic realm="images"' }).end();
  const file = path.join(root, decodeURIComponent(req.url.split('?')[0]));
  const stat = file.startsWith(root) ? fs.statSync(file, { throwIfNoEntry: false }) : undefined;
  if (!stat || !stat.isFile()) return void res.writeHead(404).end();
  const size = stat.size;
  // The bytes go out in 1 MiB reads: one write of a whole large file costs HTTPS about 2.5 times the CPU.
  const send = (start, end) => {
    if (req.method === 'HEAD' || end < start) return void res.end();
    fs.createReadStream(file, { start, end, highWaterMark: 1 << 20 })
      .on('error', () => res.destroy())
      .pipe(res);
  };
  const m = /^bytes=(\\d+)-(\\d+)$/.exec(range);
  if (m) {
    const from = Number(m[1]);
    const to = Math.min(Number(m[2]), size - 1);
    res.writeHead(206, { 'content-range': 'bytes ' + from + '-' + to + '/' + size, 'content-length': to - from + 1 });
    return void send(from, to);
  }
  res.writeHead(200, { 'content-length': size, ...(file.endsWith('.json') ? { 'content-type': 'application/json' } : {}) });
  send(0, size - 1);
};
const server = cert
  ? require('node:https').createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key) }, handle)
  : require('node:http').createServer(handle);
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

export interface FileServer {
  /** `http://127.0.0.1:PORT` (`https://` with `tls`). */
  readonly base: string;
  readonly port: number;
  /** The requests so far: method, URL path, Range header (`-` without), whether it carried the basic auth. */
  requests(): { method: string; url: string; range: string; auth: boolean }[];
  stop(): void;
}

/** A server certificate and its key (PEM files) to serve HTTPS with. */
export interface ServerTls {
  readonly cert: string;
  readonly key: string;
}

/** Credentials every request must carry (HTTP basic auth). */
export interface BasicAuth {
  readonly user: string;
  readonly password: string;
}

/** Starts serving `root` (absolute), over HTTPS with `tls`, only to requests with `basicAuth` when given. Rejects
 *  when the server does not start within 10 s. */
export async function serveFiles(root: string, tls?: ServerTls, basicAuth?: BasicAuth): Promise<FileServer> {
  const log = path.join(path.dirname(root), `${path.basename(root)}.requests.log`);
  fs.writeFileSync(log, '');
  const child: ChildProcess = spawn(process.execPath, ['-e', PROGRAM, root, log, ...(tls ? [tls.cert, tls.key] : [])], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      ...(basicAuth ? { FILE_SERVER_AUTH: `Basic ${Buffer.from(`${basicAuth.user}:${basicAuth.password}`).toString('base64')}` } : {}),
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the test file server did not start within 10 s')), 10_000);
    child.stdout!.once('data', (d: Buffer) => {
      clearTimeout(timer);
      resolve(Number(d.toString().trim()));
    });
    child.once('exit', (code) => reject(new Error(`the test file server exited (${code})`)));
  });
  return {
    base: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests: () =>
      fs
        .readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [method, url, range, auth] = l.split(' ');
          return { method: method!, url: url!, range: range!, auth: auth === 'auth' };
        }),
    stop: () => {
      child.kill();
      fs.rmSync(log, { force: true });
    },
  };
}
