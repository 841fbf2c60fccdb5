/** provider/src/resources/private/qcow2-snapshots.ts: a qcow2 header's version and snapshot count, and when they block growing. */
import { growBlockedDiagnostic, qcow2Snapshots } from '../../../../provider/src/resources/private/qcow2-snapshots';

/** A qcow2 header (72 bytes: magic, version, …, nb_snapshots at byte 60). */
function header(version: number, snapshots: number): Uint8Array {
  const b = Buffer.alloc(72);
  b.writeUInt32BE(0x514649fb, 0);
  b.writeUInt32BE(version, 4);
  b.writeUInt32BE(snapshots, 60);
  return b;
}

describe('qcow2Snapshots', () => {
  test('GIVEN a qcow2 header WHEN read THEN its version and snapshot count', () => {
    expect(qcow2Snapshots(header(2, 3))).toEqual({ version: 2, snapshots: 3 });
  });
  test('GIVEN raw bytes or a short read WHEN read THEN null', () => {
    expect(qcow2Snapshots(Buffer.alloc(72))).toBeNull();
    expect(qcow2Snapshots(header(3, 1).subarray(0, 40))).toBeNull();
  });
});

describe('growBlockedDiagnostic', () => {
  test('GIVEN a version 2 image with snapshots WHEN it grows THEN an error on capacity naming both sizes, the volume, the count and the fixes', () => {
    expect(growBlockedDiagnostic('default/root.qcow2', header(2, 1), 1048576, 2097152)).toEqual(
      expect.objectContaining({
        severity: 'error',
        path: ['capacity'],
        detail: expect.stringMatching(
          /from 1048576 to 2097152 bytes.*default\/root\.qcow2 is a version 2 qcow2 image.*1 internal snapshot.*-replace/,
        ),
      }),
    );
  });
  test.each([
    ['version 3 with snapshots', header(3, 2), 2097152],
    ['version 2 without snapshots', header(2, 0), 2097152],
    ['raw', Buffer.alloc(72), 2097152],
    ['version 2 with snapshots, not growing', header(2, 1), 1048576],
  ])('GIVEN %s WHEN planned THEN nothing', (_what, head, after) => {
    expect(growBlockedDiagnostic('default/v', head, 1048576, after)).toBeNull();
  });
});
