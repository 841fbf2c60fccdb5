/**
 * The provider's read of a domain (provider/src/resources/private/domain-read.ts `refreshDomain`: the definition,
 * the state and autostart from libvirtd, parsed into the resource's attributes unless the digest the last read kept
 * says the definition is unchanged) for N defined domains with the device set of bench/private/device-set.ts beside
 * N without devices, on the real libvirtd (issue 25: devices must not make reads slower; issue 22's closing note
 * wants the figure). Two rows: the first read after an apply (it parses every definition) and a later read (the
 * kept digest matches). Reads run 10 at a time, as Terraform's refresh does. Domains are named `vsbench-read-…` and
 * undefined at the end.
 */
import { connect, type DomRef } from '../src/libvirt';
import { DOMAIN_FIELDS } from '../src/fields';
import { defineDomain, removeDomain } from '../provider/src/resources/private/domain-lifecycle';
import { refreshDomain } from '../provider/src/resources/private/domain-read';
import { withDefaults } from '../provider/src/resources/private/domain-state';
import { withTableDefaults } from '../provider/src/resources/private/fields';
import type { DomainState } from '../provider/src/resources/private/model';
import { DOMAIN_DEVICE_SET } from './private/device-set';
import { alternate, formatGoalTable, type GoalRow } from './private/rows';

const URI = 'qemu:///system';
const PREFIX = 'vsbench-read-';

/** The planned state of domain `name`: without devices, or with the bench device set. */
function planned(name: string, devices: boolean): DomainState {
  const blocks = (DOMAIN_DEVICE_SET ?? {}) as Record<string, unknown>;
  const asList = (v: unknown) => (Array.isArray(v) ? v : []);
  // Attributes left out are null to the mapping (str/list/known read undefined as absent); the table fills defaults.
  const state = {
    disk: [],
    network_interface: [],
    name,
    memory: 64,
    type: 'qemu',
    running: false,
    ...(devices
      ? ({
          graphics: asList(blocks.graphics).map((g) => ({
            listen: null,
            socket: null,
            port: null,
            password: null,
            display_uri: null,
            ...(g as object),
          })),
          tpm: { model: 'tpm-crb', version: null },
          rng: { source: '/dev/urandom', rate_bytes: null, rate_period: null },
          watchdog: { model: null, action: 'reset' },
          input: [{ type: 'tablet', bus: null }],
          filesystem: [{ source: '/srv', target: 'share', driver: null, access_mode: null, readonly: null }],
        } as Partial<DomainState>)
      : {}),
  } as unknown as DomainState;
  return withDefaults(withTableDefaults(DOMAIN_FIELDS, state, null), null, URI);
}

/** Runs `fn` over `items`, `width` at a time. */
async function parallel<T>(items: readonly T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

export interface DomainReadBenchOptions {
  /** Domains per set. @default 1000 */
  readonly count?: number;
  /** Timed reads of each whole set (alternating). @default 5 */
  readonly runs?: number;
  readonly log?: (line: string) => void;
}

export async function runDomainReadBench(options: DomainReadBenchOptions = {}): Promise<GoalRow[]> {
  const log = options.log ?? console.log;
  const n = options.count ?? 1000;
  const client = await connect(URI);
  const sets: Record<'plain' | 'devices', { dom: DomRef; state: DomainState; priv?: Buffer }[]> = { plain: [], devices: [] };
  try {
    for (const kind of ['plain', 'devices'] as const) {
      const names = Array.from({ length: n }, (_, i) => `${PREFIX}${kind}-${i}`);
      await parallel(names, 10, async (name) => {
        const state = planned(name, kind === 'devices');
        sets[kind].push({ dom: await defineDomain(client, state), state });
      });
    }
    /** Reads the whole set; `kept`: with the private state the previous read returned (else none: it parses). */
    const readAll = async (kind: 'plain' | 'devices', kept: boolean): Promise<number> => {
      const t0 = process.hrtime.bigint();
      await parallel(sets[kind], 10, async (d) => {
        const read = await refreshDomain(client, d.dom, d.state, kept ? d.priv : undefined);
        d.state = read.state;
        d.priv = read.private;
      });
      return Number(process.hrtime.bigint() - t0) / 1e6;
    };
    const runs = options.runs ?? 5;
    const [plain, devices] = await alternate(runs, [() => readAll('plain', false), () => readAll('devices', false)]);
    const [plainKept, devicesKept] = await alternate(runs, [() => readAll('plain', true), () => readAll('devices', true)]);
    const row = (what: string, ours: number, anchor: number): GoalRow => ({
      name: `${what} of ${n} defined domains, 6 devices each`,
      unit: 'ms',
      ours,
      anchorName: `${n} domains without devices`,
      anchor,
      goal: 1.1,
    });
    const rows = [row('read (parses)', devices, plain), row('read (digest kept)', devicesKept, plainKept)];
    log(`provider read path (refreshDomain; 10 in parallel; median of ${runs} alternating runs)`);
    for (const line of formatGoalTable(rows)) log(line);
    return rows;
  } finally {
    await parallel([...sets.plain, ...sets.devices], 10, ({ dom }) => removeDomain(client, dom).catch(() => undefined));
    await client.close();
  }
}
