import { isBlock, type FieldTable } from '../../src/fields';
import { alternative, expr, generate, hclResource, Rng, unsampled, updatable, type Attrs, type Context } from './generate';
import { DOMAIN_KIND, KINDS, NOT_GENERATED, VOLUME_KIND } from './kinds';

const ctx: Context = { prefix: 'vstest-unit', counts: {}, fixtures: { sourceFile: '/tmp/s.raw', sourceSha256: 'ab' }, octets: [60, 61] };

/** `path=value` of every enum and bool value, and `path` of every block, the instances of 40 offsets hold. */
function generated(kind: (typeof KINDS)[number]): Set<string> {
  const seen = new Set<string>();
  const visit = (a: Attrs, table: FieldTable, at: string): void => {
    for (const [n, v] of Object.entries(a)) {
      const f = table[n];
      if (!f) continue;
      const p = at ? `${at}.${n}` : n;
      if (isBlock(f)) {
        seen.add(p);
        for (const e of (Array.isArray(v) ? v : [v]) as Attrs[]) visit(e, f.fields, p);
      } else if (f.values || f.type === 'bool') seen.add(`${p}=${String(v)}`);
    }
  };
  for (let off = 0; off < 40; off++) for (let i = 0; i < kind.count; i++) visit(generate(kind, ctx, i, off), kind.fields, '');
  return seen;
}

function wanted(kind: (typeof KINDS)[number], table: FieldTable = kind.fields, at = ''): string[] {
  const out: string[] = [];
  for (const [n, f] of Object.entries(table)) {
    const p = at ? `${at}.${n}` : n;
    if (kind.skip[p]) continue;
    if (isBlock(f)) out.push(p, ...wanted(kind, f.fields, p));
    else if (f.values) out.push(...Object.keys(f.values).map((v) => `${p}=${v}`));
    else if (f.type === 'bool' && (f.optional || f.required)) out.push(`${p}=true`, `${p}=false`);
  }
  return out;
}

describe.each(KINDS.map((k) => [k.type, k] as const))('%s', (_type, kind) => {
  test('GIVEN its field table THEN every optional attribute is enumerated, sampled or skipped with a reason', () => {
    expect(unsampled(kind)).toEqual([]);
    for (const reason of Object.values(kind.skip)) expect(reason.length).toBeGreaterThan(10);
  });

  test('GIVEN 40 seeds THEN every allowed value, both bools and every block (device kind) are generated, but the listed ones', () => {
    const seen = generated(kind);
    const missing = wanted(kind).filter((w) => !seen.has(w) && !(`${kind.type}.${w}` in NOT_GENERATED));
    expect(missing).toEqual([]);
  });

  test('GIVEN one seed twice THEN the same configurations; another seed THEN others', () => {
    const a = Array.from({ length: kind.count }, (_, i) => generate(kind, ctx, i, 7));
    const b = Array.from({ length: kind.count }, (_, i) => generate(kind, ctx, i, 7));
    expect(b).toEqual(a);
    const c = Array.from({ length: kind.count }, (_, i) => generate(kind, ctx, i, 8));
    if (kind.count > 1 && Object.keys(kind.fields).length > 6) expect(c).not.toEqual(a);
  });

  test('GIVEN each updatable attribute THEN an alternative value exists for some instance, or it is fixed by the base', () => {
    for (const name of updatable(kind)) {
      const found = Array.from({ length: kind.count }, (_, i) => alternative(kind, name, generate(kind, ctx, i, 1)[name] as never, ctx, i));
      expect([name, found.some((v) => v !== undefined)]).toEqual([name, true]);
    }
  });
});

test('GIVEN a domain THEN it is never started and its type is TCG (the suite boots no guest)', () => {
  for (let off = 0; off < 20; off++)
    for (let i = 0; i < DOMAIN_KIND.count; i++)
      expect(generate(DOMAIN_KIND, ctx, i, off)).toMatchObject({ running: false, type: 'qemu', wait_for: 'none' });
});

test('GIVEN a volume capacity THEN its changed value only grows', () => {
  expect(alternative(VOLUME_KIND, 'capacity', 4194304, ctx, 0)).toBe(8388608);
});

test('GIVEN attributes, blocks, references and template sequences THEN the HCL renders them', () => {
  const hcl = hclResource(DOMAIN_KIND, 3, {
    name: 'x',
    memory: 128,
    running: false,
    cmdline: 'a ${b} %{c}',
    boot_devices: ['hd'],
    metadata: { k: 'v' },
    cloudinit_seed_id: expr('virtseed_cloudinit_seed.c1.id'),
    disk: [{ file: '/f' }, { file: '/g' }],
    tpm: { model: 'tpm-tis' },
  });
  expect(hcl).toBe(
    [
      'resource "virtseed_domain" "c3" {',
      '  name = "x"',
      '  memory = 128',
      '  running = false',
      '  cmdline = "a $${b} %%{c}"',
      '  boot_devices = ["hd"]',
      '  metadata = {',
      '    "k" = "v"',
      '  }',
      '  cloudinit_seed_id = virtseed_cloudinit_seed.c1.id',
      '  disk {',
      '    file = "/f"',
      '  }',
      '  disk {',
      '    file = "/g"',
      '  }',
      '  tpm {',
      '    model = "tpm-tis"',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
});

test('GIVEN a seed THEN Rng gives the same sequence in [0, 1)', () => {
  const a = new Rng(42);
  const b = new Rng(42);
  const xs = Array.from({ length: 5 }, () => a.next());
  expect(Array.from({ length: 5 }, () => b.next())).toEqual(xs);
  for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
  expect(new Rng(43).next()).not.toBe(xs[0]);
});
