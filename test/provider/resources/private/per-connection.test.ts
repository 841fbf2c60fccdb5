import type { LibvirtClient } from '../../../../src/libvirt';
import { perConnection } from '../../../../provider/src/resources/private/per-connection';

/** Stand-ins for two connections: only their identity is used (the ask is the test's own). */
const clientA = {} as LibvirtClient;
const clientB = {} as LibvirtClient;

describe('perConnection', () => {
  it('GIVEN calls on one connection WHEN the first is still being asked THEN all share one ask; another connection asks its own', async () => {
    let asks = 0;
    const kept = perConnection(async () => ++asks);
    const [a1, a2] = await Promise.all([kept.get(clientA), kept.get(clientA)]);
    expect([a1, a2, await kept.get(clientA), await kept.get(clientB), asks]).toEqual([1, 1, 1, 2, 2]);
  });

  it('GIVEN a failed ask WHEN asked again THEN it asks anew (a failure is not kept)', async () => {
    let asks = 0;
    const kept = perConnection(async () => {
      asks++;
      if (asks === 1) throw new Error('refused');
      return asks;
    });
    await expect(kept.get(clientA)).rejects.toThrow('refused');
    await new Promise((r) => setImmediate(r)); // the rejection handler drops the kept promise
    expect(await kept.get(clientA)).toBe(2);
  });

  it('GIVEN a kept answer WHEN forgotten, or older than maxAgeMs THEN the next call asks anew', async () => {
    let asks = 0;
    const forever = perConnection(async () => ++asks);
    expect(await forever.get(clientA)).toBe(1);
    forever.forget(clientA);
    expect(await forever.get(clientA)).toBe(2);
    const stale = perConnection(async () => ++asks, 20);
    expect(await stale.get(clientA)).toBe(3);
    expect(await stale.get(clientA)).toBe(3);
    await new Promise((r) => setTimeout(r, 40));
    expect(await stale.get(clientA)).toBe(4);
  });
});
