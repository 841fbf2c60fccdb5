/**
 * The serial console as a libvirt stream (virDomainOpenConsole) against the real libvirtd at qemu:///system: a
 * domain started paused, its console opened, then resumed, shows the kernel's first line on the stream, and the
 * chardev's `<log file>` keeps logging beside the stream. The guest is only the test image's kernel and initrd
 * with no disk and no NIC (it stops in the initramfs); it boots under the machine-wide guest lock.
 */
import * as fs from 'node:fs';
import { renderDomainXml } from '../../src/domain';
import { ConsoleLineSplitter } from '../../src/guest';
import {
  DomRef,
  LibvirtError,
  RemoteLibvirtClient,
  VIR_DOMAIN_PAUSED,
  VIR_DOMAIN_RUNNING,
  VIR_DOMAIN_START_PAUSED,
  connect,
} from '../../src/libvirt';
import { cleanupByPrefix, testImage } from '../helpers/guest';

jest.setTimeout(300_000);

const NAME = 'vstest-console-vm';
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;

let client: RemoteLibvirtClient;
let dom: DomRef;

beforeAll(async () => {
  cleanupByPrefix('vstest-console-');
  fs.rmSync(LOG, { force: true });
  const img = testImage();
  client = await connect('qemu:///system');
  dom = await client.domainDefineXml(
    renderDomainXml({
      name: NAME,
      type: 'qemu',
      memoryMiB: 256,
      vcpu: 1,
      disks: [],
      interfaces: [],
      serialLogFile: LOG,
      os: { kernel: img.kernel, initrd: img.initrd, cmdline: 'console=ttyS0,115200 panic=-1 rootdelay=600' },
    }),
  );
});

afterAll(async () => {
  await client?.close();
  cleanupByPrefix('vstest-console-');
  fs.rmSync(LOG, { force: true });
});

test("GIVEN a domain started paused WHEN its console is opened before resuming THEN the stream carries the boot from the kernel's first line and the log file gets it too", async () => {
  await client.domainCreateWithFlags(dom, VIR_DOMAIN_START_PAUSED);
  expect((await client.domainGetState(dom)).state).toBe(VIR_DOMAIN_PAUSED);
  const lines: string[] = [];
  const splitter = new ConsoleLineSplitter();
  let opened = false;
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('no kernel line within 240 s')), 240_000);
  const reading = (async () => {
    for await (const chunk of client.domainOpenConsole(dom, null, 0, { signal: abort.signal, onOpen: () => (opened = true) })) {
      lines.push(...splitter.push(chunk));
      if (lines.some((l) => /Linux version \d/.test(l))) return;
    }
  })();
  while (!opened) await new Promise((r) => setTimeout(r, 50));
  await client.domainResume(dom);
  expect((await client.domainGetState(dom)).state).toBe(VIR_DOMAIN_RUNNING);
  await reading.finally(() => clearTimeout(timer));
  // The first line the stream gave is the kernel's banner (earlyprintk is off: nothing precedes it but firmware).
  expect(lines.find((l) => /Linux version/.test(l))).toMatch(/Linux version \d/);
  await new Promise((r) => setTimeout(r, 1000));
  expect(fs.readFileSync(LOG, 'utf8')).toMatch(/Linux version \d/);
  // The stream was closed by leaving the loop: a second session opens without FORCE.
  const again = client.domainOpenConsole(dom, null, 0)[Symbol.asyncIterator]();
  const next = await Promise.race([again.next(), new Promise((r) => setTimeout(() => r('open'), 3000))]);
  expect(next).not.toBeInstanceOf(LibvirtError);
  await again.return?.();
});

test('GIVEN a shut-off domain WHEN its console is opened THEN libvirt refuses with a LibvirtError', async () => {
  await client.domainDestroy(dom);
  const it = client.domainOpenConsole(dom, null, 0)[Symbol.asyncIterator]();
  await expect(it.next()).rejects.toBeInstanceOf(LibvirtError);
});
