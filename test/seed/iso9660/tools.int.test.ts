/**
 * Our images read by the system tools (xorriso, isoinfo, blkid), and images made by genisoimage and xorrisofs
 * read by readIso.
 */
import { execFileSync, spawnSync } from 'child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { buildIso, readIso, type SeedFile } from '../../../src/seed/iso9660';
import { asRecord, binary, sampleFiles, sortByPath } from './fixtures';

const LARGE = 64 * 1024 * 1024;

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'virtseed-iso-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd: string, args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });

function writeIso(name: string, files: SeedFile[], volumeId: string): string {
  const path = join(work, name);
  writeFileSync(path, buildIso(files, { volumeId }));
  return path;
}

function writeTree(name: string, files: SeedFile[]): string {
  const root = join(work, name);
  for (const file of files) {
    mkdirSync(dirname(join(root, file.path)), { recursive: true });
    writeFileSync(join(root, file.path), file.content);
  }
  return root;
}

/** Every directory and file path of `files`, with a leading '/', as `isoinfo -f` lists them. */
function allPaths(files: SeedFile[]): string[] {
  const out = new Set<string>();
  for (const file of files) {
    const parts = file.path.split('/');
    for (let i = 1; i <= parts.length; i++) out.add(`/${parts.slice(0, i).join('/')}`);
  }
  return [...out].sort();
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('our image read by the system tools', () => {
  let iso: string;
  beforeAll(() => {
    iso = writeIso('sample.iso', sampleFiles(), 'cidata');
  });

  it('GIVEN our image WHEN isoinfo -d inspects it THEN it shows the volume id, Joliet and Rock Ridge', () => {
    const out = run('isoinfo', ['-d', '-i', iso]);
    expect(out).toMatch(/^Volume id: cidata$/m);
    expect(out).toMatch(/Joliet with UCS level 3 found/);
    expect(out).toMatch(/Rock Ridge signatures version 1 found/);
  });

  it('GIVEN labels cidata and config-2 WHEN blkid reads them THEN it gives each label exactly', () => {
    expect(run('blkid', ['-o', 'value', '-s', 'LABEL', iso]).trim()).toBe('cidata');
    const configDrive = writeIso('config2.iso', sampleFiles(), 'config-2');
    expect(run('blkid', ['-o', 'value', '-s', 'LABEL', configDrive]).trim()).toBe('config-2');
  });

  it('GIVEN our image WHEN isoinfo lists the Rock Ridge tree THEN it shows exactly our names', () => {
    expect(lines(run('isoinfo', ['-R', '-f', '-i', iso])).sort()).toEqual(allPaths(sampleFiles()));
  });

  it('GIVEN our image WHEN isoinfo lists the Joliet tree THEN it shows exactly our names', () => {
    expect(lines(run('isoinfo', ['-J', '-f', '-i', iso])).sort()).toEqual(allPaths(sampleFiles()));
  });

  it('GIVEN our image WHEN xorriso finds its files THEN they are exactly ours', () => {
    const out = run('xorriso', ['-indev', iso, '-find', '/', '-type', 'f']);
    const found = lines(out).map((l) => l.replace(/^'\/(.*)'$/, '$1'));
    expect(found.sort()).toEqual(
      sampleFiles()
        .map((f) => f.path)
        .sort(),
    );
  });

  it('GIVEN our image WHEN xorriso loads it THEN it reports no warning or error', () => {
    const result = spawnSync('xorriso', ['-indev', iso, '-find', '/', '-exec', 'lsdl'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/WARNING|SORRY|FAILURE|FATAL/);
  });

  it('GIVEN our image WHEN isoinfo -R -x extracts /meta-data THEN the bytes are exact', () => {
    const out = execFileSync('isoinfo', ['-R', '-x', '/meta-data', '-i', iso], { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(Buffer.compare(out, Buffer.from(sampleFiles()[0].content))).toBe(0);
  });

  it('GIVEN our image WHEN isoinfo -R -x extracts a nested binary file THEN the bytes are exact', () => {
    const out = execFileSync('isoinfo', ['-R', '-x', '/openstack/content/0000', '-i', iso], {
      maxBuffer: 1 << 20,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out.toString('hex')).toBe(Buffer.from(binary(5000)).toString('hex'));
  });

  it('GIVEN a 64 MiB file, an empty file, nested dirs and long Unicode names WHEN xorriso extracts all THEN every file is exact', () => {
    const files: SeedFile[] = [
      ...sampleFiles(),
      { path: 'big/disk.img', content: binary(LARGE) },
      { path: '€'.repeat(64), content: binary(7) },
    ];
    const image = writeIso('large.iso', files, 'cidata');
    const out = join(work, 'extracted');
    const result = spawnSync('xorriso', ['-osirrox', 'on', '-indev', image, '-extract', '/', out], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    const extracted = files.map((f) => ({ path: f.path, content: readFileSync(join(out, f.path)) }));
    for (const [i, file] of files.entries()) {
      expect({ path: file.path, equal: Buffer.compare(extracted[i].content, Buffer.from(file.content)) === 0 }).toEqual({
        path: file.path,
        equal: true,
      });
    }
  });
});

describe('readIso on images made by other tools', () => {
  const tree = (): SeedFile[] => [...sampleFiles(), { path: 'deep/a/b/c/d/e/f/g/file', content: binary(33) }];

  it('GIVEN an image from genisoimage -J -r -V cidata WHEN read THEN label and files are exact', () => {
    const dir = writeTree('g-src', tree());
    const iso = join(work, 'g.iso');
    run('genisoimage', ['-quiet', '-J', '-r', '-V', 'cidata', '-o', iso, dir]);
    const result = readIso(readFileSync(iso));
    expect(result.volumeId).toBe('cidata');
    expect(asRecord(result.files)).toEqual(asRecord(sortByPath(tree())));
  });

  it('GIVEN an image from xorrisofs -J -r -V config-2 WHEN read THEN label and files are exact', () => {
    const dir = writeTree('x-src', tree());
    const iso = join(work, 'x.iso');
    run('xorrisofs', ['-quiet', '-J', '-r', '-V', 'config-2', '-o', iso, dir]);
    const result = readIso(readFileSync(iso));
    expect(result.volumeId).toBe('config-2');
    expect(asRecord(result.files)).toEqual(asRecord(sortByPath(tree())));
  });

  it('GIVEN a genisoimage image whose directories were relocated to rr_moved WHEN read THEN the deep path is restored', () => {
    const files = [{ path: 'a/b/c/d/e/f/g/h/i/file', content: binary(9) }];
    const dir = writeTree('deep-src', files);
    const iso = join(work, 'deep.iso');
    run('genisoimage', ['-quiet', '-J', '-r', '-V', 'cidata', '-o', iso, dir]);
    expect(asRecord(readIso(readFileSync(iso)).files)).toEqual(asRecord(files));
  });

  it('GIVEN a Joliet-only genisoimage image WHEN read THEN the Joliet names are used', () => {
    const dir = writeTree('j-src', sampleFiles());
    const iso = join(work, 'j.iso');
    run('genisoimage', ['-quiet', '-J', '-V', 'cidata', '-o', iso, dir]);
    expect(asRecord(readIso(readFileSync(iso)).files)).toEqual(asRecord(sortByPath(sampleFiles())));
  });
});
