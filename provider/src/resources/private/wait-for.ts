/**
 * `virtseed_domain.wait_for`: start a domain and wait, through libvirt only, until its provisioning agent has
 * finished this boot — so it works the same for local and `qemu+ssh://` hosts and never reads a file on the host.
 *
 * How: the domain is started with its CPUs paused (VIR_DOMAIN_START_PAUSED), its serial console is opened as a
 * libvirt stream (virDomainOpenConsole; the chardev's `<log file>` keeps logging), then the CPUs are resumed. So the
 * stream holds this boot's console from its first byte, and no line of an earlier boot (an earlier instance-id) can
 * count: a re-provision by reboot is a new QEMU process whose cloud-init reads the new seed. The console lines go
 * through ProvisioningWatch (src/guest) until cloud-init's "finished" line (or Ignition's completion), the timeout,
 * the guest stopping, or StopProvider.
 *
 * `lease` polls the guest's addresses (the DHCP leases of its libvirt networks, and the QEMU guest agent when its
 * channel is connected; ./addresses) every second until one appears. A guest restarted with the same MAC may
 * still hold its lease from before the restart; that counts (the address is the one it will renew).
 *
 * Console lines are guest output and may carry user content: they are never logged; only a timeout or a stopped
 * guest puts the last lines into the diagnostic, for the user who owns the guest.
 */
import { Diagnostic, error, warning } from '../../../../src/diagnostics';
import { ConsoleLineSplitter, ProvisioningAgent, ProvisioningOutcome, ProvisioningWatch } from '../../../../src/guest';
import { DomRef, LibvirtClient, VIR_DOMAIN_START_PAUSED } from '../../../../src/libvirt';
import type { Logger } from '../../plugin/log';
import { allAddresses, domainAddresses } from './addresses';
import { messageOf } from './values';

/** Console lines kept for a timeout's diagnostic. */
const LAST_LINES = 25;

/** How a wait ended. `elapsedMs` counts from the resume of the CPUs; `finishedAtMs` is when the agent's line came. */
export type WaitResult =
  | { readonly kind: 'finished'; readonly outcome: ProvisioningOutcome; readonly elapsedMs: number }
  | { readonly kind: 'timeout'; readonly outcome: ProvisioningOutcome; readonly lastLines: readonly string[] }
  | { readonly kind: 'stopped'; readonly outcome: ProvisioningOutcome; readonly lastLines: readonly string[]; readonly reason: string }
  | { readonly kind: 'interrupted'; readonly outcome: ProvisioningOutcome }
  | { readonly kind: 'no-console'; readonly reason: string };

export interface WaitOptions {
  /** Seconds from the start of the CPUs. */
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
  let timedOut = false;
  try {
    await client.domainCreateWithFlags(dom, VIR_DOMAIN_START_PAUSED);
    const reading = (async (): Promise<{ end: 'finished' | 'closed'; reason?: string }> => {
      try {
        for await (const chunk of client.domainOpenConsole(dom, null, 0, { signal: abort.signal, onOpen: markOpen })) {
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
    timer = setTimeout(() => {
      timedOut = true;
      abort.abort(new Error('timeout'));
    }, options.timeoutS * 1000);
    const end = await reading;
    if (end.end === 'finished') {
      options.log.info(
        `domain ${dom.name}: ${agent} finished ${((Date.now() - started) / 1000).toFixed(1)} s after start: ${watch.outcome.finishedLine ?? ''}`,
      );
      return { kind: 'finished', outcome: watch.outcome, elapsedMs: Date.now() - started };
    }
    if (timedOut) return { kind: 'timeout', outcome: watch.outcome, lastLines: [...last] };
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
    d.push(
      error(
        ['wait_for'],
        summary,
        `${e.message}${context}\nThe domain exists and keeps running; fix the seed (a new instance-id provisions again) and apply.`,
      ),
    );
  }
  if (o.errors.length === 0) {
    for (const w of o.warnings) d.push(warning(['wait_for'], `${who} reported a problem on ${name}`, w));
  }
  const tail = (lines: readonly string[]): string =>
    lines.length ? `\nLast console lines:\n${lines.map((l) => `  ${l}`).join('\n')}` : '\nThe console showed nothing.';
  if (result.kind === 'timeout') {
    d.push(
      error(
        ['wait_timeout'],
        `${who} did not finish on ${name} within ${timeoutS} s`,
        `wait_for = "${agent}" gave up after wait_timeout = ${timeoutS} s; the domain keeps running and is kept in state.${tail(result.lastLines)}\nRaise wait_timeout for slow guests (TCG), or check that the image runs ${who}.`,
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
