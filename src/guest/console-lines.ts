/**
 * Splits a guest's serial console byte stream into text lines: UTF-8 decoded across chunk boundaries, CR and
 * terminal escape sequences (CSI/OSC, as systemd's coloured status lines carry) removed, other control characters
 * dropped. Pure; no I/O.
 */

// CSI `ESC [ params final`, OSC `ESC ] ... BEL|ESC \`, two-byte escapes `ESC X`.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
// C0 controls except TAB, and DEL.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** Removes escape sequences and control characters from one line (no CR/LF in `line`). */
export function cleanConsoleLine(line: string): string {
  return line.replace(ESCAPES, '').replace(CONTROLS, '');
}

/** Feeds console bytes, returns complete lines; `flush()` returns the unterminated rest. */
export class ConsoleLineSplitter {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private rest = '';

  /** The complete lines `chunk` finished (cleaned, without line ends). */
  push(chunk: Uint8Array): string[] {
    const text = this.rest + this.decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    this.rest = parts.pop() as string;
    return parts.map((p) => cleanConsoleLine(p.replace(/\r/g, '')));
  }

  /** The last line without a line end ('' when none), and resets. */
  flush(): string {
    const last = cleanConsoleLine((this.rest + this.decoder.decode()).replace(/\r/g, ''));
    this.rest = '';
    return last;
  }
}
