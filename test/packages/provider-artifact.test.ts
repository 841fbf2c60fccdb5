import { unzipSync } from 'fflate';
import {
  executableName,
  formatSums,
  packageHashV1,
  parseSums,
  sumsName,
  terraformPlatform,
  versionOfSumsName,
  zipName,
} from '../../cli/commands/provider-artifact';
import { zipProgram } from '../../packages/build/provider-artifact';

describe('provider artifact names and hashes', () => {
  it('GIVEN a version and platform THEN the names are those of HashiCorp release archives', () => {
    expect(zipName('0.1.0', 'linux_amd64')).toBe('terraform-provider-virtseed_0.1.0_linux_amd64.zip');
    expect(executableName('0.1.0')).toBe('terraform-provider-virtseed_v0.1.0');
    expect(sumsName('1.2.3')).toBe('terraform-provider-virtseed_1.2.3_SHA256SUMS');
    expect(versionOfSumsName('terraform-provider-virtseed_1.2.3-rc.1_SHA256SUMS')).toBe('1.2.3-rc.1');
    expect(versionOfSumsName('terraform-provider-virtseed_1.2.3_linux_amd64.zip')).toBeUndefined();
  });

  it('GIVEN node platforms THEN terraform platform names, undefined for unknown ones', () => {
    expect(terraformPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
    expect(terraformPlatform('aix', 'ppc64')).toBeUndefined();
  });

  it('GIVEN files THEN the h1 hash is dirhash Hash1 (value from sha256sum | sha256sum | base64), independent of order', () => {
    const files = [
      { name: 'z', data: Buffer.from('hello\n') },
      { name: 'a/b', data: Buffer.from('x') },
    ];
    expect(packageHashV1(files)).toBe('h1:8nJ/K+83BkUwQIQLyhfH1uFfquzYrhqbGgRYu8Ff0Tg=');
    expect(packageHashV1([...files].reverse())).toBe(packageHashV1(files));
  });

  it('GIVEN SHA256SUMS text THEN it round-trips, and a bad line is named', () => {
    const text = formatSums([
      { name: 'b.zip', sha256: 'b'.repeat(64) },
      { name: 'a.zip', sha256: 'a'.repeat(64) },
    ]);
    expect(text).toBe(`${'a'.repeat(64)}  a.zip\n${'b'.repeat(64)}  b.zip\n`);
    expect([...parseSums(text)]).toEqual([
      ['a.zip', 'a'.repeat(64)],
      ['b.zip', 'b'.repeat(64)],
    ]);
    expect(() => parseSums('abc  x.zip\n')).toThrow(/line 1 .*"abc {2}x.zip"/);
  });

  it('GIVEN a program THEN the zip is the same bytes in any time zone: the 0755 executable and its 0644 bundle', () => {
    const program = {
      executable: Buffer.from('#!/usr/bin/env node\nrequire("./b.js")\n'),
      source: Buffer.from('console.log(1)\n'),
      sourceFile: 'virtseed-provider.bundle.js',
      seaMain: '',
    };
    const tz = process.env.TZ;
    try {
      process.env.TZ = 'UTC';
      const a = Buffer.from(zipProgram('0.1.0', program));
      process.env.TZ = 'Pacific/Kiritimati';
      const b = Buffer.from(zipProgram('0.1.0', program));
      expect(a.equals(b)).toBe(true);
      const entries = unzipSync(a);
      expect(Object.keys(entries)).toEqual(['terraform-provider-virtseed_v0.1.0', 'virtseed-provider.bundle.js']);
      expect(Buffer.from(entries['virtseed-provider.bundle.js']).equals(program.source)).toBe(true);
      // central directory external attributes: 0100755 << 16 for the executable, 0100644 << 16 for the bundle
      const first = a.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      const second = a.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), first + 4);
      expect(a.readUInt32LE(first + 38) >>> 16).toBe(0o100755);
      expect(a.readUInt32LE(second + 38) >>> 16).toBe(0o100644);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});
