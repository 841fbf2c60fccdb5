/** Input and output of the CLI (injected so commands can be tested without a process). */
import { readFileSync } from 'node:fs';

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /** Binary output on stdout (an image written to `-`). Default: the text sink, latin1 (tests). */
  stdoutBytes?(data: Uint8Array): void;
  /** All of stdin (user-data given as `-`). */
  stdin?(): Uint8Array;
}

/** The process's stdout/stderr/stdin. process.stdout and process.stderr are first touched when written (a pipe or
 *  terminal stream loads node:net and streams: ~7 ms of CPU at start for a command that prints nothing, issue #25),
 *  and a closed one (`virtseed seed show x.iso | head`) then ends the process quietly with the status a process
 *  killed by SIGPIPE has (141), instead of an EPIPE stack trace. */
export const processIo: CliIo = {
  stdout: (t) => void guarded('stdout').write(t),
  stderr: (t) => void guarded('stderr').write(t),
  stdoutBytes: (d) => void guarded('stdout').write(d),
  stdin: () => new Uint8Array(readFileSync(0)),
};

const guardedStreams = new Set<'stdout' | 'stderr'>();

/** process.stdout or process.stderr, with the closed-pipe handler attached on first use. */
function guarded(name: 'stdout' | 'stderr'): NodeJS.WriteStream {
  const stream = process[name];
  if (!guardedStreams.has(name)) {
    guardedStreams.add(name);
    stream.on('error', onStreamError(process));
  }
  return stream;
}

/** A stream error handler: a closed pipe (EPIPE) ends `proc` with status 141, as SIGPIPE would; others rethrow. */
function onStreamError(proc: NodeJS.Process): (e: NodeJS.ErrnoException) => void {
  return (e) => {
    if (e.code === 'EPIPE') proc.exit(141);
    throw e;
  };
}
