/**
 * The time bounds of the test helpers (limits.ts) on real processes and files: a terraform call stopped by its
 * guest console's silence, one left alone while the console grows, and waitForConsole failing on silence. A
 * stand-in `terraform` (a shell script first on PATH) plays a call waiting on a guest: what is tested is the
 * watchdog around it, not terraform.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { waitForConsole } from './guest';
import { STOPPED, TfWorkdir } from './terraform';

jest.setTimeout(60_000);

let dir: string;
let consoleLog: string;
const saved = process.env.VIRTSEED_TEST_CONSOLE_SILENCE_S;

/** A work dir whose `terraform` is the script `body` (it may write "$CONSOLE") and whose main.tf names the console. */
function workdir(body: string): TfWorkdir {
  const bin = fs.mkdtempSync(path.join(dir, 'bin-'));
  fs.writeFileSync(path.join(bin, 'terraform'), `#!/bin/bash\n${body}\n`, { mode: 0o755 });
  const tf = new TfWorkdir('watchdog', { PATH: `${bin}:${process.env.PATH}`, CONSOLE: consoleLog });
  tf.write(`resource "virtseed_domain" "vm" {\n  name = "vstest-watchdog-vm"\n  console_log = "${consoleLog}"\n}\n`);
  return tf;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-watchdog-'));
  consoleLog = path.join(dir, 'console.log');
  process.env.VIRTSEED_TEST_CONSOLE_SILENCE_S = '3';
});

afterAll(() => {
  if (saved === undefined) delete process.env.VIRTSEED_TEST_CONSOLE_SILENCE_S;
  else process.env.VIRTSEED_TEST_CONSOLE_SILENCE_S = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

test('GIVEN a configuration naming a console WHEN its consoles are listed THEN the explicit path and the default console of the domain are watched', () => {
  const tf = workdir('exit 0');
  try {
    expect(tf.consoles()).toEqual([consoleLog, '/var/log/libvirt/qemu/vstest-watchdog-vm-console.log']);
  } finally {
    tf.dispose();
  }
});

test('GIVEN a call whose guest console stops growing WHEN the silence passes its bound THEN the call is stopped with why and the console tail', () => {
  const tf = workdir('echo "Booting the kernel" >> "$CONSOLE"; echo applying; sleep 120');
  const start = Date.now();
  try {
    const r = tf.run(['apply']);
    expect(r.code).toBe(STOPPED);
    expect(r.out).toMatch(/applying[\s\S]*tf-watchdog: the guest console stayed silent for \d+ s \(bound 3 s/);
    expect(r.out).toContain(`--- last 40 lines of ${consoleLog}:\nBooting the kernel`);
    expect(Date.now() - start).toBeLessThan(20_000);
  } finally {
    tf.dispose();
  }
});

test('GIVEN a call whose guest console keeps growing WHEN it runs past the silence bound THEN it is left to finish', () => {
  const tf = workdir('for i in 1 2 3 4 5 6; do echo "line $i" >> "$CONSOLE"; sleep 1; done; echo done; exit 3');
  try {
    const r = tf.run(['apply']);
    expect(r).toEqual({ code: 3, out: 'done\n' });
  } finally {
    tf.dispose();
  }
});

test('GIVEN a console that stops growing WHEN waitForConsole waits for a line that never comes THEN it fails after the silence bound with the last lines', async () => {
  fs.writeFileSync(consoleLog, 'first\nlast words\n');
  const start = Date.now();
  await expect(waitForConsole(consoleLog, /never/, 60_000)).rejects.toThrow(
    /did not show \/never\/ : the console has written nothing for [34] s \(VIRTSEED_TEST_CONSOLE_SILENCE_S=3\); last 40 lines:\nfirst\nlast words$/,
  );
  expect(Date.now() - start).toBeLessThan(10_000);
});
