/**
 * wait_for's control flow with a fake libvirt client (the real console stream is tested against libvirtd in
 * test/libvirt/console.int.test.ts and with guests in test/e2e/provision-cycle.int.test.ts and test/e2e/firmware-boot.int.test.ts): the order start paused →
 * open console → resume, and how each ending becomes diagnostics.
 */
import type { Logger } from '../../../provider/src/plugin/log';
import { domain } from '../../../provider/src/resources/domain';
import {
  leaseDiagnostics,
  startAndWait,
  startAndWaitForLease,
  waitDiagnostics,
  WaitResult,
} from '../../../provider/src/resources/private/wait-for';
import type { DomainState } from '../../../provider/src/resources/private/model';
import type { DomRef, LibvirtClient, StreamOptions } from '../../../src/libvirt';
import { handlerContext } from '../fixtures/context';
import { domainState, nicState } from '../fixtures/domain';

const DOM: DomRef = { name: 'vstest-unit', uuid: Buffer.alloc(16), id: 3 };
const log: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const FINISHED =
  'cloud-init[9]: Cloud-init v. 22.4.2 finished at Mon, 23 Nov 2026 01:00:34 +0000. Datasource DataSourceNoCloud [seed=/dev/sr0].  Up 45.60 seconds\r\n';

/** A client whose console yields `chunks` after the resume, then ends (or hangs until aborted when `hang`). */
function fakeClient(chunks: string[], opts: { hang?: boolean; openFails?: boolean } = {}) {
  const calls: string[] = [];
  let resumed!: () => void;
  const resumedP = new Promise<void>((r) => (resumed = r));
  const client = {
    calls,
    async domainCreateWithFlags(_d: DomRef, flags: number) {
      calls.push(`create flags=${flags}`);
    },
    async domainResume() {
      calls.push('resume');
      resumed();
    },
    async *domainOpenConsole(_d: DomRef, _dev: string | null, _flags: number, options: StreamOptions) {
      calls.push('open');
      if (opts.openFails) throw new Error('Active console session exists for this domain');
      options.onOpen?.();
      await resumedP;
      for (const c of chunks) yield Buffer.from(c);
      if (opts.hang) {
        await new Promise((_r, reject) => options.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
      }
    },
  };
  return client as typeof client & LibvirtClient;
}

const never = new AbortController().signal;

describe('startAndWait', () => {
  test("GIVEN a guest that prints cloud-init's finished line WHEN waiting THEN it starts paused, opens the console, resumes, and finishes", async () => {
    const client = fakeClient(['boot\r\n', FINISHED.slice(0, 30), FINISHED.slice(30)]);
    const r = await startAndWait(client, DOM, 'cloud-init', { timeoutS: 5, signal: never, log });
    expect(client.calls).toEqual(['create flags=1', 'open', 'resume']);
    expect(r.kind).toBe('finished');
    expect(waitDiagnostics('vm', 5, r, 'cloud-init')).toEqual([]);
  });

  test('GIVEN a guest that never finishes WHEN the timeout passes THEN the result is a timeout with the last console lines', async () => {
    const client = fakeClient(['line one\n', 'line two\n'], { hang: true });
    const r = await startAndWait(client, DOM, 'cloud-init', { timeoutS: 0.2, signal: never, log });
    expect(r).toMatchObject({ kind: 'timeout', lastLines: ['line one', 'line two'], bound: 'silent' });
    const [d] = waitDiagnostics('vm', 0.2, r, 'cloud-init');
    expect(d).toMatchObject({
      severity: 'error',
      path: ['wait_timeout'],
      summary: 'cloud-init did not finish on vm: no console output for 0.2 s',
    });
    expect(d.detail).toContain('  line two');
  });

  test('GIVEN a guest that keeps printing past wait_timeout WHEN waiting THEN the wait goes on, and ends only at the total bound', async () => {
    // A line every 50 ms, wait_timeout 0.2 s: never 0.2 s of silence; the total bound is 6 × 0.2 s.
    let resumed!: () => void;
    const resumedP = new Promise<void>((r) => (resumed = r));
    const ticking = {
      async domainCreateWithFlags() {},
      async domainResume() {
        resumed();
      },
      async *domainOpenConsole(_d: DomRef, _dev: string | null, _flags: number, options: StreamOptions) {
        options.onOpen?.();
        await resumedP;
        for (let i = 0; !options.signal?.aborted; i++) {
          yield Buffer.from(`progress ${i}\n`);
          await new Promise((r) => setTimeout(r, 50));
        }
      },
    } as unknown as LibvirtClient;
    const started = Date.now();
    const r = await startAndWait(ticking, DOM, 'cloud-init', { timeoutS: 0.2, signal: never, log });
    const elapsed = Date.now() - started;
    expect({ kind: r.kind, bound: r.kind === 'timeout' ? r.bound : undefined }).toEqual({ kind: 'timeout', bound: 'too-long' });
    expect(elapsed).toBeGreaterThanOrEqual(1100); // far past wait_timeout = 200 ms: the guest was making progress
    const [d] = waitDiagnostics('vm', 0.2, r, 'cloud-init');
    expect(d.summary).toBe('cloud-init did not finish on vm within 1.2 s');
    expect(d.detail).toContain('kept printing');
  });

  test('GIVEN StopProvider WHEN waiting THEN the wait ends as interrupted', async () => {
    const client = fakeClient([], { hang: true });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 50);
    const r = await startAndWait(client, DOM, 'cloud-init', { timeoutS: 30, signal: stop.signal, log });
    expect(r.kind).toBe('interrupted');
    expect(waitDiagnostics('vm', 30, r, 'cloud-init')[0].summary).toBe('Interrupted');
  });

  test('GIVEN a console that ends before cloud-init finished WHEN waiting THEN the guest stopped', async () => {
    const r = await startAndWait(fakeClient(['reboot: Power down\n']), DOM, 'cloud-init', { timeoutS: 5, signal: never, log });
    expect(r).toMatchObject({ kind: 'stopped', lastLines: ['reboot: Power down'] });
    expect(waitDiagnostics('vm', 5, r, 'cloud-init')[0].summary).toBe('vm stopped before cloud-init finished');
  });

  test('GIVEN a console that cannot be opened WHEN waiting THEN the guest is resumed anyway and the result says why', async () => {
    const client = fakeClient([], { openFails: true });
    const r = await startAndWait(client, DOM, 'cloud-init', { timeoutS: 5, signal: never, log });
    expect(client.calls).toEqual(['create flags=1', 'open', 'resume']);
    expect(r).toEqual({ kind: 'no-console', reason: 'Active console session exists for this domain' });
  });
});

describe('waitDiagnostics', () => {
  const outcome = (errors: { module?: string; message: string }[], warnings: string[] = []): WaitResult => ({
    kind: 'finished',
    elapsedMs: 1,
    outcome: { agent: 'cloud-init', finished: true, errors, warnings },
  });

  test('GIVEN a failed module WHEN reported THEN one error names the module, carries the message and the other warnings', () => {
    const d = waitDiagnostics(
      'web',
      600,
      outcome(
        [{ module: 'scripts-user', message: 'Failed to run module scripts-user (scripts in /var/lib/cloud/instance/scripts)' }],
        ['Failed running /var/lib/cloud/instance/scripts/runcmd [1]'],
      ),
      'cloud-init',
    );
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: 'error', path: ['wait_for'], summary: 'cloud-init module scripts-user failed on web' });
    expect(d[0].detail).toMatch(
      /^Failed to run module scripts-user[\s\S]*Failed running \/var\/lib\/cloud\/instance\/scripts\/runcmd \[1\]/,
    );
  });

  test('GIVEN a module failure that ended the wait before the finished line WHEN reported THEN the error says cloud-init goes on in the guest', () => {
    const d = waitDiagnostics('web', 600, outcome([{ module: 'bootcmd', message: 'Running module bootcmd (...) failed' }]), 'cloud-init');
    expect(d).toHaveLength(1);
    expect(d[0].detail).toContain(
      'The domain exists and keeps running; cloud-init goes on with its later modules (the apply stopped waiting at this failure); fix the seed',
    );
    const finished = waitDiagnostics(
      'web',
      600,
      {
        kind: 'finished',
        elapsedMs: 1,
        outcome: {
          agent: 'cloud-init',
          finished: true,
          errors: [{ module: 'bootcmd', message: 'x' }],
          warnings: [],
          finishedLine: 'Cloud-init v. 22.4.2 finished',
        },
      },
      'cloud-init',
    );
    expect(finished[0].detail).not.toContain('goes on');
  });

  test('GIVEN only recoverable problems WHEN reported THEN each is a warning', () => {
    const d = waitDiagnostics('web', 600, outcome([], ['Ignoring ssh_pwauth']), 'cloud-init');
    expect(d).toEqual([
      { severity: 'warning', path: ['wait_for'], summary: 'cloud-init reported a problem on web', detail: 'Ignoring ssh_pwauth' },
    ]);
  });
});

describe('virtseed_domain wait_for validation', () => {
  const validate = (over: Partial<DomainState>) =>
    domain.validate!(domainState({ name: 'web', memory: 512, ...over }), handlerContext()).map((d) => `${d.path.join('.')}: ${d.summary}`);

  test('GIVEN an unknown wait_for WHEN validated THEN the error names wait_for and the choices', () => {
    // Terraform sends any string: the state type narrows wait_for to its values only once validate has checked it.
    const waitFor: string = 'ssh';
    const unchecked = { wait_for: waitFor } as Partial<DomainState>;
    expect(validate(unchecked)).toEqual(['wait_for: Invalid wait_for']);
  });

  test('GIVEN wait_for = "cloud-init" without a seed WHEN validated THEN it says there is nothing to wait for', () => {
    expect(validate({ wait_for: 'cloud-init' })).toEqual(['wait_for: Nothing to wait for']);
    expect(validate({ wait_for: 'cloud-init', cloudinit_seed_id: 'x' })).toEqual([]);
  });

  test('GIVEN wait_for = "ignition" without an Ignition config WHEN validated THEN it says there is nothing to wait for', () => {
    expect(validate({ wait_for: 'ignition', cloudinit_seed_id: 'x' })).toEqual(['wait_for: Nothing to wait for']);
  });

  test('GIVEN wait_timeout 0 WHEN validated THEN the error names wait_timeout', () => {
    expect(validate({ wait_timeout: 0 })).toEqual(['wait_timeout: Invalid wait_timeout']);
  });
});

describe('startAndWaitForLease', () => {
  /** A running domain whose lease appears at the `after`-th look. */
  function leaseClient(after: number) {
    let looks = 0;
    const calls: string[] = [];
    const client = {
      calls,
      async domainCreate() {
        calls.push('create');
      },
      async domainIsActive() {
        return true;
      },
      async domainGetXmlDesc() {
        return '<domain/>';
      },
      async domainInterfaceAddresses(_d: DomRef, source: number) {
        calls.push(`addresses source=${source}`);
        looks++;
        return looks >= after
          ? [{ name: 'vnet0', hwaddr: '52:54:00:aa:bb:cc', addresses: [{ type: 0, address: '192.168.150.23', prefix: 24 }] }]
          : [];
      },
    };
    return client as typeof client & LibvirtClient;
  }

  test('GIVEN a lease that appears at the third look WHEN waiting THEN it starts the domain and returns the address', async () => {
    const client = leaseClient(3);
    const r = await startAndWaitForLease(client, DOM, { timeoutS: 5, signal: never, log, intervalMs: 10 });
    expect(r).toMatchObject({ kind: 'address', addresses: ['192.168.150.23'] });
    expect(client.calls[0]).toBe('create');
    expect(client.calls.filter((c) => c.startsWith('addresses'))).toHaveLength(3);
    expect(leaseDiagnostics('vm', 5, r)).toEqual([]);
  });

  test('GIVEN no lease WHEN the timeout passes THEN the result is a timeout naming the network check', async () => {
    const r = await startAndWaitForLease(leaseClient(Infinity), DOM, { timeoutS: 0.05, signal: never, log, intervalMs: 10 });
    expect(r.kind).toBe('timeout');
    const [d] = leaseDiagnostics('vm', 0.05, r);
    expect(d).toMatchObject({ severity: 'error', path: ['wait_timeout'], summary: 'No address for vm within 0.05 s' });
    expect(d.detail).toMatch(/DHCP/);
  });
});

describe('virtseed_domain wait_for = "lease" validation', () => {
  const base = domainState({ name: 'web', memory: 512, wait_for: 'lease' });

  test('GIVEN only user-mode networking WHEN validated THEN there is nothing to wait for', () => {
    const d = domain.validate!({ ...base, network_interface: [nicState({ user: true })] }, handlerContext());
    expect(d.map((x) => x.summary)).toEqual(['Nothing to wait for']);
  });

  test('GIVEN a NIC on a libvirt network WHEN validated THEN lease is accepted', () => {
    expect(domain.validate!({ ...base, network_interface: [nicState({ network: 'vstest-iso' })] }, handlerContext())).toEqual([]);
  });
});
