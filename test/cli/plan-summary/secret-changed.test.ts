/** A changed write-only secret in the plan summary (issue 32): "secret changed", never a value or a digest. */
import { renderMarkdown } from '../../../cli/plan-summary/markdown';
import { parsePlanJson } from '../../../cli/plan-summary/plan-json';
import { summarizePlan } from '../../../cli/plan-summary/summarize';

const BEFORE = 'hmac-sha256:' + 'a'.repeat(64);
const AFTER = 'hmac-sha256:' + 'b'.repeat(64);

const PLAN = {
  format_version: '1.2',
  terraform_version: '1.11.4',
  resource_changes: [
    {
      address: 'virtseed_cloudinit_seed.s',
      mode: 'managed',
      type: 'virtseed_cloudinit_seed',
      name: 's',
      change: {
        actions: ['update'],
        before: { name: 's.iso', pool: 'default', keyed_digest: BEFORE, instance_id: 'iid-0000000000000001', user_data_wo: null },
        after: { name: 's.iso', pool: 'default', keyed_digest: AFTER, instance_id: 'iid-0000000000000002', user_data_wo: null },
        after_unknown: {},
        before_sensitive: { keyed_digest: true },
        after_sensitive: { keyed_digest: true },
      },
    },
  ],
};

describe('plan summary of a changed write-only secret', () => {
  test('GIVEN a changed keyed_digest WHEN summarized THEN the row says secret changed and no digest appears', () => {
    const summary = summarizePlan(parsePlanJson(JSON.stringify(PLAN)));
    const seed = summary.resources.find((r) => r.address === 'virtseed_cloudinit_seed.s');
    expect(seed?.changes.find((c) => c.path === 'keyed_digest')).toMatchObject({ secret_changed: true, before: { kind: 'sensitive' } });
    const md = renderMarkdown(summary);
    expect(md).toMatch(/\| `keyed_digest` \| \*\(secret\)\* \| \*\*secret changed\*\* \|/);
    expect(md).toContain('iid-0000000000000002');
    expect(md).not.toContain('hmac-sha256');
    expect(JSON.stringify(summary)).not.toContain('hmac-sha256');
  });
});
