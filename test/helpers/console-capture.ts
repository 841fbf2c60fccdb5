/**
 * A timestamped copy of a domain's console log for e2e tests: a `tail -F` child follows the log (appended to at
 * every domain start, renamed by virtlogd when it rolls over at 2 MiB) and stamps each line with the host's wall clock (ms), so a test can tell when
 * a line appeared relative to a terraform run (jest blocks in spawnSync meanwhile, so the stamping is a child).
 */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface StampedLine {
  readonly ms: number;
  readonly text: string;
}

export class ConsoleCapture {
  private readonly dir: string;
  private readonly file: string;
  private readonly child: ChildProcess;

  constructor(logPath: string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-capture-'));
    this.file = path.join(this.dir, 'console.txt');
    // Only what is written from now on: a log left by an earlier run would otherwise be read whenever the child
    // gets to run (late, on a loaded host) and stamped as new. When virtlogd rolls it over, tail reads the new file whole.
    let existing = 0;
    try {
      existing = fs.statSync(logPath).size;
    } catch {
      // no log yet
    }
    const script =
      'tail -F -c "+$3" --sleep-interval=0.1 "$1" 2>/dev/null | while IFS= read -r l; do printf "%s %s\\n" "${EPOCHREALTIME/./}" "$l"; done > "$2"';
    this.child = spawn('bash', ['-c', script, 'capture', logPath, this.file, String(existing + 1)], { stdio: 'ignore', detached: true });
  }

  /** All lines so far (CR removed); `ms` in milliseconds since the epoch. */
  lines(): StampedLine[] {
    let text = '';
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return [];
    }
    return text
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const sp = l.indexOf(' ');
        return { ms: Math.floor(Number(l.slice(0, sp)) / 1000), text: l.slice(sp + 1).replace(/\r/g, '') };
      });
  }

  /** Lines stamped at or after `ms`. */
  since(ms: number): StampedLine[] {
    return this.lines().filter((l) => l.ms >= ms);
  }

  /** Stops the tail (its whole process group) and removes the capture. */
  dispose(): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid);
    } catch {
      // already gone
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
