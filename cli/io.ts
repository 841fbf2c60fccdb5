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
  stdout: (t) => void guarded(process.stdout).write(t),
  stderr: (t) => void guarded(process.stderr).write(t),
  stdoutBytes: (d) => void guarded(process.stdout).write(d),
  stdin: () => new Uint8Array(readFileSync(0)),
};

const guardedStreams = new Set<NodeJS.WriteStream>();

/** `stream` (process.stdout or process.stderr), with the closed-pipe handler attached on first use. */
function guarded(stream: NodeJS.WriteStream): NodeJS.WriteStream {
  if (!guardedStreams.has(stream)) {
    guardedStreams.add(stream);
    stream.on('error', endOnClosedPipe);
  }
  return stream;
}

/** A closed pipe (EPIPE) ends the process with status 141, as SIGPIPE would; other stream errors are rethrown. */
function endOnClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code === 'EPIPE') process.exit(141);
  throw e;
}
