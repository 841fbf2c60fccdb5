import { Testing } from 'cdktf';
import { BaseImage, VirtualMachine } from '../../../constructs';
import { resources, synth } from '../synth-helpers';

Testing.setupJest();

const URL = 'https://images.example.net/debian-12-genericcloud-amd64.qcow2';
const KEY = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n-----END PGP PUBLIC KEY BLOCK-----\n';

describe('BaseImage.fromUrl with checksums', () => {
  test('GIVEN checksums and a signature WHEN a VirtualMachine uses the image THEN its base volume carries checksum and signature attributes', () => {
    const out = synth((s) => {
      const image = BaseImage.fromUrl(URL, {
        checksums: { url: 'https://images.example.net/SHA512SUMS', algorithm: 'sha512' },
        signature: { url: 'https://images.example.net/SHA512SUMS.sign', key: KEY },
      });
      new VirtualMachine(s, 'vm', { name: 'vm1', baseImage: image });
    });
    const base = resources(out, 'virtseed_volume').find(([, b]) => b.source === URL)![1];
    expect(base).toMatchObject({
      checksum_url: 'https://images.example.net/SHA512SUMS',
      checksum_algorithm: 'sha512',
      signature_url: 'https://images.example.net/SHA512SUMS.sign',
      signature_key: KEY,
    });
    expect(base.sha256).toBeUndefined();
  });

  test('GIVEN the same URL with and without checksums WHEN two VirtualMachines use them THEN they get separate base volumes', () => {
    const out = synth((s) => {
      new VirtualMachine(s, 'a', { name: 'a', baseImage: BaseImage.fromUrl(URL) });
      new VirtualMachine(s, 'b', {
        name: 'b',
        baseImage: BaseImage.fromUrl(URL, { checksums: { url: 'https://images.example.net/SHA256SUMS' } }),
      });
    });
    expect(resources(out, 'virtseed_volume').filter(([, b]) => b.source === URL)).toHaveLength(2);
  });

  test('GIVEN sha256 and checksums WHEN made THEN it throws naming both', () => {
    expect(() => BaseImage.fromUrl(URL, { sha256: 'a'.repeat(64), checksums: { url: 'https://x/SUMS' } })).toThrow(
      /sha256 and checksums were both given/,
    );
  });

  test('GIVEN a signature without checksums WHEN made THEN it throws saying a signature signs the checksum file', () => {
    expect(() => BaseImage.fromUrl(URL, { signature: { key: KEY } })).toThrow(/signature only with checksums/);
  });

  test('GIVEN an md5 algorithm WHEN made THEN it throws naming the allowed ones', () => {
    expect(() => BaseImage.fromUrl(URL, { checksums: { url: 'https://x/SUMS', algorithm: 'md5' as never } })).toThrow(
      /'sha256' or 'sha512'/,
    );
  });
});

describe('BaseImage location', () => {
  test.each([
    ['an empty path', ''],
    ['a blank path', '  '],
    ['undefined', undefined],
  ])('GIVEN fromFile with %s WHEN made THEN it throws naming the property and the value', (_, given) => {
    expect(() => BaseImage.fromFile(given as string)).toThrow(
      /^BaseImage\.fromFile path: invalid value (''|' {2}'|undefined); expected the image file's path/,
    );
  });

  test('GIVEN fromUrl with an empty URL WHEN made THEN it throws naming the property', () => {
    expect(() => BaseImage.fromUrl('')).toThrow(/^BaseImage\.fromUrl url: invalid value ''; expected the image's http\(s\) URL/);
  });
});
