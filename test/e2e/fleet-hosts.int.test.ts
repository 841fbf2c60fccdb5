/**
 * The multi-host harness (test/helpers/hosts.ts) and resources on named hosts through real terraform (no guests):
 * - three privileged libvirtd daemons, each in its own network and mount namespace, answer over TLS on their own
 *   addresses only; each has its own pool and isolated network and sees only its own objects (not the system
 *   daemon's, not its neighbours'); no namespace has a default route, libvirtd and migrations use the namespace's
 *   address only and the guest networks forward nowhere, so test traffic stays inside; a stopped host refuses
 *   connections and comes back;
 * - provider `host` blocks: volumes on h1 and h2 land there; moving one to h3 is planned as a replacement and
 *   leaves it on h3 only; with h2 stopped a plan refreshes the rest and warns once naming h2; destroy empties the
 *   hosts;
 * - the constructs: a HostPool and three VMs placed in a loop with anti-affinity, synthesized and applied: one VM
 *   per host, the base image uploaded once per host (one for_each volume), the next plan empty, destroy empties;
 * - docs/guides/fleet.md's first steps as the guide writes them (its provider block with two named hosts and its
 *   placements with their domain, read from the Markdown; the hosts' example URIs become h1's and h2's): planned,
 *   the two anti-affine VMs are placed on different hosts among those named, known at plan, the domain on web1's;
 * - teardown leaves no namespace, interface, process or folder.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Testing } from 'cdktf';
import { BaseImage, HostPool, NetworkAttachment, VirtualMachine } from '../../constructs';
import { connect, LibvirtConnectError } from '../../src/libvirt';
import { TestHosts } from '../helpers/hosts';
import { docBlock } from '../helpers/doc-paths';
import { plannedChange, TfWorkdir } from '../helpers/terraform';

jest.setTimeout(180_000);

const PREFIX = 'vstest-fhst-';
const FLEET_GUIDE = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'guides', 'fleet.md'), 'utf8');

describe('three libvirt hosts on this machine', () => {
  const hosts = new TestHosts({ label: 'hst', count: 3, subnet: '10.251.24', prefix: PREFIX });

  beforeAll(() => hosts.setup());
  afterAll(() => hosts.teardown());

  test('GIVEN the hosts WHEN asked over TLS THEN each answers on its own address with its own pool and network only', () => {
    for (const h of hosts.hosts) {
      expect(hosts.virsh(h.index, ['capabilities'])).toContain(`<uuid>${h.uuid}</uuid>`);
      expect(hosts.virsh(h.index, ['pool-list', '--all', '--name']).trim()).toBe(hosts.pool);
      expect(hosts.virsh(h.index, ['net-list', '--all', '--name']).trim()).toBe(hosts.network);
      expect(hosts.virsh(h.index, ['pool-dumpxml', hosts.pool])).toContain(`<path>${h.poolDir}</path>`);
    }
  });

  test('GIVEN the hosts WHEN their namespaces are inspected THEN traffic has nowhere to go but the test bridge: no default route, libvirtd and migrations on the namespace address only, guest networks without forward mode', () => {
    const sh = (cmd: string, args: string[]) => {
      const r = spawnSync(cmd, args, { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
      return r.stdout;
    };
    for (const h of hosts.hosts) {
      // Only the routes of directly attached links (the test bridge's /24, the guest network's own bridge): no gateway.
      const routes = sh('ip', ['-n', h.netns, 'route', 'show']).trim().split('\n');
      expect({ host: h.name, routes: routes.filter((r) => / via |^default/.test(r) || !/ scope link /.test(r)) }).toEqual({
        host: h.name,
        routes: [],
      });
      expect(routes).toContainEqual(expect.stringMatching(new RegExp(`^${h.address.replace(/\d+$/, '0')}/24 dev eth0 `)));
      const listening = sh('ip', ['netns', 'exec', h.netns, 'ss', '-Hltn'])
        .split('\n')
        .map((l) => l.trim().split(/\s+/)[3])
        .filter((a): a is string => !!a && a.endsWith(':16514'));
      expect({ host: h.name, listening }).toEqual({ host: h.name, listening: [`${h.address}:16514`] });
      expect(fs.readFileSync(path.join(h.dir, 'etc', 'qemu.conf'), 'utf8')).toContain(`migration_address = "${h.address}"`);
      expect(hosts.virsh(h.index, ['net-dumpxml', hosts.network])).not.toContain('<forward');
    }
    // The bridge's only route is its own /24: the root namespace does not send the hosts' traffic elsewhere.
    expect(sh('ip', ['route', 'show', 'dev', hosts.bridge]).trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^${hosts.gateway.replace(/\d+$/, '0')}/24 `)),
    ]);
  });

  test('GIVEN a domain defined on h1 WHEN the other hosts and the system daemon list theirs THEN only h1 has it', () => {
    const name = `${PREFIX}hst-only-h1`;
    const xml = `<domain type='qemu'><name>${name}</name><memory unit='MiB'>64</memory><os><type arch='x86_64'>hvm</type></os></domain>`;
    expect(hosts.define(1, xml)).toContain(name);
    try {
      expect([hosts.domains(1), hosts.domains(2), hosts.domains(3)]).toEqual([[name], [], []]);
      const system = spawnSync('virsh', ['-c', 'qemu:///system', 'list', '--all', '--name'], { encoding: 'utf8' }).stdout;
      expect(system).not.toContain(name);
    } finally {
      hosts.virsh(1, ['undefine', name]);
    }
  });

  test('GIVEN h2 stopped WHEN connecting THEN the connection is refused, and after start it answers again', async () => {
    await hosts.stop(2);
    let failure: unknown;
    try {
      await (await connect(hosts.host(2).uri)).close();
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeInstanceOf(LibvirtConnectError);
    expect((failure as LibvirtConnectError).step).toBe('connect');
    await hosts.start(2);
    expect(hosts.virsh(2, ['pool-list', '--name']).trim()).toBe(hosts.pool);
  });

  describe('volumes on named hosts through terraform', () => {
    let tf: TfWorkdir;
    const volume = (id: string, host: string) =>
      `resource "virtseed_volume" "${id}" {\n  host     = "${host}"\n  pool     = "${hosts.pool}"\n  name     = "${PREFIX}${id}.qcow2"\n  capacity = 1048576\n}\n`;
    const write = (body: string) => tf.write(body, hosts.providerBlock());

    beforeAll(() => {
      tf = new TfWorkdir('fleet-hosts');
      write('');
      tf.init();
    });
    afterAll(() => tf.dispose());

    test("GIVEN volumes on h1 and h2 WHEN applied THEN each is in its host's pool and h3 has none", () => {
      write(volume('a', 'h1') + volume('b', 'h2'));
      tf.apply();
      expect([hosts.volumes(1), hosts.volumes(2), hosts.volumes(3)]).toEqual([[`${PREFIX}a.qcow2`], [`${PREFIX}b.qcow2`], []]);
    });

    test('GIVEN volume a moved to h3 WHEN applied THEN its plan replaces it and only h3 has it', () => {
      write(volume('a', 'h3') + volume('b', 'h2'));
      // The apply prints the plan it carries out (one terraform run for both facts).
      expect(tf.apply()).toMatch(/~ host +?= "h1" -> "h3" # forces replacement/);
      expect([hosts.volumes(1), hosts.volumes(2), hosts.volumes(3)]).toEqual([[], [`${PREFIX}b.qcow2`], [`${PREFIX}a.qcow2`]]);
    });

    test('GIVEN h2 stopped WHEN planned THEN the plan succeeds with one warning naming h2 and no change', async () => {
      await hosts.stop(2);
      try {
        const r = tf.plan();
        expect({ code: r.code, out: r.out }).toEqual({
          code: 0,
          out: expect.stringContaining(`Warning: Not refreshed: host h2 (${hosts.host(2).uri}) does not answer`),
        });
        expect(r.out.match(/Warning: Not refreshed/g)).toHaveLength(1);
      } finally {
        await hosts.start(2);
      }
    });

    test("GIVEN the volumes WHEN destroyed THEN every host's pool is empty", () => {
      tf.destroy();
      expect([hosts.volumes(1), hosts.volumes(2), hosts.volumes(3)]).toEqual([[], [], []]);
    });
  });

  describe('a fleet from the constructs', () => {
    let tf: TfWorkdir;
    const imageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-fhst-image-'));
    afterAll(() => {
      tf?.dispose();
      fs.rmSync(imageDir, { recursive: true, force: true });
    });

    test('GIVEN a HostPool and three VMs placed in a loop WHEN synthesized and applied THEN one per host, one base upload per host; destroy empties them', () => {
      // No VM runs, so the base image need not boot: a small empty qcow2 stands in for the test image (its size is
      // not what is tested; the test image would be uploaded three times).
      const image = path.join(imageDir, 'base.qcow2');
      const made = spawnSync('qemu-img', ['create', '-q', '-f', 'qcow2', image, '64M'], { encoding: 'utf8' });
      if (made.status !== 0) throw new Error(`qemu-img create ${image} exited ${made.status}: ${made.stdout}${made.stderr}`);
      const json = Testing.synthScope((stack) => {
        const pool = new HostPool(stack, 'hosts', { hosts: hosts.hosts.map((h) => ({ name: h.name, uri: h.uri })) });
        for (let i = 1; i <= 3; i++)
          new VirtualMachine(stack, `vm${i}`, {
            name: `${PREFIX}c${i}`,
            pool: hosts.pool,
            baseImage: BaseImage.fromFile(image),
            memoryMiB: 128,
            running: false,
            networks: [NetworkAttachment.userMode()],
            placement: pool.place({ antiAffinity: 'c' }),
          });
      });
      tf = new TfWorkdir('fleet-constructs');
      fs.writeFileSync(path.join(tf.dir, 'main.tf.json'), json);
      tf.init();
      tf.apply();
      const domains = hosts.hosts.map((h) => hosts.domains(h.index));
      expect(domains.flat().sort()).toEqual([`${PREFIX}c1`, `${PREFIX}c2`, `${PREFIX}c3`]);
      expect(domains.map((d) => d.length)).toEqual([1, 1, 1]);
      for (const h of hosts.hosts) {
        const vols = hosts.volumes(h.index);
        expect(vols).toHaveLength(2); // the image's base volume and the VM's root
        expect(vols.filter((v) => v.endsWith('-root'))).toEqual([`${hosts.domains(h.index)[0]}-root`]);
      }
      expect(tf.plan()).toMatchObject({ code: 0 });
      tf.destroy();
      for (const h of hosts.hosts) expect([hosts.domains(h.index), hosts.volumes(h.index)]).toEqual([[], []]);
    });
  });

  describe("docs/guides/fleet.md's first steps", () => {
    let tf: TfWorkdir;
    afterAll(() => tf?.dispose());

    test("GIVEN the guide's provider block and placements as written, its hosts' URIs this machine's WHEN planned THEN web1 and web2 go to different named hosts, known at plan, and the domain to web1's", () => {
      const provider = docBlock(FLEET_GUIDE, 'fleet-hosts', 'hcl', 'docs/guides/fleet.md')
        .replace('qemu+tls://kvm1.example.net/system', hosts.host(1).uri)
        .replace('qemu+tls://kvm2.example.net/system', hosts.host(2).uri);
      expect(provider).not.toContain('example.net');
      const placements = docBlock(FLEET_GUIDE, 'fleet-placement', 'hcl', 'docs/guides/fleet.md');
      tf = new TfWorkdir('fleet-guide');
      tf.write(`${placements}\n`, provider);
      tf.init();
      const plan = tf.planJson();
      const host = (address: string) => plannedChange(plan, address).after?.host;
      expect({ web1: host('virtseed_placement.web1'), web2: host('virtseed_placement.web2') }).toEqual({
        web1: expect.stringMatching(/^kvm[12]$/),
        web2: expect.stringMatching(/^kvm[12]$/),
      });
      expect(host('virtseed_placement.web1')).not.toBe(host('virtseed_placement.web2'));
      expect(host('virtseed_domain.web1')).toBe(host('virtseed_placement.web1'));
    });
  });

  describe('teardown', () => {
    test('GIVEN the hosts WHEN torn down THEN no namespace, interface, process or folder is left', async () => {
      await hosts.teardown();
      expect(hosts.leftovers()).toEqual([]);
      const netns = spawnSync('ip', ['netns', 'list'], { encoding: 'utf8' }).stdout;
      expect(netns).not.toMatch(/vstest-hst-/);
    });
  });
});
