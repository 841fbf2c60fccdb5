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

/** The process's stdout/stderr/stdin. */
export const processIo: CliIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
  stdoutBytes: (d) => void process.stdout.write(d),
  stdin: () => new Uint8Array(readFileSync(0)),
};

/**
 * Makes a closed stdout or stderr (`virtseed seed show x.iso | head`) end the process quietly, with the status a
 * process killed by SIGPIPE has (141), instead of an EPIPE stack trace. Other stream errors are rethrown.
 */
export function endQuietlyOnClosedPipe(proc: NodeJS.Process = process): void {
  const onError = (e: NodeJS.ErrnoException): void => {
    if (e.code === 'EPIPE') proc.exit(141);
    throw e;
  };
  proc.stdout.on('error', onError);
  proc.stderr.on('error', onError);
}
