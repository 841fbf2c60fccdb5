/**
 * A guest with no operating system whose boot sector prints text the test chooses on the serial console (COM1):
 * the console a `wait_for` reads, there about a second after QEMU starts instead of after a TCG boot of minutes.
 * For tests of what the provider and Terraform do with a wait's outcome (a module failure, cloud-init finished, a
 * console that stays silent or keeps printing, a fault during the wait), not of what a real cloud-init prints: the
 * guest tests boot the test image for that (test/e2e/seed-guest, snapshot-before, provision-cycle, …), and
 * test/guest/provisioning.test.ts reads lines captured from real guests.
 *
 * The image is a raw disk of {@link PRINTER_IMAGE_BYTES}: SeaBIOS finds no other boot device, loads its sector 0 at
 * 0:7C00 and jumps there. The program (16-bit real mode, below byte for byte; checked with GNU as and objdump):
 * prints the `first` text, zero-terminated, one byte at a time on I/O port 0x3F8 once the line status register
 * (0x3FD) says the transmitter holds no byte; with `later`, it first reads sector 1 through INT 13h and prints
 * `later` instead when that sector starts with `M`, writing the `M` there when it did not (so the disk's first boot
 * prints `first` and every later boot of it `later`); with `repeatTicks`, it prints the text again after that many
 * BIOS timer ticks (18.2 a second, counted at 0:046C, halting between ticks), for ever; else it halts with
 * interrupts off (the vCPU idles).
 */
import * as fs from 'node:fs';

/** The image's size: sector 0 (the program) and sector 1 (the boot mark), padded to 1 MiB of zeros (sparse). */
export const PRINTER_IMAGE_BYTES = 1 << 20;

/** What the guest prints; `\r\n` ends a console line. */
export interface PrinterText {
  /** Printed at the disk's first boot (and every boot without `later`). */
  readonly first: string;
  /** Printed at the disk's later boots. */
  readonly later?: string;
  /** Print the text again every `repeatTicks` BIOS ticks (55 ms each; 1–255), for ever. */
  readonly repeatTicks?: number;
}

/** The program, loaded at 0x7C00; its parameters follow it at {@link PARAMS}. */
// prettier-ignore
const CODE = [
  0xfa,                         // 00 cli
  0x31, 0xc0,                   // 01 xor ax,ax
  0x8e, 0xd8,                   // 03 mov ds,ax
  0x8e, 0xc0,                   // 05 mov es,ax
  0x8e, 0xd0,                   // 07 mov ss,ax
  0xbc, 0x00, 0x7c,             // 09 mov sp,0x7c00
  0xfb,                         // 0c sti
  0x8b, 0x36, 0x7e, 0x7c,       // 0d mov si,[0x7c7e]      first text
  0x80, 0x3e, 0x82, 0x7c, 0x00, // 11 cmp byte [0x7c82],0  a later text?
  0x74, 0x2e,                   // 16 je print
  0x52,                         // 18 push dx              dl: the boot drive
  0xb8, 0x01, 0x02,             // 19 mov ax,0x0201        read 1 sector
  0xb9, 0x02, 0x00,             // 1c mov cx,0x0002        cylinder 0, sector 2 (LBA 1)
  0x30, 0xf6,                   // 1f xor dh,dh            head 0
  0xbb, 0x00, 0x7e,             // 21 mov bx,0x7e00
  0xcd, 0x13,                   // 24 int 0x13
  0x5a,                         // 26 pop dx
  0x80, 0x3e, 0x00, 0x7e, 0x4d, // 27 cmp byte [0x7e00],'M'
  0x74, 0x14,                   // 2c je later
  0xc6, 0x06, 0x00, 0x7e, 0x4d, // 2e mov byte [0x7e00],'M'
  0xb8, 0x01, 0x03,             // 33 mov ax,0x0301        write 1 sector
  0xb9, 0x02, 0x00,             // 36 mov cx,0x0002
  0x30, 0xf6,                   // 39 xor dh,dh
  0xbb, 0x00, 0x7e,             // 3b mov bx,0x7e00
  0xcd, 0x13,                   // 3e int 0x13
  0xeb, 0x04,                   // 40 jmp print
  0x8b, 0x36, 0x80, 0x7c,       // 42 later: mov si,[0x7c80]
  0x89, 0xf5,                   // 46 print: mov bp,si
  0xac,                         // 48 again: lodsb
  0x84, 0xc0,                   // 49 test al,al
  0x74, 0x12,                   // 4b jz done
  0x88, 0xc4,                   // 4d mov ah,al
  0xba, 0xfd, 0x03,             // 4f mov dx,0x3fd         line status
  0xec,                         // 52 thre: in al,dx
  0xa8, 0x20,                   // 53 test al,0x20         transmitter holding register empty
  0x74, 0xfb,                   // 55 jz thre
  0xba, 0xf8, 0x03,             // 57 mov dx,0x3f8         COM1 data
  0x88, 0xe0,                   // 5a mov al,ah
  0xee,                         // 5c out dx,al
  0xeb, 0xe9,                   // 5d jmp again
  0x8a, 0x0e, 0x83, 0x7c,       // 5f done: mov cl,[0x7c83] repeat ticks
  0x84, 0xc9,                   // 63 test cl,cl
  0x74, 0x13,                   // 65 jz halt
  0x8b, 0x1e, 0x6c, 0x04,       // 67 tick: mov bx,[0x046c] BIOS tick count
  0xf4,                         // 6b tickw: hlt
  0x3b, 0x1e, 0x6c, 0x04,       // 6c cmp bx,[0x046c]
  0x74, 0xf9,                   // 70 je tickw
  0xfe, 0xc9,                   // 72 dec cl
  0x75, 0xf1,                   // 74 jnz tick
  0x89, 0xee,                   // 76 mov si,bp
  0xeb, 0xce,                   // 78 jmp again
  0xfa,                         // 7a halt: cli
  0xf4,                         // 7b hlt
  0xeb, 0xfc,                   // 7c jmp halt
];
/** Offset of the parameters: first text's address (u16), later text's (u16), a later text? (u8), repeat ticks (u8). */
const PARAMS = 0x7e;
const LOAD_ADDRESS = 0x7c00;
const SIGNATURE_AT = 510;

/** The raw disk image printing `text` (module doc). Throws when the texts do not fit the boot sector. */
export function printerImage(text: PrinterText): Buffer {
  if (CODE.length !== PARAMS) throw new Error(`printer program is ${CODE.length} bytes, expected ${PARAMS}`);
  const ticks = text.repeatTicks ?? 0;
  if (!Number.isInteger(ticks) || ticks < 0 || ticks > 255) throw new Error(`repeatTicks ${ticks}: expected an integer 0–255`);
  const first = Buffer.from(`${text.first}\0`, 'latin1');
  const later = Buffer.from(`${text.later ?? ''}\0`, 'latin1');
  const firstAt = PARAMS + 6;
  const laterAt = firstAt + first.length;
  if (laterAt + later.length > SIGNATURE_AT)
    throw new Error(`printer texts are ${first.length + later.length} bytes with their ends; at most ${SIGNATURE_AT - firstAt} fit`);
  const img = Buffer.alloc(PRINTER_IMAGE_BYTES);
  Buffer.from(CODE).copy(img, 0);
  img.writeUInt16LE(LOAD_ADDRESS + firstAt, PARAMS);
  img.writeUInt16LE(LOAD_ADDRESS + laterAt, PARAMS + 2);
  img.writeUInt8(text.later === undefined ? 0 : 1, PARAMS + 4);
  img.writeUInt8(ticks, PARAMS + 5);
  first.copy(img, firstAt);
  later.copy(img, laterAt);
  img.writeUInt16LE(0xaa55, SIGNATURE_AT);
  return img;
}

/** Where the program keeps its mark of a booted disk: the first byte of sector 1, `M` once the disk has booted. */
const BOOT_MARK_AT = 512;
const BOOT_MARK = 0x4d; // 'M', as the program compares and writes it (0x27 and 0x2e above)

/**
 * Whether the printer image in `file` (a volume's file, written by {@link writePrinterImage}) has booted once with a
 * `later` text: its program has written the boot mark. Throws when `file` cannot be read.
 */
export function printerBootMarked(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, BOOT_MARK_AT);
    return b[0] === BOOT_MARK;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes {@link printerImage} of `text` to `file` (for a `virtseed_volume`'s `source`, format `raw`); returns `file`. */
export function writePrinterImage(file: string, text: PrinterText): string {
  fs.writeFileSync(file, printerImage(text));
  return file;
}

/**
 * cloud-init's console lines, in the form the test image's cloud-init (22.4) prints them (journald's time stamp and
 * tag, cloud-init's own time stamp and `FILE.py[LEVEL]`; a module's file path left out to fit the boot sector), each
 * ending in `\r\n`.
 */
export const CLOUD_INIT_LINES = {
  /** The banner of a stage (`init-local`, `init`, `modules:config`, `modules:final`). */
  running: (stage: string): string =>
    `[    9.100000] cloud-init[300]: Cloud-init v. 22.4.2 running '${stage}' at Sun, 29 Nov 2026 09:00:00 +0000. Up 9.00 seconds.\r\n`,
  /** A module that failed (cloud-init logs it and goes on; the wait stops there). */
  moduleFailed: (module: string): string =>
    `[   10.200000] cloud-init[300]: 2026-11-29 09:00:01,000 - util.py[WARNING]: Running module ${module} (<module 'cloudinit.config.cc_${module}'>) failed\r\n`,
  /** The final stage's "finished" line, with the NoCloud datasource of a seed. */
  finished: (): string =>
    '[   12.300000] cloud-init[400]: Cloud-init v. 22.4.2 finished at Sun, 29 Nov 2026 09:00:03 +0000. Datasource DataSourceNoCloud [seed=/dev/vdb][dsmode=net].  Up 12.20 seconds\r\n',
} as const;

/** HCL of a `virtseed_volume` named `resource` holding the image at `file` (written by {@link writePrinterImage}). */
export function printerVolumeHcl(resource: string, opts: { pool: string; name: string; file: string }): string {
  return `
resource "virtseed_volume" "${resource}" {
  pool   = "${opts.pool}"
  name   = "${opts.name}"
  source = "${opts.file}"
  format = "raw"
}
`;
}
