// Runs Debian's ignition-validate (Ignition 2.14: specs 3.0.0–3.3.0) on the configs we generate.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderIgnition, validateIgnition } from '../../../src/seed/ignition';
import { INVALID_CONFIGS, VALID_SPECS } from './cases';

const CHECKED = ['3.0.0', '3.1.0', '3.2.0', '3.3.0'];
let dir: string;

beforeAll(() => {
  execFileSync('which', ['ignition-validate']);
  dir = mkdtempSync(join(tmpdir(), 'vstest-ign-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runValidate(json: string): { status: number | null; output: string } {
  const file = join(dir, 'config.ign');
  writeFileSync(file, json);
  const r = spawnSync('ignition-validate', [file], { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('ignition-validate on our output', () => {
  const cases = VALID_SPECS.flatMap((c) => c.versions.filter((v) => CHECKED.includes(v)).map((version) => ({ ...c, version })));
  test.each(cases)('GIVEN $name rendered as $version WHEN ignition-validate runs THEN it exits 0', ({ spec, version }) => {
    const r = runValidate(renderIgnition(spec, { version }).json);
    expect(r).toEqual({ status: 0, output: '' });
  });

  const invalid = INVALID_CONFIGS.filter((c) => CHECKED.includes((c.config as { ignition: { version: string } }).ignition.version));
  test.each(invalid)('GIVEN invalid config ($name) WHEN ignition-validate runs THEN it fails as ours does', ({ config }) => {
    expect(validateIgnition(config).some((d) => d.severity === 'error')).toBe(true);
    expect(runValidate(JSON.stringify(config)).status).not.toBe(0);
  });

  test('GIVEN an unknown key WHEN both validate THEN both only warn', () => {
    const config = { ignition: { version: '3.3.0' }, storage: { files: [{ path: '/a', foo: 1 }] } };
    expect(validateIgnition(config)).toEqual([expect.objectContaining({ severity: 'warning', path: ['storage', 'files', 0, 'foo'] })]);
    const r = runValidate(JSON.stringify(config));
    expect(r.status).toBe(0);
    expect(r.output).toMatch(/storage\.files\.0\.foo/);
  });
});
