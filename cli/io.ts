/** Output sinks of the CLI (injected so commands can be tested without a process). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The process's stdout/stderr. */
export const processIo: CliIo = {
  stdout: (t) => void process.stdout.write(t),
  stderr: (t) => void process.stderr.write(t),
};
