/** Integration: the `virtseed seed build|show` commands on real files (cli/main.ts, in-process). */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../cli/main';

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'vstest-cli-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = main(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) });
  return { code, stdout, stderr };
}

describe('virtseed seed', () => {
  it('GIVEN a YAML spec with a file source WHEN built THEN it prints instance-id and sha256 of the written ISO', () => {
    writeFileSync(join(dir, 'app.conf'), 'x=1\n');
    writeFileSync(join(dir, 'spec.yaml'), 'hostname: vm1\nfiles:\n  - path: /etc/app.conf\n    source: app.conf\n');
    const r = run(['seed', 'build', join(dir, 'spec.yaml'), '-o', join(dir, 'seed.iso')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^instance-id: iid-[0-9a-f]{16}\nsha256: [0-9a-f]{64}\n$/);
    const sha = createHash('sha256')
      .update(readFileSync(join(dir, 'seed.iso')))
      .digest('hex');
    expect(r.stdout).toContain(sha);
  });

  it('GIVEN a built ISO WHEN shown THEN the format and file contents are printed', () => {
    writeFileSync(join(dir, 'cd.json'), JSON.stringify({ hostname: 'vm2', cloud_config: { runcmd: ['echo hi'] } }));
    expect(run(['seed', 'build', join(dir, 'cd.json'), '-o', join(dir, 'cd.iso'), '--format', 'configdrive']).code).toBe(0);
    const r = run(['seed', 'show', join(dir, 'cd.iso')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('volume-id: config-2\nformat: configdrive\n');
    expect(r.stdout).toContain('==> openstack/latest/user_data <==\n#cloud-config\nruncmd:\n  - echo hi\n');
  });

  it('GIVEN an invalid spec WHEN built THEN errors are `path: message` lines and the exit code is 2', () => {
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ hostname: 'bad host', files: [{ path: 'rel', content: 'x' }] }));
    const r = run(['seed', 'build', join(dir, 'bad.json'), '-o', join(dir, 'bad.iso')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      expect.stringMatching(/^hostname: Invalid hostname: /),
      expect.stringMatching(/^files\[0\]\.path: Invalid guest path: /),
    ]);
  });

  it('GIVEN missing -o WHEN built THEN usage and exit code 2', () => {
    expect(run(['seed', 'build', 'x.json']).code).toBe(2);
  });
});
