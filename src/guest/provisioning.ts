/**
 * Reads a guest's provisioning agent from its serial console lines (one boot, from the first line on): when
 * cloud-init or Ignition has finished, and what it reported. Pure; no I/O.
 *
 * cloud-init (checked against cloud-init 22.4 and 25.1 output on the console): every stage prints
 * `Cloud-init v. VERSION running 'STAGE' at …`; the final stage's final_message module prints
 * `Cloud-init v. VERSION finished at DATE. Datasource NAME [..].  Up N seconds` — also when modules failed, which
 * cloud-init logs at WARNING as `Running module NAME (<module …>) failed` (and, for scripts-user,
 * `Failed to run module scripts-user (…)`). Its console log handler writes `FILE.py[LEVEL]: message` for WARNING and
 * above; cloud-init ≥ 23.4 logs deprecations at its own level DEPRECATED (35, between WARNING and ERROR; 22.4 logged
 * them at WARNING), which counts as a warning here. A module failure is an error, and ends the watch at once: it
 * fails the apply whatever follows, and cloud-init goes on with the later modules and stages (a package upgrade can
 * take minutes), so waiting for the "finished" line would only delay the failure (and, under `snapshot_before`, the
 * revert). Other WARNING and DEPRECATED lines are recoverable (warnings); finishing with `DataSourceNone` means no
 * seed was found (an error). A message of several lines (e.g. 22.4's `Deprecated cloud-config provided:` followed by
 * one `KEY: why` line per key; 25.1 puts them on one line) reaches the console one line per journal entry, each with
 * the same `cloud-init[PID]:` tag and no `FILE.py[LEVEL]` marker: a message ending in `:` takes the `KEY: text`
 * lines that follow it with the same tag, joined by newlines.
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
  /**
   * Waiting is over: the agent has finished (successfully or not), or cloud-init reported a module failure (then
   * `finishedLine` is absent: cloud-init goes on in the guest).
   */
  readonly finished: boolean;
  /** Errors that make provisioning a failure (module failures, no datasource, Ignition failed). */
  readonly errors: readonly ProvisioningProblem[];
  /** Recoverable problems (cloud-init WARNING and DEPRECATED lines that are not module failures), in order, without repeats. */
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
const CI_LOG = /\b[\w.-]+\.py\[(WARNING|DEPRECATED|ERROR|CRITICAL)\]: ?(.*)$/;
/** Any cloud-init log marker, of every level (a continuation line has none). */
const CI_ANY_LOG = /\b[\w.-]+\.py\[[A-Z]+\]:/;
/** The kernel-style time stamp journald puts before console lines. */
const CONSOLE_STAMP = /^\[\s*[\d.]+\]\s*/;
/** A line of a multi-line message: `KEY.PATH: text`, as cloud-init's schema problems (not its `ci-info:` tables). */
const SCHEMA_PROBLEM = /^(?!ci-info:)[\w.[\]-]+:\s+\S/;
/** cloud-init's own time stamp before `FILE.py[LEVEL]`. */
const CI_TIME = /\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} - $/;
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
  /** A message ending in `:` that may go on in the next lines: which list, where, and its lines' tag. */
  private open?: { list: 'warnings' | 'errors'; index: number; tag: string };

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
    if (this.open && this.continues(text)) return;
    this.closeOpen();
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
        this.done = true;
        return;
      }
    }
    const tag = text.slice(0, log.index).replace(CONSOLE_STAMP, '').replace(CI_TIME, '').trim();
    const multiLine = message.endsWith(':') && tag !== '';
    if (level === 'WARNING' || level === 'DEPRECATED') {
      if (multiLine || !this.warnings.includes(message)) this.warnings.push(message);
      if (multiLine) this.open = { list: 'warnings', index: this.warnings.length - 1, tag };
    } else if (multiLine || !this.errors.some((e) => e.message === message)) {
      this.errors.push({ message });
      if (multiLine) this.open = { list: 'errors', index: this.errors.length - 1, tag };
    }
  }

  /** Appends `text` to the open message when it is one of its lines (same tag, no log marker); else false. */
  private continues(text: string): boolean {
    const open = this.open!;
    const line = text.replace(CONSOLE_STAMP, '');
    if (!line.startsWith(open.tag) || CI_ANY_LOG.test(line) || CI_RUNNING.test(line) || CI_FINISHED.test(line)) return false;
    const more = line.slice(open.tag.length).trim();
    if (!SCHEMA_PROBLEM.test(more)) return false;
    if (open.list === 'warnings') this.warnings[open.index] += `\n${more}`;
    else this.errors[open.index] = { message: `${this.errors[open.index].message}\n${more}` };
    return true;
  }

  /** Ends the open message; drops it when an earlier message was the same. */
  private closeOpen(): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    if (open.list === 'warnings') {
      if (this.warnings.indexOf(this.warnings[open.index]) < open.index) this.warnings.splice(open.index, 1);
    } else if (this.errors.findIndex((e) => e.message === this.errors[open.index].message) < open.index) {
      this.errors.splice(open.index, 1);
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
