/**
 * Issue 27.5: each plan warning once per resource and plan, counted in real `terraform plan -json` output (lines
 * of `"type":"diagnostic"`). Terraform calls ValidateResourceConfig twice and PlanResourceChange once (twice for a
 * replacement) per resource in a plan and shows every warning each returns. A seed whose user-data is merged with
 * cloud_config warns about the merge; changing its content changes its instance-id, which warns on the seed and on
 * the domain wired to it (defined, never started); renaming it replaces it.
 */
import { cleanupByPrefix } from '../helpers/guest';
import { TfWorkdir } from '../helpers/terraform';
import { teardown } from '../helpers/teardown';

jest.setTimeout(300_000);

const PREFIX = 'vstest-defects-warn-';

function config(seedName: string, hostname: string): string {
  return `
resource "virtseed_cloudinit_seed" "seed" {
  pool         = "default"
  name         = "${PREFIX}${seedName}"
  hostname     = "${hostname}"
  user_data    = "#cloud-config\\nruncmd: [echo hi]\\n"
  cloud_config = jsonencode({ packages = ["htop"] })
}
resource "virtseed_domain" "vm" {
  name              = "${PREFIX}vm"
  memory            = 256
  running           = false
  cloudinit_seed_id = virtseed_cloudinit_seed.seed.id
  instance_id       = virtseed_cloudinit_seed.seed.instance_id
}
`;
}

interface Warning {
  readonly summary: string;
  readonly address: string;
}

let tf: TfWorkdir;

/** The warnings of `terraform plan -json`, as summary and resource address. */
function planWarnings(): Warning[] {
  const out = tf.ok(['plan', '-json', '-input=false']);
  return out
    .split('\n')
    .filter((l) => l.includes('"type":"diagnostic"'))
    .map((l) => JSON.parse(l).diagnostic)
    .filter((d) => d.severity === 'warning')
    .map((d) => ({ summary: d.summary as string, address: (d.address as string | undefined) ?? '' }));
}

beforeAll(() => {
  cleanupByPrefix(PREFIX);
  tf = new TfWorkdir('warn');
  tf.write(config('seed.iso', 'one'));
  tf.init();
});

afterAll(() => teardown({ tf, prefix: PREFIX, destroy: true }));

test('GIVEN a new seed with a merge warning WHEN planned THEN plan -json carries the warning once', () => {
  expect(planWarnings()).toEqual([{ summary: 'User-data re-rendered by a merge', address: 'virtseed_cloudinit_seed.seed' }]);
});

test('GIVEN applied resources WHEN the seed content changes THEN each resource carries each of its warnings once', () => {
  tf.apply();
  tf.write(config('seed.iso', 'two'));
  expect(
    planWarnings()
      .map((w) => `${w.address}: ${w.summary}`)
      .sort(),
  ).toEqual([
    'virtseed_cloudinit_seed.seed: User-data re-rendered by a merge',
    'virtseed_cloudinit_seed.seed: instance-id changes: the guest will be re-provisioned',
    `virtseed_domain.vm: Guest ${PREFIX}vm will be re-provisioned (reboot)`,
  ]);
});

test('GIVEN an applied seed WHEN its name changes (a replacement, planned in two calls) THEN its merge warning comes once', () => {
  tf.write(config('seed-renamed.iso', 'one'));
  const seedWarnings = planWarnings().filter((w) => w.address === 'virtseed_cloudinit_seed.seed');
  expect(seedWarnings.map((w) => w.summary)).toEqual(['User-data re-rendered by a merge']);
});
