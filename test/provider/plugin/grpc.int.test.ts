/**
 * The plugin process as go-plugin sees it, without Terraform: handshake line, plaintext gRPC (no
 * PLUGIN_CLIENT_CERT), health check, a provider RPC, and Shutdown ending the process.
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { serviceClient, type ServiceName } from '../../../provider/src/plugin/grpc';
import { MAGIC_COOKIE_VALUE } from '../../../provider/src/plugin/handshake';
import type { GetProviderSchemaResponse } from '../../../provider/src/plugin/messages';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSX_CJS = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cjs', 'index.cjs');
const ENTRY = path.join(ROOT, 'test', 'provider', 'fixtures', 'provider-main.ts');

jest.setTimeout(30_000);

let child: ChildProcess;
let stdout = '';
let line = '';
let socketDir = '';
type ServiceClient = InstanceType<grpc.ServiceClientConstructor>;

/** A client of `service` on the plugin's socket. */
const connect = (service: ServiceName): ServiceClient => {
  const Client = serviceClient(service);
  return new Client(`unix://${line.split('|')[3]}`, grpc.credentials.createInsecure());
};
/** Calls the unary `method` of `client` with `request`; resolves to the response message (of type `Res`). */
const unary = <Res = Record<string, unknown>>(client: ServiceClient, method: string, request: object) =>
  new Promise<Res>((resolve, reject) =>
    client[method](request, (err: grpc.ServiceError | null, res: Res) => (err ? reject(err) : resolve(res))),
  );

beforeAll(async () => {
  socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-grpc-'));
  child = spawn(process.execPath, ['--require', TSX_CJS, ENTRY], {
    env: {
      PATH: process.env.PATH,
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_PROTOCOL_VERSIONS: '6,5',
      PLUGIN_UNIX_SOCKET_DIR: socketDir,
      VIRTSEED_TEST_THING_DIR: socketDir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.on('data', (b) => (stdout += b.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no handshake line within 20 s')), 20_000);
    child.stdout!.on('data', () => {
      if (stdout.includes('\n')) {
        clearTimeout(timer);
        line = stdout.split('\n')[0];
        resolve();
      }
    });
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(socketDir, { recursive: true, force: true });
});

describe('plugin process without AutoMTLS', () => {
  it('GIVEN no client certificate WHEN started THEN the handshake names a unix socket and an empty cert', () => {
    expect(line).toMatch(new RegExp(`^1\\|6\\|unix\\|${socketDir}/virtseed-plugin-[^/]+/plugin\\.sock\\|grpc\\|$`));
  });

  it('GIVEN the socket WHEN the health of "plugin" is checked THEN it is SERVING', async () => {
    const health = connect('grpc.health.v1.Health');
    expect(await unary(health, 'Check', { service: 'plugin' })).toEqual({ status: 'SERVING' });
    health.close();
  });

  it('GIVEN the socket WHEN the provider schema is asked THEN the fixture resource is listed', async () => {
    const provider = connect('tfplugin6.Provider');
    const res = await unary<GetProviderSchemaResponse>(provider, 'GetProviderSchema', {});
    expect(Object.keys(res.resource_schemas)).toEqual(['virtseed_test_thing']);
    provider.close();
  });

  it('GIVEN a running plugin WHEN Shutdown is called THEN it answers, exits 0, removes its socket and printed one line', async () => {
    const socket = line.split('|')[3];
    const controller = connect('plugin.GRPCController');
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await unary(controller, 'Shutdown', {});
    controller.close();
    expect(await exited).toBe(0);
    expect(fs.existsSync(path.dirname(socket))).toBe(false);
    expect(stdout).toBe(`${line}\n`);
  });
});
