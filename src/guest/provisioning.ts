/**
 * Reads a guest's provisioning agent from its serial console lines (one boot, from the first line on): when
 * cloud-init or Ignition has finished, and what it reported. Pure; no I/O.
 *
 * cloud-init (checked against cloud-init 22.4–24.x output on the console): every stage prints
 * `Cloud-init v. VERSION running 'STAGE' at …`; the final stage's final_message module prints
 * `Cloud-init v. VERSION finished at DATE. Datasource NAME [..].  Up N seconds` — also when modules failed, which
 * cloud-init logs at WARNING as `Running module NAME (<module …>) failed` (and, for scripts-user,
 * `Failed to run module scripts-user (…)`). Its console log handler writes `FILE.py[LEVEL]: message` for WARNING and
 * above. A module failure is an error; other WARNING lines are recoverable (warnings); finishing with
 * `DataSourceNone` means no seed was found (an error).
 *
 * Ignition (coreos/ignition internal/main.go, internal/exec/engine.go): every stage ends with `STAGE: STAGE passed`
 * and `Ignition finished successfully`, or `Ignition failed: ERROR`. Done when the `files` stage passed and that run
 * finished (the files stage is the one that provisions; later stages only unmount).
 */

/** Which agent provisions the guest. */
export type ProvisioningAgent = 'cloud-init' | 'ignition';

/** One problem the agent reported: the module (cloud-init) or stage (Ignition) when known, and its message. */
export interface ProvisioningProblem {
  readonly module?: string;
  readonly message: string;
}

/** What the console showed so far. */
export interface ProvisioningOutcome {
  readonly agent: ProvisioningAgent;
  /** The agent has finished (successfully or not): waiting is over. */
  readonly finished: boolean;
  /** Errors that make provisioning a failure (module failures, no datasource, Ignition failed). */
  readonly errors: readonly ProvisioningProblem[];
  /** Recoverable problems (cloud-init WARNING lines that are not module failures), in order, without repeats. */
  readonly warnings: readonly string[];
  /** The agent's own completion line (cloud-init's "finished" line, Ignition's last "finished successfully"). */
  readonly finishedLine?: string;
  /** cloud-init's version from its banner lines. */
  readonly version?: string;
  /** cloud-init's datasource from the "finished" line, e.g. `DataSourceNoCloud`. */
  readonly datasource?: string;
}

const CI_FINISHED = /Cloud-init v\. (\S+) finished at .*?Datasource (\w+)/;
const CI_RUNNING = /Cloud-init v\. (\S+) running '/;
const CI_LOG = /\b[\w.-]+\.py\[(WARNING|ERROR|CRITICAL)\]: ?(.*)$/;
const CI_MODULE_FAILED = [/^Running module (\S+) \(.*\) failed/, /^Failed to run module (\S+)/];
const IGN_FAILED = /Ignition failed: ?(.*)$/;
const IGN_PASSED = /\b(\w[\w-]*): \1 passed\b/;
const IGN_FINISHED = /Ignition finished successfully/;
const IGN_LOG_ERROR = /\b(?:ERROR|CRITICAL)\s*: ?(.*)$/;

/** Feeds console lines of one boot; `outcome` says whether and how the agent finished. */
export class ProvisioningWatch {
  private done = false;
  private readonly errors: ProvisioningProblem[] = [];
  private readonly warnings: string[] = [];
  private finishedLine?: string;
  private version?: string;
  private datasource?: string;
  private filesPassed = false;

  constructor(readonly agent: ProvisioningAgent) {}

  /** Feeds one console line (no line end). Returns true once the agent has finished. */
  line(text: string): boolean {
    if (this.done) return true;
    if (this.agent === 'cloud-init') this.cloudInit(text);
    else this.ignition(text);
    return this.done;
  }

  get outcome(): ProvisioningOutcome {
    return {
      agent: this.agent,
      finished: this.done,
      errors: [...this.errors],
      warnings: [...this.warnings],
      finishedLine: this.finishedLine,
      version: this.version,
      datasource: this.datasource,
    };
  }

  private cloudInit(text: string): void {
    const fin = CI_FINISHED.exec(text);
    if (fin) {
      this.done = true;
      this.finishedLine = text.slice(text.indexOf('Cloud-init v.')).trim();
      this.version = fin[1];
      this.datasource = fin[2];
      if (fin[2] === 'DataSourceNone') {
        this.errors.push({ message: 'cloud-init found no datasource (it ran with DataSourceNone): the guest did not see the seed' });
      }
      return;
    }
    const run = CI_RUNNING.exec(text);
    if (run) {
      this.version = run[1];
      return;
    }
    const log = CI_LOG.exec(text);
    if (!log) return;
    const [, level, raw] = log;
    const message = raw.trim();
    for (const re of CI_MODULE_FAILED) {
      const m = re.exec(message);
      if (m) {
        if (!this.errors.some((e) => e.module === m[1])) this.errors.push({ module: m[1], message });
        return;
      }
    }
    if (level === 'WARNING') {
      if (!this.warnings.includes(message)) this.warnings.push(message);
    } else if (!this.errors.some((e) => e.message === message)) {
      this.errors.push({ message });
    }
  }

  private ignition(text: string): void {
    const failed = IGN_FAILED.exec(text);
    if (failed) {
      this.errors.push({ message: `Ignition failed: ${failed[1].trim()}` });
      this.done = true;
      this.finishedLine = text.trim();
      return;
    }
    const passed = IGN_PASSED.exec(text);
    if (passed) {
      if (passed[1] === 'files') this.filesPassed = true;
      return;
    }
    if (IGN_FINISHED.test(text)) {
      if (this.filesPassed) {
        this.done = true;
        this.finishedLine = text.trim();
      }
      return;
    }
    const err = IGN_LOG_ERROR.exec(text);
    if (err && /ignition/i.test(text)) {
      const message = err[1].trim();
      if (message && !this.warnings.includes(message)) this.warnings.push(message);
    }
  }
}
