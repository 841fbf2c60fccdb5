/**
 * go-plugin's handshake, plugin side: environment checks and the single stdout line
 * `CORE-PROTOCOL|APP-PROTOCOL|NETWORK|ADDRESS|grpc|CERT` (here `1|6|unix|/tmp/.../plugin.sock|grpc|<base64 DER>`).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The magic cookie Terraform sets for its providers (key and value as in Terraform's plugin client). */
export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
const CORE_PROTOCOL_VERSION = 1;
const APP_PROTOCOL_VERSION = 6;

/** Checks that Terraform started us. Returns a human message explaining the problem, or null when all is well. */
export function checkPluginEnvironment(env: NodeJS.ProcessEnv): string | null {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    return (
      'This binary is a plugin for Terraform (or OpenTofu). These are not meant to be executed directly.\n' +
      'Declare the provider "virtseed/virtseed" in your configuration and run terraform (or cdktf), which starts it.\n'
    );
  }
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (versions.length && !versions.includes(String(APP_PROTOCOL_VERSION))) {
    return (
      `terraform-provider-virtseed speaks plugin protocol ${APP_PROTOCOL_VERSION}, but this Terraform offers ` +
      `${versions.join(', ')}. Use Terraform 1.0 or newer (or OpenTofu).\n`
    );
  }
  return null;
}

/** Where to listen: a unix socket in a fresh private folder (under `PLUGIN_UNIX_SOCKET_DIR` when set). The caller
 *  removes `dir` at exit. */
export function makeSocketPath(env: NodeJS.ProcessEnv): { dir: string; socket: string } {
  const base = env.PLUGIN_UNIX_SOCKET_DIR || os.tmpdir();
  const dir = fs.mkdtempSync(path.join(base, 'virtseed-plugin-'));
  return { dir, socket: path.join(dir, 'plugin.sock') };
}

/** The handshake line (with trailing newline). `network` is `unix` or `tcp`; `cert` is '' without AutoMTLS. */
export function handshakeLine(network: 'unix' | 'tcp', address: string, cert: string): string {
  return `${CORE_PROTOCOL_VERSION}|${APP_PROTOCOL_VERSION}|${network}|${address}|grpc|${cert}\n`;
}
