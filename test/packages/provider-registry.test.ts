/**
 * The static registry's documents (cli/commands/provider-registry.ts) and the release signature
 * (packages/build/release.ts signDetached), checked with openpgp's own verification.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as openpgp from 'openpgp';
import { registryFiles, type RegistryRelease } from '../../cli/commands/provider-registry';
import { signDetached } from '../../packages/build/release';

const KEY = fs.readFileSync(path.join(__dirname, 'fixtures', 'release-test-key.asc'), 'utf8');

const release = (version: string): RegistryRelease => ({
  version,
  protocols: ['6.0'],
  zips: new Map([
    ['linux_arm64', 'b'.repeat(64)],
    ['linux_amd64', 'a'.repeat(64)],
  ]),
  keyId: '0123456789ABCDEF',
  publicKey: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n',
});

describe('registryFiles', () => {
  it('GIVEN a release THEN it writes service discovery, the versions document and one download document per platform', () => {
    const files = registryFiles(release('0.1.0'));
    expect([...files.keys()].sort()).toEqual([
      '.well-known/terraform.json',
      'v1/providers/virtseed/virtseed/0.1.0/download/linux/amd64',
      'v1/providers/virtseed/virtseed/0.1.0/download/linux/arm64',
      'v1/providers/virtseed/virtseed/versions',
    ]);
    expect(JSON.parse(files.get('.well-known/terraform.json') as string)).toEqual({ 'providers.v1': '/v1/providers/' });
    expect(JSON.parse(files.get('v1/providers/virtseed/virtseed/versions') as string)).toEqual({
      versions: [
        {
          version: '0.1.0',
          protocols: ['6.0'],
          platforms: [
            { os: 'linux', arch: 'amd64' },
            { os: 'linux', arch: 'arm64' },
          ],
        },
      ],
    });
    expect(JSON.parse(files.get('v1/providers/virtseed/virtseed/0.1.0/download/linux/arm64') as string)).toEqual({
      protocols: ['6.0'],
      os: 'linux',
      arch: 'arm64',
      filename: 'terraform-provider-virtseed_0.1.0_linux_arm64.zip',
      download_url: '/releases/0.1.0/terraform-provider-virtseed_0.1.0_linux_arm64.zip',
      shasums_url: '/releases/0.1.0/terraform-provider-virtseed_0.1.0_SHA256SUMS',
      shasums_signature_url: '/releases/0.1.0/terraform-provider-virtseed_0.1.0_SHA256SUMS.sig',
      shasum: 'b'.repeat(64),
      signing_keys: { gpg_public_keys: [{ key_id: '0123456789ABCDEF', ascii_armor: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n' }] },
    });
  });

  it('GIVEN an existing versions document THEN other versions are kept in semver order and this one replaced', () => {
    const existing = JSON.stringify({
      versions: [
        { version: '0.10.0', protocols: ['6.0'], platforms: [] },
        { version: '0.2.0', protocols: ['5.0'], platforms: [] },
        { version: '0.1.0-rc.1', protocols: ['6.0'], platforms: [] },
      ],
    });
    const versions = JSON.parse(registryFiles(release('0.2.0'), existing).get('v1/providers/virtseed/virtseed/versions') as string) as {
      versions: { version: string; protocols: string[] }[];
    };
    expect(versions.versions.map((v) => v.version)).toEqual(['0.1.0-rc.1', '0.2.0', '0.10.0']);
    expect(versions.versions[1]?.protocols).toEqual(['6.0']);
  });

  it('GIVEN a bad key ID, platform or versions document THEN it throws naming it', () => {
    expect(() => registryFiles({ ...release('0.1.0'), keyId: 'abc' })).toThrow(/key ID must be 16 upper-case hex digits, got "abc"/);
    expect(() => registryFiles({ ...release('0.1.0'), zips: new Map([['linux-amd64', 'a'.repeat(64)]]) })).toThrow(
      /platform must be <os>_<arch>, got "linux-amd64"/,
    );
    expect(() => registryFiles(release('0.1.0'), '{}')).toThrow(/no "versions" array/);
  });
});

describe('signDetached', () => {
  it('GIVEN the test key THEN the signature verifies with the public key, names its key ID and is the same bytes twice', async () => {
    const data = Buffer.from('abc  terraform-provider-virtseed_0.1.0_linux_amd64.zip\n');
    const date = new Date('2026-11-20T00:00:00Z');
    const a = await signDetached(data, { armored: KEY }, date);
    const b = await signDetached(data, { armored: KEY }, date);
    expect(Buffer.from(a.signature).equals(Buffer.from(b.signature))).toBe(true);
    expect(a.keyId).toMatch(/^[0-9A-F]{16}$/);
    const verified = await openpgp.verify({
      message: await openpgp.createMessage({ binary: data }),
      signature: await openpgp.readSignature({ binarySignature: a.signature }),
      verificationKeys: await openpgp.readKey({ armoredKey: a.publicKey }),
      expectSigned: true,
    });
    expect(verified.signatures[0]?.keyID.toHex().toUpperCase()).toBe(a.keyId);
    const tampered = openpgp.verify({
      message: await openpgp.createMessage({ binary: Buffer.from('changed') }),
      signature: await openpgp.readSignature({ binarySignature: a.signature }),
      verificationKeys: await openpgp.readKey({ armoredKey: a.publicKey }),
      expectSigned: true,
    });
    await expect(tampered).rejects.toThrow(/Signed digest did not match/);
  });

  it('GIVEN text that is not a private key THEN it throws saying so', async () => {
    await expect(signDetached(Buffer.from('x'), { armored: 'nope' })).rejects.toThrow(/not an ASCII-armored OpenPGP private key/);
  });
});
