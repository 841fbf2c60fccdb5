import { cleanConsoleLine, ConsoleLineSplitter } from '../../src/guest';

describe('ConsoleLineSplitter', () => {
  test('GIVEN chunks split inside a line and inside a UTF-8 character WHEN pushed THEN whole lines come out once', () => {
    const s = new ConsoleLineSplitter();
    const bytes = Buffer.from('first\r\nsec\u00e9nd\nthi');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of é
    expect(s.push(bytes.subarray(0, cut))).toEqual(['first']);
    expect(s.push(bytes.subarray(cut))).toEqual(['sec\u00e9nd']);
    expect(s.flush()).toBe('thi');
    expect(s.flush()).toBe('');
  });

  test('GIVEN systemd status lines with colour escapes WHEN cleaned THEN only the text is left', () => {
    expect(cleanConsoleLine('[\u001b[0;32m  OK  \u001b[0m] Started \u001b[0;1;39mcloud-init.service\u001b[0m.')).toBe(
      '[  OK  ] Started cloud-init.service.',
    );
    expect(cleanConsoleLine('a\u0007b\u001b]0;title\u0007c')).toBe('abc');
  });
});
