/**
 * Issue 31 defect 12 against the real libvirtd at qemu:///system: the serial console log virtseed renders
 * (src/domain renderDomainXml, `serialLogFile`) keeps the previous boot's output when the domain starts again
 * (before: `<log append='off'>`, emptied at every start). The guest is the test image's kernel booted directly with
 * no root disk: its first console lines (the kernel command line, carrying this boot's number) appear in seconds
 * under TCG, and the domain is destroyed then; no OS boots.
 */
import * as fs from 'node:fs';
import { renderDomainXml, type DomainSpec } from '../../src/domain';
import { bytesToUuid, connect, LibvirtError, VIR_DOMAIN_UNDEFINE_NVRAM, type RemoteLibvirtClient } from '../../src/libvirt';
import { readConsole, testImage } from '../helpers/guest';

jest.setTimeout(300_000);

const NAME = 'vstest-conslog-vm';
const LOG = `/var/log/libvirt/qemu/${NAME}-console.log`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function removeDomain(client: RemoteLibvirtClient): Promise<void> {
  try {
    const dom = await client.domainLookupByName(NAME);
    if (await client.domainIsActive(dom)) await client.domainDestroy(dom);
    await client.domainUndefine(dom, VIR_DOMAIN_UNDEFINE_NVRAM);
  } catch (e) {
    if (!(e instanceof LibvirtError)) throw e;
  }
}

describe('the console log across starts', () => {
  let client: RemoteLibvirtClient;
  let kernel: string;
  /** The domain's UUID once defined: each boot redefines the same domain. */
  let uuid: string | undefined;

  const spec = (boot: number): DomainSpec => ({
    name: NAME,
    ...(uuid ? { uuid } : {}),
    type: 'qemu',
    memoryMiB: 128,
    vcpu: 1,
    os: { kernel, cmdline: `console=ttyS0,115200 panic=-1 vstest-console-boot=${boot}` },
    disks: [],
    interfaces: [],
    serialLogFile: LOG,
  });

  /** Defines the domain for boot `boot`, starts it, waits until its console shows the boot's number, destroys it. */
  async function bootOnce(boot: number): Promise<void> {
    const dom = await client.domainDefineXml(renderDomainXml(spec(boot)));
    uuid = bytesToUuid(dom.uuid);
    await client.domainCreate(dom);
    const end = Date.now() + 120_000;
    while (!readConsole(LOG).includes(`vstest-console-boot=${boot}`)) {
      if (Date.now() > end)
        throw new Error(`boot ${boot} wrote no command line to ${LOG} in 120 s; the log:\n${readConsole(LOG).slice(-3000)}`);
      await sleep(500);
    }
    await client.domainDestroy(dom);
  }

  beforeAll(async () => {
    kernel = testImage().kernel;
    client = await connect('qemu:///system');
    await removeDomain(client);
    fs.rmSync(LOG, { force: true });
  });

  afterAll(async () => {
    if (!client) return;
    await removeDomain(client);
    fs.rmSync(LOG, { force: true });
    await client.close();
  });

  it('GIVEN a domain that booted once WHEN it starts again THEN its console log holds both boots, the first one first', async () => {
    await bootOnce(1);
    await bootOnce(2);
    const text = readConsole(LOG);
    const [first, second] = [text.indexOf('vstest-console-boot=1'), text.indexOf('vstest-console-boot=2')];
    if (first < 0 || second < first) throw new Error(`the console log does not hold boot 1 then boot 2:\n${text.slice(-3000)}`);
    expect(first).toBeLessThan(second);
  });
});
