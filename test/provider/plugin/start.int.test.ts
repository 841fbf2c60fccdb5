/**
 * The plugin's first stage (provider/src/plugin/start.ts) apart from the second: the handshake line comes before
 * gRPC is loaded, and a client that connects at once is served once the second stage takes the socket over.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { serviceClient } from '../../../provider/src/plugin/grpc';
import { MAGIC_COOKIE_VALUE } from '../../../provider/src/plugin/handshake';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSX_CJS = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs');
const ENTRY = path.join(ROOT, 'test', 'provider', 'fixtures', 'staged-main.ts');
const DELAY_MS = 1500;

jest.setTimeout(30_000);

let child: ChildProcess;
let stdout = '';
let stderr = '';
let socketDir = '';
let handshakeAt = 0;
const Health = serviceClient('grpc.health.v1.Health');

beforeAll(async () => {
  socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-speed-start-'));
  child = spawn(process.execPath, ['--require', TSX_CJS, ENTRY], {
    env: {
      PATH: process.env.PATH,
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '6',
      PLUGIN_UNIX_SOCKET_DIR: socketDir,
      VIRTSEED_TEST_THING_DIR: socketDir,
      VIRTSEED_TEST_STAGE2_DELAY_MS: String(DELAY_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (b) => (stderr += b.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no handshake line within 20 s; stderr:\n${stderr}`)), 20_000);
    child.stdout!.on('data', (b) => {
      stdout += b.toString();
      if (stdout.includes('\n') && !handshakeAt) {
        handshakeAt = Date.now();
        clearTimeout(timer);
        resolve();
      }
    });
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(socketDir, { recursive: true, force: true });
});

describe('first stage', () => {
  it('GIVEN the handshake line WHEN the first stage ends THEN no gRPC module was loaded', async () => {
    const deadline = Date.now() + 10_000;
    while (!stderr.includes('first stage done') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stderr).toContain('first stage done; gRPC loaded: false');
  });

  it('GIVEN a client that connects right after the handshake WHEN the second stage starts later THEN its call is answered', async () => {
    const socket = stdout.split('\n')[0].split('|')[3];
    const health = new Health(`unix://${socket}`, grpc.credentials.createInsecure());
    const check = health.Check as (req: object, cb: (err: Error | null, res: unknown) => void) => void;
    const answer = await new Promise<unknown>((resolve, reject) =>
      check.call(health, { service: 'plugin' }, (err, res) =>
        err ? reject(new Error(`${err.message}\nstderr:\n${stderr}`)) : resolve(res),
      ),
    );
    health.close();
    expect([answer, Date.now() - handshakeAt >= DELAY_MS - 100]).toEqual([{ status: 'SERVING' }, true]);
  });
});
