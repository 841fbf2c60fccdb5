/**
 * One provider process serving every terraform command of a test's working directory, the way Terraform's own
 * provider test harness (terraform-plugin-testing) runs providers: the harness starts the provider as a go-plugin
 * server itself and hands its address to terraform in `TF_REATTACH_PROVIDERS`; terraform then starts no provider
 * process (it would otherwise start about three per command, each about 0.33 CPU s: issue 33).
 *
 * The provider is the real built one, the executable installed in the test mirror by scripts/install-provider.sh,
 * started with the plugin environment Terraform gives it (`TF_PLUGIN_MAGIC_COOKIE`, `PLUGIN_PROTOCOL_VERSIONS=6`, no
 * `PLUGIN_CLIENT_CERT`: no AutoMTLS) and its handshake line read from its stdout (provider/src/plugin/handshake.ts).
 * `Test: true` in the reattach config tells terraform's plugin client not to stop the process after a command
 * (go-plugin's ReattachConfig.Test); the harness stops it: `stop()`, at the jest process's exit, and — should the
 * jest process be killed — by the kernel (the parent-death signal SIGTERM, set with setpriv(1)).
 *
 * `VIRTSEED_TEST_MANAGED_PROVIDER=1` turns reattaching off everywhere (terraform starts the provider, as for users):
 * the escape hatch when a failure is suspected to come from it. Which working directories stay managed, and why,
 * is decided by {@link managedReason}.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** The provider's address as Terraform keys `TF_REATTACH_PROVIDERS` (its registry source address). */
export const PROVIDER_ADDRESS = 'registry.terraform.io/virtseed/virtseed';

/** The variable that turns reattaching off everywhere when set to `1`. */
export const MANAGED_PROVIDER_VAR = 'VIRTSEED_TEST_MANAGED_PROVIDER';

/** The magic cookie Terraform gives its providers (key and value as in provider/src/plugin/handshake.ts). */
const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';

/**
 * Environment variables the provider reads (grep `process.env` and `env.` in provider/src and the src/ it bundles):
 * a test that sets one of them tests what the provider makes of it in a process terraform started, so it stays on
 * the managed path. `TF_LOG*` also belongs here: terraform shows a reattached provider's log nowhere.
 */
const PROVIDER_READS = /^(TF_LOG.*|VIRTSEED_KVM_PROBED|VIRTSEED_LIBVIRT_SCHEMAS|XDG_RUNTIME_DIR|HOME|PLUGIN_.*)$/;

/** go-plugin's ReattachConfig as Terraform parses it from `TF_REATTACH_PROVIDERS` (one provider's entry). */
export interface ReattachConfig {
  readonly Protocol: 'grpc';
  readonly ProtocolVersion: number;
  readonly Pid: number;
  readonly Test: true;
  readonly Addr: { readonly Network: 'unix' | 'tcp'; readonly String: string };
}

/**
 * The reattach config of the provider process `pid` from its go-plugin handshake line
 * (`CORE|APP|NETWORK|ADDRESS|PROTOCOL|CERT`, e.g. `1|6|unix|/tmp/x/plugin.sock|grpc|`). Throws `Error` naming the
 * line when it is not one: another core protocol than 1, no app protocol version, a network other than unix or
 * tcp, no address, a protocol other than grpc, or a certificate (AutoMTLS cannot be reattached).
 */
export function reattachConfigOf(line: string, pid: number): ReattachConfig {
  const parts = line.trim().split('|');
  const bad = (why: string) => new Error(`not a go-plugin handshake line for reattaching (${why}): ${JSON.stringify(line)}`);
  if (parts.length < 5) throw bad(`${parts.length} fields, expected 5 or 6`);
  const [core, app, network, address, protocol, cert = ''] = parts;
  if (core !== '1') throw bad(`core protocol ${core}, expected 1`);
  if (!/^[1-9][0-9]*$/.test(app)) throw bad(`app protocol version ${JSON.stringify(app)}`);
  if (network !== 'unix' && network !== 'tcp') throw bad(`network ${JSON.stringify(network)}, expected unix or tcp`);
  if (!address) throw bad('no address');
  if (protocol !== 'grpc') throw bad(`protocol ${JSON.stringify(protocol)}, expected grpc`);
  if (cert) throw bad('it carries an AutoMTLS certificate');
  if (!(Number.isInteger(pid) && pid > 0)) throw new Error(`pid ${pid} is not a process id`);
  return { Protocol: 'grpc', ProtocolVersion: Number(app), Pid: pid, Test: true, Addr: { Network: network, String: address } };
}

/** The value of `TF_REATTACH_PROVIDERS` pointing terraform at `config` for the virtseed provider (JSON). */
export function reattachValue(config: ReattachConfig): string {
  return JSON.stringify({ [PROVIDER_ADDRESS]: config });
}

/**
 * Why a working directory must run terraform the managed way (terraform starts the provider, as for users), or
 * null when it may reattach. The one place this is decided:
 * - `forced`: the test says so (a reason of its own, or true);
 * - `VIRTSEED_TEST_MANAGED_PROVIDER=1` in `processEnv`;
 * - `env` (the extra variables the test gives terraform) sets `TF_LOG*` or a variable the provider reads;
 * - `configs` (the working directory's `.tf` texts) hold more than one `provider "virtseed"` block: one process
 *   would take several ConfigureProvider calls with different hosts in one command.
 */
export function managedReason(
  configs: readonly string[],
  env: NodeJS.ProcessEnv,
  forced: string | boolean | undefined,
  processEnv: NodeJS.ProcessEnv = process.env,
): string | null {
  if (forced) return typeof forced === 'string' ? forced : 'the test asks for it';
  if (processEnv[MANAGED_PROVIDER_VAR] === '1') return `${MANAGED_PROVIDER_VAR}=1`;
  const read = Object.keys(env).filter((k) => env[k] !== undefined && PROVIDER_READS.test(k));
  if (read.length) return `the test sets ${read.join(', ')}, which the provider reads`;
  const blocks = configs.reduce((n, c) => n + (c.match(/^\s*provider\s+"virtseed"\s*\{/gm)?.length ?? 0), 0);
  if (blocks > 1) return `${blocks} provider "virtseed" blocks`;
  return null;
}

/** The provider executable installed in the test mirror (`VIRTSEED_TEST_MIRROR`, scripts/test-env.sh). Throws
 *  when the mirror is not set or holds no provider. */
export function installedProvider(mirror = process.env.VIRTSEED_TEST_MIRROR): string {
  if (!mirror) throw new Error('VIRTSEED_TEST_MIRROR is not set: source scripts/test-env.sh and run scripts/install-provider.sh');
  const exe = path.join(mirror, PROVIDER_ADDRESS, '0.1.0/linux_amd64/terraform-provider-virtseed_v0.1.0');
  if (!fs.existsSync(exe)) throw new Error(`no provider at ${exe}: run scripts/install-provider.sh into the test mirror`);
  return exe;
}

/** Sleeps `ms` milliseconds, blocking (the harness's terraform calls are synchronous too). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether process `pid` still runs (a zombie, exited but not yet reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const live = new Set<ProviderProcess>();
let exitHookSet = false;

/** A provider process started for reattaching (see the module doc). */
export class ProviderProcess {
  /** `TF_REATTACH_PROVIDERS`'s value for this process. */
  readonly reattach: string;
  private stopped = false;

  private constructor(
    readonly pid: number,
    private readonly dir: string,
    line: string,
  ) {
    this.reattach = reattachValue(reattachConfigOf(line, pid));
  }

  /**
   * Starts the provider `executable` with `env` (terraform's environment; the plugin variables are added) in
   * `cwd` (terraform's working directory, as terraform would) and waits, blocking, for its handshake line: at most
   * `timeoutMs` ms. Throws `Error` with the provider's stderr when it exits or prints nothing usable in time.
   */
  static start(cwd: string, env: NodeJS.ProcessEnv, executable = installedProvider(), timeoutMs = 60_000): ProviderProcess {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-reattach-'));
    const outFile = path.join(dir, 'stdout');
    const errFile = path.join(dir, 'stderr');
    const out = fs.openSync(outFile, 'w');
    const err = fs.openSync(errFile, 'w');
    const childEnv: NodeJS.ProcessEnv = { ...env, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: '6' };
    delete childEnv.TF_REATTACH_PROVIDERS;
    delete childEnv.PLUGIN_CLIENT_CERT;
    childEnv.PLUGIN_UNIX_SOCKET_DIR = dir; // the socket's folder goes with `dir`, even when the process is killed
    const child = spawn('setpriv', ['--pdeathsig', 'TERM', '--', executable], { cwd, env: childEnv, stdio: ['ignore', out, err] });
    fs.closeSync(out);
    fs.closeSync(err);
    child.on('error', () => undefined); // reported below: no pid, or no handshake
    child.unref();
    const pid = child.pid;
    const failed = (why: string) => {
      if (pid) ProviderProcess.kill(pid);
      const stderr = fs.existsSync(errFile) ? fs.readFileSync(errFile, 'utf8') : '';
      fs.rmSync(dir, { recursive: true, force: true });
      return new Error(`the provider ${executable} (for TF_REATTACH_PROVIDERS) ${why}; its stderr:\n${stderr}`);
    };
    if (!pid) throw failed('could not be started');
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = fs.readFileSync(outFile, 'utf8');
      const nl = text.indexOf('\n');
      if (nl >= 0) {
        const started = new ProviderProcess(pid, dir, text.slice(0, nl));
        live.add(started);
        if (!exitHookSet) {
          exitHookSet = true;
          process.on('exit', () => {
            for (const p of live) {
              try {
                process.kill(p.pid, 'SIGTERM');
              } catch {
                // gone already
              }
            }
          });
        }
        return started;
      }
      if (!running(pid)) throw failed('exited before its handshake line');
      if (Date.now() > deadline) throw failed(`printed no handshake line in ${timeoutMs / 1000} s`);
      sleepSync(10);
    }
  }

  /** All the process has written to its stderr (its log) so far; '' when nothing, or once stopped. */
  stderrText(): string {
    const file = path.join(this.dir, 'stderr');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  /** The last `lines` lines of the process's stderr (its log), '' when it wrote none. */
  stderrTail(lines = 40): string {
    return this.stderrText()
      .split('\n')
      .slice(-lines - 1)
      .join('\n');
  }

  /** Whether the process still runs. */
  get alive(): boolean {
    return !this.stopped && running(this.pid);
  }

  /** Stops the process: SIGTERM (the provider's graceful exit), SIGKILL when it still runs 3 s later; removes its
   *  folder. Blocks until then; returns all it wrote to its stderr (its log), '' the second time. */
  stop(): string {
    if (this.stopped) return '';
    this.stopped = true;
    live.delete(this);
    ProviderProcess.kill(this.pid);
    const log = this.stderrText();
    fs.rmSync(this.dir, { recursive: true, force: true });
    return log;
  }

  private static kill(pid: number): void {
    const signal = (sig: NodeJS.Signals) => {
      try {
        process.kill(pid, sig);
      } catch {
        // gone already
      }
    };
    signal('SIGTERM');
    const deadline = Date.now() + 3000;
    while (running(pid) && Date.now() < deadline) sleepSync(20);
    if (running(pid)) signal('SIGKILL');
  }
}

/**
 * One provider process that terraform runs made one after the other reattach to: a TfWorkdir's, or a file's runs
 * outside one (cdktf's, a pipeline script's), started in the folder `cwd()` names at the first run that needs it,
 * and started again if it died.
 */
export class SharedProvider {
  /** The process, once started (undefined again after `stop`). */
  process: ProviderProcess | undefined;

  constructor(private readonly cwd: () => string) {}

  /**
   * `TF_REATTACH_PROVIDERS` for a run outside a TfWorkdir: the process started with the test's environment less
   * TF_LOG; nothing when reattaching is off (`managedReason`, e.g. VIRTSEED_TEST_MANAGED_PROVIDER=1).
   */
  env(): NodeJS.ProcessEnv {
    if (managedReason([], {}, undefined) !== null) return {};
    const env = { ...process.env };
    delete env.TF_LOG;
    return { TF_REATTACH_PROVIDERS: this.reattach(env) };
  }

  /** The `TF_REATTACH_PROVIDERS` value of the process, started with `env` first when none runs (a dead one stopped). */
  reattach(env: NodeJS.ProcessEnv): string {
    if (!this.process?.alive) {
      this.process?.stop();
      this.process = ProviderProcess.start(this.cwd(), env);
    }
    return this.process.reattach;
  }

  /**
   * When the process is gone: a line saying so and its stderr's last lines, which terraform cannot show for a
   * provider it did not start. '' when none was started or it runs.
   */
  deathReport(): string {
    const p = this.process;
    if (!p || p.alive) return '';
    return `\n--- the provider process terraform was reattached to (pid ${p.pid}) is gone; its stderr's last lines:\n${p.stderrTail()}`;
  }

  /** Stops the process if one runs (the next run starts another); returns all it wrote to its stderr, '' when none ran. */
  stop(): string {
    const log = this.process?.stop() ?? '';
    this.process = undefined;
    return log;
  }
}
