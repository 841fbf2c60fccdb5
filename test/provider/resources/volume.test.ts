/** virtseed_volume's config checks of `sha256` (plan-time, with attribute paths). */
import type { VolumeState } from '../../../provider/src/resources/private/model';
import { volume } from '../../../provider/src/resources/volume';
import { handlerContext } from '../fixtures/context';

const config = (c: Partial<VolumeState>): VolumeState => ({
  id: null,
  pool: 'default',
  name: 'vstest-unit',
  host: null,
  format: null,
  capacity: null,
  backing_volume: null,
  source: null,
  source_wo: null,
  keyed_digest: null,
  sha256: null,
  checksum_url: null,
  checksum_algorithm: null,
  signature_url: null,
  signature_key: null,
  digest: null,
  restore_from: null,
  restore_disk: null,
  restore_chain: null,
  restore_bytes: null,
  restore_instance_id: null,
  restore_taken_at: null,
  path: null,
  allocation: null,
  ...c,
});

describe('virtseed_volume sha256 checks', () => {
  it('GIVEN sha256 of 63 hex digits WHEN validated THEN an error on sha256 names the value and what is expected', async () => {
    const d = volume.validate!(config({ source: '/img.qcow2', sha256: 'a'.repeat(63) }), handlerContext());
    expect(d).toEqual([
      expect.objectContaining({
        path: ['sha256'],
        summary: 'Invalid sha256',
        detail: `sha256 is "${'a'.repeat(63)}"; expected 64 hex digits (e.g. the output of sha256sum).`,
      }),
    ]);
  });

  it('GIVEN sha256 without source WHEN validated THEN an error on sha256 asks for source', async () => {
    const d = volume.validate!(config({ capacity: 1024, sha256: 'a'.repeat(64) }), handlerContext());
    expect(d).toEqual([expect.objectContaining({ path: ['sha256'], summary: 'sha256 without source' })]);
  });

  it('GIVEN a valid sha256 with a source WHEN validated THEN there is no diagnostic', async () => {
    expect(volume.validate!(config({ source: '/img.qcow2', sha256: 'AB'.repeat(32) }), handlerContext())).toEqual([]);
  });
});

describe('virtseed_volume sha256 plan', () => {
  const prior: VolumeState = {
    ...config({ source: '/img.raw', sha256: 'ab'.repeat(32) }),
    id: '/p/vstest-unit',
    path: '/p/vstest-unit',
    format: 'raw',
    capacity: 1024,
    allocation: 1024,
  };
  const plan = (sha256: string) => {
    const next = { ...config({ source: '/img.raw', sha256 }) };
    return volume.plan(
      {
        prior,
        proposed: { ...next, id: prior.id, path: prior.path, format: 'raw', capacity: 1024, allocation: 1024 },
        config: next,
      },
      handlerContext(),
    );
  };

  it('GIVEN another sha256 WHEN planned THEN the volume is replaced (re-uploaded and verified)', async () => {
    expect((await plan('cd'.repeat(32))).requiresReplace).toEqual([['sha256']]);
  });

  it('GIVEN the same sha256 in upper case WHEN planned THEN nothing is replaced', async () => {
    expect((await plan('AB'.repeat(32))).requiresReplace).toEqual([]);
  });
});

describe('virtseed_volume verification checks', () => {
  it('GIVEN checksum_url without source WHEN validated THEN the error is on checksum_url', () => {
    expect(volume.validate!(config({ capacity: 1024, checksum_url: 'https://x/SHA256SUMS' }), handlerContext())).toEqual([
      expect.objectContaining({ path: ['checksum_url'], summary: 'checksum_url without source' }),
    ]);
  });

  it('GIVEN checksum_url with sha256 and format raw WHEN validated THEN both conflicts are reported', () => {
    const d = volume.validate!(
      config({ source: 'https://x/i.img', checksum_url: 'https://x/SUMS', sha256: 'a'.repeat(64), format: 'raw' }),
      handlerContext(),
    );
    expect(d.map((x) => x.path)).toEqual([['sha256'], ['format']]);
  });

  it('GIVEN signature_url without signature_key and without checksum_url WHEN validated THEN each is named', () => {
    const d = volume.validate!(config({ source: 'https://x/i.img', signature_url: 'https://x/SUMS.gpg' }), handlerContext());
    expect(d.map((x) => x.summary)).toEqual(['signature_url without checksum_url', 'signature_url without signature_key']);
  });
});

describe('virtseed_volume restore_from checks', () => {
  it('GIVEN restore_from and source WHEN validated THEN an error on restore_from says to set one', () => {
    const d = volume.validate!(config({ source: '/img.qcow2', restore_from: '/b/web-1/0001-full' }), handlerContext());
    expect(d).toEqual([expect.objectContaining({ path: ['restore_from'], summary: 'Conflicting attributes' })]);
  });

  it('GIVEN restore_disk without restore_from WHEN validated THEN an error on restore_disk', () => {
    const d = volume.validate!(config({ capacity: 1048576, restore_disk: 'vda' }), handlerContext());
    expect(d).toEqual([expect.objectContaining({ path: ['restore_disk'], summary: 'restore_disk without restore_from' })]);
  });

  it('GIVEN restore_from alone WHEN validated THEN no capacity is asked for', () => {
    expect(volume.validate!(config({ restore_from: '/b/web-1/0001-full' }), handlerContext())).toEqual([]);
  });
});
