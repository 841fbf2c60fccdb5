import { ConsoleLineSplitter, ProvisioningWatch } from '../../src/guest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CLOUD_INIT_LINES, PRINTER_IMAGE_BYTES, printerBootMarked, printerImage, writePrinterImage } from './console-printer';

/** The zero-terminated text at the boot sector address `address` (loaded at 0x7C00). */
function textAt(img: Buffer, address: number): string {
  const at = address - 0x7c00;
  return img.subarray(at, img.indexOf(0, at)).toString('latin1');
}

/** What ProvisioningWatch makes of `text` as console output. */
function watched(text: string): unknown {
  const watch = new ProvisioningWatch('cloud-init');
  for (const line of new ConsoleLineSplitter().push(Buffer.from(text))) watch.line(line);
  const o = watch.outcome;
  return o.finished ? (o.errors.length ? o.errors.slice() : `finished ${o.datasource}`) : 'waiting';
}

describe('printerImage', () => {
  it('GIVEN a first and a later text and repeat ticks WHEN built THEN a 1 MiB disk whose boot sector holds the program, its parameters, both texts and the boot signature', () => {
    const img = printerImage({ first: 'one\r\n', later: 'two\r\n', repeatTicks: 4 });
    expect(img.length).toBe(PRINTER_IMAGE_BYTES);
    expect(img.readUInt16LE(510)).toBe(0xaa55);
    expect(img[0]).toBe(0xfa); // cli, the program's first instruction
    expect([textAt(img, img.readUInt16LE(0x7e)), textAt(img, img.readUInt16LE(0x80)), img[0x82], img[0x83]]).toEqual([
      'one\r\n',
      'two\r\n',
      1,
      4,
    ]);
    expect(img.subarray(512).every((b) => b === 0)).toBe(true); // sector 1, the mark of a first boot, starts blank
  });

  it('GIVEN no later text and no repeat WHEN built THEN the program neither reads the mark nor repeats', () => {
    const img = printerImage({ first: '' });
    expect([textAt(img, img.readUInt16LE(0x7e)), img[0x82], img[0x83]]).toEqual(['', 0, 0]);
  });

  it('GIVEN texts longer than the boot sector holds, or repeat ticks out of range WHEN built THEN it throws saying so', () => {
    expect(() => printerImage({ first: 'x'.repeat(300), later: 'y'.repeat(100) })).toThrow(/402 bytes with their ends; at most 378 fit/);
    expect(() => printerImage({ first: '', repeatTicks: 256 })).toThrow(/repeatTicks 256: expected an integer 0–255/);
  });
});

describe('printerBootMarked', () => {
  it('GIVEN a written image WHEN read before and after sector 1 starts with M (what the program writes at a first boot) THEN false, then true', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-printer-'));
    try {
      const file = writePrinterImage(path.join(dir, 'boot.img'), { first: '', later: 'x' });
      expect(printerBootMarked(file)).toBe(false);
      const fd = fs.openSync(file, 'r+');
      fs.writeSync(fd, Buffer.from('M'), 0, 1, 512);
      fs.closeSync(fd);
      expect(printerBootMarked(file)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CLOUD_INIT_LINES', () => {
  it('GIVEN the printed lines WHEN read by the wait (ProvisioningWatch) THEN a failed module ends it with that module, the finished line as finished on NoCloud', () => {
    expect(watched(CLOUD_INIT_LINES.running('init') + CLOUD_INIT_LINES.moduleFailed('bootcmd'))).toEqual([
      { module: 'bootcmd', message: expect.stringMatching(/^Running module bootcmd \(/) },
    ]);
    expect(watched(CLOUD_INIT_LINES.running('modules:final') + CLOUD_INIT_LINES.finished())).toBe('finished DataSourceNoCloud');
    expect(watched(CLOUD_INIT_LINES.running('init'))).toBe('waiting');
  });
});
