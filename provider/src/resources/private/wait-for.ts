/**
 * `virtseed_domain.wait_for`: start a domain and wait, through libvirt only, until its provisioning agent has
 * finished this boot — so it works the same for local and `qemu+ssh://` hosts and never reads a file on the host.
 *
 * How: the domain is started with its CPUs paused (VIR_DOMAIN_START_PAUSED), its serial console is opened as a
 * libvirt stream (virDomainOpenConsole; the chardev's `<log file>` keeps logging), then the CPUs are resumed. So the
 * stream holds this boot's console from its first byte, and no line of an earlier boot (an earlier instance-id) can
 * count: a re-provision by reboot is a new QEMU process whose cloud-init reads the new seed. The console lines go
 * through ProvisioningWatch (src/guest) until cloud-init's "finished" line or its first module failure (or Ignition's
 * completion), the guest stopping, StopProvider, or the end of its progress: every console byte is progress, and the
 * wait gives up after `wait_timeout` seconds without one, or after TOTAL_PER_SILENCE × `wait_timeout` in all
 * (src/guest/wait-progress.ts), so a slow boot (TCG on a busy host) that keeps printing is not declared failed.
 *
 * `lease` polls the guest's addresses (the DHCP leases of its libvirt networks, and the QEMU guest agent when its
 * channel is connected; ./addresses) every second until one appears. A guest restarted with the same MAC may
 * still hold its lease from before the restart; that counts (the address is the one it will renew).
 *
 * Console lines are guest output and may carry user content: they are never logged; only a timeout or a stopped
 * guest puts the last lines into the diagnostic, for the user who owns the guest.
 */
import { Diagnostic, error, warning } from '../../../../src/diagnostics';
import {
  ConsoleLineSplitter,
  ProvisioningAgent,
  ProvisioningOutcome,
  ProvisioningWatch,
  TOTAL_PER_SILENCE,
  waitBounds,
  waitVerdict,
  type WaitVerdict,
} from '../../../../src/guest';
import { DomRef, LibvirtClient, VIR_DOMAIN_START_PAUSED } from '../../../../src/libvirt';
import type { Logger } from '../../plugin/log';
import { allAddresses, domainAddresses } from './addresses';
import { messageOf } from './values';

/** Console lines kept for a timeout's diagnostic. */
const LAST_LINES = 25;

/** How a wait ended. `elapsedMs` counts from the resume of the CPUs; `finishedAtMs` is when the agent's line came. */
export type WaitResult =
  | { readonly kind: 'finished'; readonly outcome: ProvisioningOutcome; readonly elapsedMs: number }
  | {
      readonly kind: 'timeout';
      readonly outcome: ProvisioningOutcome;
      readonly lastLines: readonly string[];
      /** Which bound ended it: the console's silence, or the total. */
      readonly bound: 'silent' | 'too-long';
    }
  | { readonly kind: 'stopped'; readonly outcome: ProvisioningOutcome; readonly lastLines: readonly string[]; readonly reason: string }
  | { readonly kind: 'interrupted'; readonly outcome: ProvisioningOutcome }
  | { readonly kind: 'no-console'; readonly reason: string };

export interface WaitOptions {
  /** `wait_timeout`: seconds of console silence (and, times TOTAL_PER_SILENCE, the whole wait from the start of the CPUs). */
  readonly timeoutS: number;
  /** StopProvider: ends the wait early (the guest keeps running). */
  readonly signal: AbortSignal;
  readonly log: Logger;
}

/**
 * Starts the shut-off domain `dom` and waits for `agent` to finish this boot. Resolves with how the wait ended
 * (the guest keeps running in every case); rejects only when the domain cannot be started (LibvirtError).
 */
export async function startAndWait(
  client: LibvirtClient,
  dom: DomRef,
  agent: ProvisioningAgent,
  options: WaitOptions,
): Promise<WaitResult> {
  const abort = new AbortController();
  const stop = (): void => abort.abort(new Error('interrupted'));
  options.signal.addEventListener('abort', stop, { once: true });
  const splitter = new ConsoleLineSplitter();
  const watch = new ProvisioningWatch(agent);
  const last: string[] = [];
  const remember = (line: string): boolean => {
    if (line.trim()) {
      last.push(line);
      if (last.length > LAST_LINES) last.shift();
    }
    return watch.line(line);
  };
  let markOpen!: () => void;
  const opened = new Promise<void>((resolve) => {
    markOpen = resolve;
  });
  let timer: NodeJS.Timeout | undefined;
  let gaveUp: Exclude<WaitVerdict, { kind: 'wait' }> | undefined;
  let lastOutputMs = 0;
  try {
    await client.domainCreateWithFlags(dom, VIR_DOMAIN_START_PAUSED);
    const reading = (async (): Promise<{ end: 'finished' | 'closed'; reason?: string }> => {
      try {
        for await (const chunk of client.domainOpenConsole(dom, null, 0, { signal: abort.signal, onOpen: markOpen })) {
          if (chunk.length) lastOutputMs = Date.now();
          for (const line of splitter.push(chunk)) if (remember(line)) return { end: 'finished' };
        }
        if (remember(splitter.flush())) return { end: 'finished' };
        return { end: 'closed', reason: 'the console closed (the guest stopped)' };
      } catch (err) {
        return { end: 'closed', reason: messageOf(err) };
      }
    })();
    const first = await Promise.race([opened.then(() => null), reading]);
    if (first !== null) {
      // The console could not be opened: let the guest run anyway and say why there is no wait.
      await client.domainResume(dom);
      return { kind: 'no-console', reason: first.reason ?? 'unknown' };
    }
    await client.domainResume(dom);
    const started = Date.now();
    lastOutputMs = started;
    const bounds = waitBounds(options.timeoutS);
    const check = (): void => {
      const now = Date.now();
      const verdict = waitVerdict(bounds, started, lastOutputMs, now);
      if (verdict.kind === 'wait') {
        timer = setTimeout(check, Math.max(1, verdict.checkAtMs - now));
        return;
      }
      gaveUp = verdict;
      abort.abort(new Error('timeout'));
    };
    timer = setTimeout(check, options.timeoutS * 1000);
    const end = await reading;
    if (end.end === 'finished') {
      const o = watch.outcome;
      options.log.info(
        `domain ${dom.name}: ${agent} ${o.finishedLine ? 'finished' : `module ${o.errors[0]?.module ?? ''} failed`} ${((Date.now() - started) / 1000).toFixed(1)} s after start${o.finishedLine ? `: ${o.finishedLine}` : ''}`,
      );
      return { kind: 'finished', outcome: watch.outcome, elapsedMs: Date.now() - started };
    }
    if (gaveUp) return { kind: 'timeout', outcome: watch.outcome, lastLines: [...last], bound: gaveUp.kind };
    if (options.signal.aborted) return { kind: 'interrupted', outcome: watch.outcome };
    return { kind: 'stopped', outcome: watch.outcome, lastLines: [...last], reason: end.reason ?? '' };
  } finally {
    if (timer) clearTimeout(timer);
    abort.abort(new Error('done'));
    options.signal.removeEventListener('abort', stop);
  }
}

/** How a `lease` wait ended. */
export type LeaseResult =
  | { readonly kind: 'address'; readonly addresses: readonly string[]; readonly elapsedMs: number }
  | { readonly kind: 'timeout' | 'interrupted' };

/** Polls every `intervalMs` (default 1000). */
export interface LeaseWaitOptions extends WaitOptions {
  readonly intervalMs?: number;
}

/**
 * Starts the shut-off domain `dom` and waits until libvirt knows an address of it. Rejects only when the domain
 * cannot be started or libvirt fails (LibvirtError).
 */
export async function startAndWaitForLease(client: LibvirtClient, dom: DomRef, options: LeaseWaitOptions): Promise<LeaseResult> {
  await client.domainCreate(dom);
  const started = Date.now();
  const deadline = started + options.timeoutS * 1000;
  for (;;) {
    if (options.signal.aborted) return { kind: 'interrupted' };
    const addresses = allAddresses(
      await domainAddresses(client, dom, { agent: true, signal: options.signal }).catch((err) => {
        if (options.signal.aborted) return [];
        throw err;
      }),
    );
    if (addresses.length) {
      options.log.info(`domain ${dom.name}: address ${addresses.join(', ')} ${((Date.now() - started) / 1000).toFixed(1)} s after start`);
      return { kind: 'address', addresses, elapsedMs: Date.now() - started };
    }
    if (Date.now() >= deadline) return { kind: 'timeout' };
    await pause(Math.min(options.intervalMs ?? 1000, Math.max(0, deadline - Date.now())), options.signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The diagnostics of a `lease` wait for domain `name` (empty when an address appeared). */
export function leaseDiagnostics(name: string, timeoutS: number, result: LeaseResult): Diagnostic[] {
  if (result.kind === 'timeout') {
    return [
      error(
        ['wait_timeout'],
        `No address for ${name} within ${timeoutS} s`,
        `wait_for = "lease" gave up after wait_timeout = ${timeoutS} s: no DHCP lease on the domain's libvirt networks (and no guest agent address). ` +
          'The domain keeps running and is kept in state. Check that the network has DHCP (an <ip> with a <dhcp> range) and that the guest configures its NIC by DHCP, or raise wait_timeout.',
      ),
    ];
  }
  if (result.kind === 'interrupted')
    return [
      error(['wait_for'], 'Interrupted', `Terraform was interrupted while waiting for an address of ${name}; the guest keeps running.`),
    ];
  return [];
}

const AGENT_NAME: Record<ProvisioningAgent, string> = { 'cloud-init': 'cloud-init', ignition: 'Ignition' };

/**
 * The diagnostics of a wait for domain `name`: errors for the agent's errors (each naming the module and its
 * message), a timeout, a guest that stopped, or an interrupt; warnings for recoverable problems. Empty when the
 * agent finished cleanly.
 */
export function waitDiagnostics(name: string, timeoutS: number, result: WaitResult, agent: ProvisioningAgent): Diagnostic[] {
  const who = AGENT_NAME[agent];
  const d: Diagnostic[] = [];
  if (result.kind === 'no-console') {
    d.push(
      error(
        ['wait_for'],
        `Cannot wait for ${who} on ${name}`,
        `The guest was started, but its serial console could not be opened through libvirt to watch ${who} (${result.reason}). Close other console sessions (virsh console) or set wait_for = "none".`,
      ),
    );
    return d;
  }
  const o = result.outcome;
  for (const e of o.errors) {
    const summary = e.module ? `${who} module ${e.module} failed on ${name}` : `${who} failed on ${name}`;
    const context = o.warnings.length ? `\n${who} also reported:\n${o.warnings.map((w) => `  ${w}`).join('\n')}` : '';
    // A module failure ends the wait at once (ProvisioningWatch): cloud-init goes on in the guest.
    const goesOn =
      result.kind === 'finished' && !o.finishedLine
        ? ` ${who} goes on with its later modules (the apply stopped waiting at this failure);`
        : '';
    d.push(
      error(
        ['wait_for'],
        summary,
        `${e.message}${context}\nThe domain exists and keeps running;${goesOn} fix the seed (a new instance-id provisions again) and apply.`,
      ),
    );
  }
  if (o.errors.length === 0) {
    for (const w of o.warnings) d.push(warning(['wait_for'], `${who} reported a problem on ${name}`, w));
  }
  const tail = (lines: readonly string[]): string =>
    lines.length ? `\nLast console lines:\n${lines.map((l) => `  ${l}`).join('\n')}` : '\nThe console showed nothing.';
  if (result.kind === 'timeout' && result.bound === 'silent') {
    d.push(
      error(
        ['wait_timeout'],
        `${who} did not finish on ${name}: no console output for ${timeoutS} s`,
        `wait_for = "${agent}" gave up: the guest's serial console printed nothing for wait_timeout = ${timeoutS} s (a guest that keeps printing is waited for). The domain keeps running and is kept in state.${tail(result.lastLines)}\nCheck that the image runs ${who} and prints to its serial console (console=ttyS0), or raise wait_timeout.`,
      ),
    );
  } else if (result.kind === 'timeout') {
    const totalS = Number(waitBounds(timeoutS).totalS.toFixed(3));
    d.push(
      error(
        ['wait_timeout'],
        `${who} did not finish on ${name} within ${totalS} s`,
        `wait_for = "${agent}" gave up after ${totalS} s (${TOTAL_PER_SILENCE} × wait_timeout = ${timeoutS} s), though the guest's console kept printing (a boot loop?). The domain keeps running and is kept in state.${tail(result.lastLines)}\nRaise wait_timeout for a guest that needs longer, or check that the image runs ${who}.`,
      ),
    );
  } else if (result.kind === 'stopped') {
    d.push(
      error(
        ['wait_for'],
        `${name} stopped before ${who} finished`,
        `The guest's console ended (${result.reason}) before ${who} reported completion.${tail(result.lastLines)}`,
      ),
    );
  } else if (result.kind === 'interrupted') {
    d.push(error(['wait_for'], 'Interrupted', `Terraform was interrupted while waiting for ${who} on ${name}; the guest keeps running.`));
  }
  return d;
}
