/** changedValues (cli/plan-summary/values.ts): before and after walked with Terraform's mirror structures. */
import { changedValues, formatValuePath, type ChangeValues } from '../../../cli/plan-summary/values';

const rows = (change: Parameters<typeof changedValues>[0]) =>
  changedValues(change).map((c) => [formatValuePath(c.path), c.before.kind, c.after.kind]);

describe('changedValues and values known only after apply', () => {
  test('GIVEN a disk and a NIC added whose volume_id and network are unknown WHEN walked THEN both show as known after apply', () => {
    // As `terraform show -json` writes it: an unknown value is left out of `after` and marked in `after_unknown`.
    const change: ChangeValues = {
      before: { disk: [{ volume_id: 'a' }], network_interface: [{ network: 'n1', model: 'virtio' }] },
      after: { disk: [{ volume_id: 'a' }, {}], network_interface: [{ network: 'n1', model: 'virtio' }, { model: 'virtio' }] },
      after_unknown: { disk: [{}, { volume_id: true }], network_interface: [{}, { network: true }] },
    };
    expect(rows(change)).toEqual([
      ['disk[1].volume_id', 'absent', 'unknown'],
      ['network_interface[1].model', 'absent', 'value'],
      ['network_interface[1].network', 'absent', 'unknown'],
    ]);
  });

  test('GIVEN a whole block added unknown WHEN walked THEN it shows once as known after apply', () => {
    expect(rows({ before: { disk: [] }, after: { disk: [] }, after_unknown: { disk: [true] } })).toEqual([
      ['disk[0]', 'absent', 'unknown'],
    ]);
  });

  test('GIVEN an unknown attribute that exists before WHEN walked THEN it shows its old value and known after apply', () => {
    expect(rows({ before: { id: 'x', memory: 1 }, after: { memory: 1 }, after_unknown: { id: true } })).toEqual([
      ['id', 'value', 'unknown'],
    ]);
  });
});
