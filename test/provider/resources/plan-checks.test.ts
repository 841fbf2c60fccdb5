/**
 * Plan-time host checks (provider/src/resources/private/plan-checks.ts) with a fake libvirt client: which existing
 * objects count as a clash, and what an unreachable host gives.
 */
import { HostUnreachableError } from '../../../provider/src/host';
import type { HandlerContext } from '../../../provider/src/handler';
import {
  isReplacedObject,
  newDomainChecks,
  newVolumeChecks,
  noteManaged,
  notePlannedPool,
  planHost,
  plannedPrivateOf,
  withoutReplaceMark,
} from '../../../provider/src/resources/private/plan-checks';
import { error } from '../../../src/diagnostics';
import { renderDomainXml } from '../../../src/domain';
import { LibvirtError, VIR_ERR_NO_DOMAIN, VIR_ERR_NO_STORAGE_POOL, VIR_ERR_NO_STORAGE_VOL, type LibvirtClient } from '../../../src/libvirt';
import { handlerContext } from '../fixtures/context';

/** A context whose client is a partial fake of the libvirt client (only the calls the checks make). */
const ctxWith = (client: () => Promise<unknown>): HandlerContext<LibvirtClient> => handlerContext(client as never);

/** A host with pool `default` (running unless `poolActive` is false) holding `volumes`, and `domains` (name →
 *  metadata). A stopped pool lists no volumes, as libvirt's. */
function host(volumes: string[], domains: Record<string, Record<string, string>> = {}, poolActive = true) {
  return ctxWith(async () => ({
    async storagePoolLookupByName(name: string) {
      if (name !== 'default') throw new LibvirtError(VIR_ERR_NO_STORAGE_POOL, 18, 2, 'no pool');
      return { name };
    },
    async storagePoolIsActive() {
      return poolActive;
    },
    async storageVolLookupByName(_pool: unknown, name: string) {
      if (!poolActive) throw new LibvirtError(55, 18, 2, 'storage pool is not active');
      if (!volumes.includes(name)) throw new LibvirtError(VIR_ERR_NO_STORAGE_VOL, 18, 2, 'no volume');
      return { pool: 'default', name, key: `/pool/${name}` };
    },
    async domainLookupByName(name: string) {
      if (!domains[name]) throw new LibvirtError(VIR_ERR_NO_DOMAIN, 10, 2, 'no domain');
      return { name, uuid: new Uint8Array(16), id: -1 };
    },
    async domainGetXmlDesc(dom: { name: string }) {
      return renderDomainXml({
        name: dom.name,
        type: 'qemu',
        memoryMiB: 64,
        vcpu: 1,
        disks: [],
        interfaces: [],
        metadata: domains[dom.name],
      });
    },
  }));
}

const taken = (pool: string, name: string) => error(['name'], 'taken', `${pool}/${name}`);
const domainTaken = (name: string, uuid: string) => error(['name'], 'taken', `${name} ${uuid}`);

describe('newVolumeChecks', () => {
  test('GIVEN a pool the host does not have WHEN checked THEN one error on pool naming the resource', async () => {
    expect(await newVolumeChecks(host([]), 'Seed nope/s.iso', { pool: 'nope', name: 's.iso' }, taken)).toEqual([
      expect.objectContaining({
        path: ['pool'],
        summary: 'Storage pool not found',
        detail: expect.stringMatching(/^Seed nope\/s\.iso: libvirt has no storage pool named nope\./),
      }),
    ]);
  });

  test('GIVEN a volume of that name WHEN checked THEN the resource\'s own "taken" diagnostic', async () => {
    expect(await newVolumeChecks(host(['vstest-pc-a']), 'Volume', { pool: 'default', name: 'vstest-pc-a' }, taken)).toEqual([
      taken('default', 'vstest-pc-a'),
    ]);
  });

  test('GIVEN a volume of that name with our pending marker (an interrupted create) WHEN checked THEN no clash: apply removes it', async () => {
    expect(
      await newVolumeChecks(
        host(['vstest-pc-b', 'vstest-pc-b.virtseed-incomplete']),
        'Volume',
        { pool: 'default', name: 'vstest-pc-b' },
        taken,
      ),
    ).toEqual([]);
  });

  test('GIVEN a pool a virtseed_pool of this plan creates WHEN a volume in it is checked THEN no error', async () => {
    const ctx = host([]);
    notePlannedPool(ctx, 'vstest-pc-planned');
    expect(await newVolumeChecks(ctx, 'Volume', { pool: 'vstest-pc-planned', name: 'v' }, taken)).toEqual([]);
  });

  test('GIVEN a stopped pool WHEN a volume in it is checked THEN no error (apply starts the pool)', async () => {
    expect(await newVolumeChecks(host(['vstest-pc-s'], {}, false), 'Volume', { pool: 'default', name: 'vstest-pc-s' }, taken)).toEqual([]);
  });

  test('GIVEN a replacement (its first plan marked the private state) WHEN its create half is checked THEN the replaced volume is no clash', async () => {
    const ctx = host(['vstest-pc-c']);
    const marked = plannedPrivateOf(ctx, 'volume', '/pool/vstest-pc-c', undefined, false);
    expect(await newVolumeChecks(ctx, 'Volume', { pool: 'default', name: 'vstest-pc-c' }, taken, marked)).toEqual([]);
  });

  test('GIVEN a mark naming another volume WHEN a create of that name is checked THEN the clash stands', async () => {
    const ctx = host(['vstest-pc-f']);
    const marked = plannedPrivateOf(ctx, 'volume', '/pool/vstest-pc-other', undefined, true);
    expect(await newVolumeChecks(ctx, 'Volume', { pool: 'default', name: 'vstest-pc-f' }, taken, marked)).toEqual([
      taken('default', 'vstest-pc-f'),
    ]);
  });

  test('GIVEN a tainted volume (read from the state, no plan keeps it) WHEN its replacement is checked THEN no clash', async () => {
    const ctx = host(['vstest-pc-t']);
    noteManaged(ctx, 'volume', '/pool/vstest-pc-t');
    expect(await newVolumeChecks(ctx, 'Volume', { pool: 'default', name: 'vstest-pc-t' }, taken)).toEqual([]);
  });

  test('GIVEN a volume in the state that a plan keeps WHEN another resource creates that name THEN the clash stands', async () => {
    const ctx = host(['vstest-pc-k']);
    noteManaged(ctx, 'volume', '/pool/vstest-pc-k');
    plannedPrivateOf(ctx, 'volume', '/pool/vstest-pc-k', undefined, false);
    expect(await newVolumeChecks(ctx, 'Volume', { pool: 'default', name: 'vstest-pc-k' }, taken)).toEqual([
      taken('default', 'vstest-pc-k'),
    ]);
  });
});

describe('replacement mark in the private state', () => {
  test('GIVEN a private state with other keys WHEN marked and unmarked THEN the other keys stay and the mark goes', () => {
    const ctx = host([]);
    const marked = plannedPrivateOf(ctx, 'domain', 'abc', Buffer.from('{"xml":"d"}'), true);
    expect(JSON.parse(marked!.toString())).toEqual({ xml: 'd', 'virtseed-replaces': 'abc' });
    expect(withoutReplaceMark(marked)?.toString()).toBe('{"xml":"d"}');
    expect(withoutReplaceMark(plannedPrivateOf(ctx, 'volume', 'k', undefined, true))?.length).toBe(0);
  });

  test.each(['pool', 'network', 'snapshot'] as const)(
    'GIVEN a %s WHEN -replace (marked), tainted (read, not kept) or kept by a plan THEN only the first two count as the object replaced',
    (kind) => {
      const ctx = host([]);
      const [replaced, tainted, kept] = [
        '11111111-1111-1111-1111-111111111111',
        '22222222-2222-2222-2222-222222222222',
        '33333333-3333-3333-3333-333333333333',
      ];
      expect(isReplacedObject(ctx, kind, replaced, plannedPrivateOf(ctx, kind, replaced, undefined, false))).toBe(true);
      noteManaged(ctx, kind, tainted);
      expect(isReplacedObject(ctx, kind, tainted.toUpperCase(), undefined)).toBe(true);
      noteManaged(ctx, kind, kept);
      plannedPrivateOf(ctx, kind, kept, undefined, false);
      expect(isReplacedObject(ctx, kind, kept, undefined)).toBe(false);
      expect(isReplacedObject(ctx, kind, '44444444-4444-4444-4444-444444444444', undefined)).toBe(false);
    },
  );

  test('GIVEN no prior state WHEN planned THEN the prior private state passes as it is', () => {
    const priv = Buffer.from('{"a":1}');
    expect(plannedPrivateOf(host([]), 'volume', undefined, priv, false)).toBe(priv);
  });
});

describe('newDomainChecks', () => {
  test('GIVEN a domain of that name made outside virtseed WHEN checked THEN the "taken" diagnostic with its UUID', async () => {
    expect(await newDomainChecks(host([], { 'vstest-pc-d': {} }), 'vstest-pc-d', 'pending', domainTaken)).toEqual([
      domainTaken('vstest-pc-d', '00000000-0000-0000-0000-000000000000'),
    ]);
  });

  test('GIVEN the tainted domain itself (read from the state) WHEN its replacement is checked THEN no clash', async () => {
    const ctx = host([], { 'vstest-pc-g': {} });
    noteManaged(ctx, 'domain', '00000000-0000-0000-0000-000000000000');
    expect(await newDomainChecks(ctx, 'vstest-pc-g', 'pending', domainTaken)).toEqual([]);
  });

  test('GIVEN a domain of that name carrying the pending key WHEN checked THEN no clash: apply replaces it', async () => {
    expect(await newDomainChecks(host([], { 'vstest-pc-e': { pending: '1' } }), 'vstest-pc-e', 'pending', domainTaken)).toEqual([]);
  });
});

describe('planHost', () => {
  test('GIVEN an unreachable host WHEN asked twice in one process THEN one warning naming the URI, then nothing', async () => {
    const ctx = ctxWith(async () => {
      throw new HostUnreachableError('qemu:///system', new Error('connect ENOENT /run/libvirt/libvirt-sock'));
    });
    const first = await planHost(ctx);
    expect(first).toEqual({
      client: null,
      diagnostics: [
        expect.objectContaining({
          severity: 'warning',
          summary: 'Plan not checked against libvirt at qemu:///system',
          detail: expect.stringMatching(/^connect ENOENT \/run\/libvirt\/libvirt-sock\. Check that libvirtd/),
        }),
      ],
    });
    expect(await planHost(ctx)).toEqual({ client: null, diagnostics: [] });
  });
});
