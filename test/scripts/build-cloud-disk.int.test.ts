/**
 * scripts/build-cloud-disk.sh on a small root tree (a /boot with placeholder kernel and initrd files), read back by
 * the system tools: sfdisk (GPT layout and identifiers), e2fsck and debugfs on the root partition (at its offset),
 * mtools on the ESP, and the bytes GRUB's BIOS stages use to find each other. Real boots of the full image are in
 * test/e2e/firmware-boot.int.test.ts.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', '..', 'scripts', 'build-cloud-disk.sh');
const SECTOR = 512;
/** Kernel arguments the image adds (its third argument), after the script's own. */
const EXTRA_ARGS = 'mitigations=off init_on_alloc=0';

jest.setTimeout(120_000);

let dir: string;
let image: string;
let cmdline: string;

/** Runs a command; throws with its output unless it exits 0. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

interface Partition {
  node: string;
  start: number;
  size: number;
  type: string;
  uuid: string;
  name: string;
}

/** `length` bytes of the image from byte `offset` (the image is too large for readFileSync). */
function readImage(offset: number, length: number): Buffer {
  const fd = fs.openSync(image, 'r');
  try {
    const buf = Buffer.alloc(length);
    fs.readSync(fd, buf, 0, length, offset);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

function partitions(): Partition[] {
  return JSON.parse(run('sfdisk', ['--json', image])).partitiontable.partitions as Partition[];
}

function partition(name: string): Partition {
  const found = partitions().find((p) => p.name === name);
  if (!found) throw new Error(`no partition named ${name}`);
  return found;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-clouddisk-'));
  const root = path.join(dir, 'root');
  fs.mkdirSync(path.join(root, 'boot'), { recursive: true });
  fs.mkdirSync(path.join(root, 'etc'));
  fs.writeFileSync(path.join(root, 'boot', 'vmlinuz-6.1.0-1-amd64'), 'kernel');
  fs.writeFileSync(path.join(root, 'boot', 'initrd.img-6.1.0-1-amd64'), 'initrd');
  image = path.join(dir, 'disk.raw');
  cmdline = run('bash', [SCRIPT, root, image, EXTRA_ARGS]).trim();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('GIVEN a root tree WHEN the disk is built THEN it is a 2 GiB GPT disk with root (1), BIOS boot (14) and ESP (15) partitions of the standard types', () => {
  expect(fs.statSync(image).size).toBe(2 * 1024 ** 3);
  const byNumber = Object.fromEntries(partitions().map((p) => [p.node.replace(image, ''), [p.name, p.type, p.start, p.size]]));
  expect(byNumber).toEqual({
    '1': ['root', '4F68BCE3-E8CD-4DB1-96E7-FBCAF984B709', 135168, 4057088],
    '14': ['bios', '21686148-6449-6E6F-744E-656564454649', 2048, 2048],
    '15': ['esp', 'C12A7328-F81F-11D2-BA4B-00A0C93EC93B', 4096, 131072],
  });
});

test("GIVEN the built disk WHEN the kernel command line is printed THEN it finds root by the root partition's PARTUUID, uses the serial console and ends with the extra arguments", () => {
  expect(cmdline).toBe(
    `root=PARTUUID=${partition('root').uuid.toLowerCase()} rw console=ttyS0,115200 net.ifnames=0 no_timer_check ${EXTRA_ARGS}`,
  );
});

test('GIVEN the root partition WHEN e2fsck and debugfs read it at its offset THEN it is a clean ext4 labelled rootfs holding the tree, grub.cfg and fstab', () => {
  const fs0 = `${image}?offset=${partition('root').start * SECTOR}`;
  run('e2fsck', ['-fn', fs0]);
  expect(
    run('dumpe2fs', ['-h', fs0])
      .split('\n')
      .find((l) => l.startsWith('Filesystem volume name:')),
  ).toMatch(/rootfs$/);
  const grubCfg = run('debugfs', ['-R', 'cat /boot/grub/grub.cfg', fs0]);
  expect(grubCfg).toContain(`linux /boot/vmlinuz-6.1.0-1-amd64 ${cmdline}`);
  expect(grubCfg).toContain('initrd /boot/initrd.img-6.1.0-1-amd64');
  expect(grubCfg).toContain('serial --unit=0 --speed=115200');
  expect(run('debugfs', ['-R', 'cat /etc/fstab', fs0])).toBe(`PARTUUID=${partition('root').uuid.toLowerCase()} / ext4 defaults 0 1\n`);
});

test('GIVEN the ESP WHEN mtools reads it THEN it is FAT and holds GRUB for x86_64 UEFI at the removable-media path', () => {
  const efi = path.join(dir, 'BOOTX64.EFI');
  // mtools' IMAGE@@OFFSET: the FAT file system inside the ESP partition.
  run('mcopy', ['-i', `${image}@@${partition('esp').start * SECTOR}`, '::/EFI/BOOT/BOOTX64.EFI', efi]);
  const pe = fs.readFileSync(efi);
  expect(pe.subarray(0, 2).toString('latin1')).toBe('MZ');
  const peHeader = pe.readUInt32LE(0x3c);
  expect(pe.readUInt16LE(peHeader + 4)).toBe(0x8664); // IMAGE_FILE_MACHINE_AMD64
});

test("GIVEN the MBR and the BIOS boot partition WHEN read THEN boot.img points at core.img and core.img's blocklist at the rest of it, with the GPT protective entry kept", () => {
  const disk = readImage(0, SECTOR);
  const bios = partition('bios');
  expect(disk.readUInt16LE(0x1fe)).toBe(0xaa55);
  expect(disk[0x1c2]).toBe(0xee); // protective MBR partition type (UEFI 2.10, 5.2.3)
  expect(disk.readBigUInt64LE(0x5c)).toBe(BigInt(bios.start)); // boot.img: kernel sector
  const core = readImage(bios.start * SECTOR, SECTOR);
  expect(core.readBigUInt64LE(SECTOR - 12)).toBe(BigInt(bios.start + 1)); // diskboot.img: blocklist start
  expect(core.readUInt16LE(SECTOR - 4)).toBeGreaterThan(0); // blocklist length, set by grub-mkimage
  // The rest of boot.img's code, after the patched drive check, is GRUB's own (grub-pc-bin).
  const bootImg = fs.readFileSync('/usr/lib/grub/i386-pc/boot.img');
  expect(disk.subarray(0x68, 0x1b8).equals(bootImg.subarray(0x68, 0x1b8))).toBe(true);
});
