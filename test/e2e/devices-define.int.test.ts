/**
 * The devices of issue 22 through Terraform without a guest OS (fast): a domain with every device kind and the
 * escape hatch defined (never started: it has host devices and a macvtap NIC), checked by libvirt's own schema
 * and a plan that finds no drift; the escape hatch refused at plan when libvirt's schema refuses it, and its
 * device put back after it was removed outside Terraform; and a tiny running domain (no disk, SeaBIOS only) for
 * what needs QEMU: the VNC display answering RFB on localhost at its `display_uri`, the swtpm state created and
 * removed with the domain, and live changes (title, metadata, on_crash, display password) applied without a
 * restart (same QEMU process: the domain id stays). NIC bandwidth is defined only: this host's kernel has no sfq
 * qdisc, so libvirt cannot start a guest with it here.
 * Objects are named `vstest-devices-def-…`.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { domainUuid, virshRun } from '../helpers/guest';
import { cleanupNetworksByPrefix, isolatedNetworkHcl } from '../helpers/network';
import { teardown } from '../helpers/teardown';
import { plannedChange, TfWorkdir } from '../helpers/terraform';
import { serverGreeting } from '../helpers/greeting';

jest.setTimeout(900_000);

const PREFIX = 'vstest-devices-def';
const EVERY = `${PREFIX}-every`;
const TINY = `${PREFIX}-tiny`;

let tf: TfWorkdir;

/** The extra devices of the escape hatch (kept on one line: HCL heredoc-free). */
const EXTRA = "<sound model='ich9'/><panic model='isa'/>";

/** A stylesheet as libvirt provider 0.8 users write them: identity, plus one change (the clock in local time). */
const XSLT = `<?xml version="1.0"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output omit-xml-declaration="yes" indent="yes"/>
  <xsl:template match="node()|@*"><xsl:copy><xsl:apply-templates select="node()|@*"/></xsl:copy></xsl:template>
  <xsl:template match="/domain"><xsl:copy><xsl:apply-templates select="node()|@*"/><clock offset="localtime"/></xsl:copy></xsl:template>
</xsl:stylesheet>`;

interface Tiny {
  title: string;
  password: string;
  onCrash: string;
}

function config(extra: string, tiny: Tiny): string {
  return `
${isolatedNetworkHcl('net', `${PREFIX}-net`)}
resource "virtseed_domain" "every" {
  name       = "${EVERY}"
  memory     = 256
  vcpu       = 2
  max_vcpu   = 4
  running    = false
  title       = "Every device"
  description = "line 1\\nline 2"
  metadata    = { owner = "team-a" }
  on_poweroff = "destroy"
  on_crash    = "coredump-destroy"
  boot_devices      = ["hd", "network"]
  boot_menu         = true
  boot_menu_timeout = 3000
  cpu_topology {
    sockets = 2
    cores   = 2
    threads = 1
  }
  disk {
    file    = "/var/lib/libvirt/images/${EVERY}.qcow2"
    cache   = "none"
    io      = "native"
    discard = "unmap"
    serial  = "VSTEST-0001"
  }
  network_interface {
    network = virtseed_network.net.id
    mtu     = 1400
    vlan    = 42
    bandwidth {
      inbound_average  = 1000
      outbound_average = 500
    }
  }
  network_interface {
    direct      = "eth0"
    direct_mode = "bridge"
    model       = "e1000"
    link_state  = "down"
  }
  graphics {
    type     = "vnc"
    password = "secret"
  }
  graphics {
    type   = "spice"
    socket = "/var/lib/libvirt/qemu/${EVERY}-spice.sock"
  }
  video = "qxl"
  tpm {}
  filesystem {
    source = "/srv"
    target = "share"
  }
  filesystem {
    source      = "/srv"
    target      = "share9p"
    driver      = "9p"
    access_mode = "mapped"
    readonly    = true
  }
  rng {}
  watchdog {
    action = "poweroff"
  }
  serial {
    type = "file"
    path = "/var/log/libvirt/qemu/${EVERY}-serial1.log"
  }
  serial {
    type = "tcp"
    port = 4555
  }
  console {
    type = "pty"
  }
  channel {
    name = "org.example.port.0"
  }
  channel {
    name = "com.redhat.spice.0"
    type = "spicevmc"
  }
  input {
    type = "tablet"
  }
  input {
    type = "keyboard"
    bus  = "virtio"
  }
  hostdev {
    type    = "pci"
    address = "0000:01:00.0"
  }
  hostdev {
    type    = "usb"
    address = "1:4"
  }
  xml {
    devices = ${JSON.stringify(extra)}
    xslt    = ${JSON.stringify(XSLT)}
  }
}

resource "virtseed_domain" "tiny" {
  name       = "${TINY}"
  memory     = 64
  type       = "qemu"
  shutdown_timeout = 0
  title      = "${tiny.title}"
  on_crash   = "${tiny.onCrash}"
  metadata   = { step = "${tiny.title}" }
  network_interface {
    network = virtseed_network.net.id
  }
  graphics {
    type     = "vnc"
    password = "${tiny.password}"
  }
  tpm {}
}
`;
}

const TINY0: Tiny = { title: 'tiny', password: 'first', onCrash: 'destroy' };

/** `virsh` output, failing with it on a non-zero exit. */
function virsh(...args: string[]): string {
  const r = spawnSync('virsh', ['-c', 'qemu:///system', ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`virsh ${args.join(' ')} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  teardown({ tf: undefined, prefix: PREFIX });
  cleanupNetworksByPrefix(PREFIX);
  tf = new TfWorkdir('devices-define');
  tf.write(config(EXTRA, TINY0));
  tf.init();
});

afterAll(() => {
  teardown({ tf, prefix: PREFIX, destroy: true, also: () => cleanupNetworksByPrefix(PREFIX) });
});

test('GIVEN extra devices libvirt schema refuses WHEN planned THEN an error on xml.devices quotes the schema and nothing is created', () => {
  tf.write(config("<sound model='bogus'/>", TINY0));
  const plan = tf.plan();
  expect({ code: plan.code, out: plan.out }).toEqual({ code: 1, out: expect.stringMatching(/Not valid against libvirt's domain schema/) });
  expect(plan.out).toMatch(/with virtseed_domain\.every,/);
  expect(plan.out).toMatch(/sound/);
  expect(virshRun('list', '--all', '--name')).not.toContain(EVERY);
});

test('GIVEN a valid device and a <panic> with a model libvirt does not know WHEN planned THEN the error names that element, its place and attribute, and no line of XML the user never wrote', () => {
  tf.write(config("<sound model='ich9'/><panic model='bogus'/>", TINY0));
  const plan = tf.plan();
  const out = plan.out.replace(/\s+/g, ' ');
  expect({ code: plan.code, out }).toEqual({
    code: 1,
    out: expect.stringContaining(
      `<panic model="bogus"/> (element 2 of xml.devices): libvirt's schema does not accept model="bogus" on <panic>.`,
    ),
  });
  expect(out).not.toMatch(/line \d+: element|Relax-NG|sound model="ich9"\/> \(element/);
  expect(virshRun('list', '--all', '--name')).not.toContain(EVERY);
});

test('GIVEN every device kind and the escape hatch WHEN applied THEN libvirt holds each, its own schema validates the definition, and a plan finds no drift', () => {
  tf.write(config(EXTRA, TINY0));
  tf.apply();
  const xml = virsh('dumpxml', '--inactive', EVERY);
  for (const expected of [
    /<title>Every device<\/title>/,
    /<topology sockets='2' dies='1' cores='2' threads='1'\/>/,
    /<bootmenu enable='yes' timeout='3000'\/>/,
    /<on_crash>coredump-destroy<\/on_crash>/,
    /<driver name='qemu' [^>]*cache='none' io='native' discard='unmap'\/>/,
    /<serial>VSTEST-0001<\/serial>/,
    /<mtu size='1400'\/>/,
    /<tag id='42'\/>/,
    /<inbound average='1000'\/>/,
    /<source dev='eth0' mode='bridge'\/>/,
    /<model type='e1000'\/>/,
    /<link state='down'\/>/,
    /<graphics type='vnc' port='-1' autoport='yes' listen='127.0.0.1'>/,
    /<listen type='socket' socket='\/var\/lib\/libvirt\/qemu\/vstest-devices-def-every-spice.sock'\/>/,
    /<model type='qxl'/,
    /<tpm model='tpm-crb'>\s*<backend type='emulator' version='2.0'\/>/,
    /<driver type='virtiofs'\/>/,
    /<memoryBacking>\s*<source type='memfd'\/>\s*<access mode='shared'\/>/,
    /<filesystem type='mount' accessmode='mapped'>/,
    /<backend model='random'>\/dev\/urandom<\/backend>/,
    /<watchdog model='i6300esb' action='poweroff'/,
    /<source mode='bind' host='127.0.0.1' service='4555'\/>/,
    /<target type='virtio' name='org.example.port.0'\/>/,
    /<channel type='spicevmc'>/,
    /<input type='tablet' bus='usb'>/,
    /<input type='keyboard' bus='virtio'>/,
    /<address domain='0x0000' bus='0x01' slot='0x00' function='0x0'\/>/,
    /<address bus='1' device='4'\/>/,
    /<sound model='ich9'>/,
    /<panic model='isa'/,
    /<clock offset='localtime'\/>/,
  ])
    expect(xml).toMatch(expected);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-devices-')), 'every.xml');
  fs.writeFileSync(file, xml);
  const validated = spawnSync('virt-xml-validate', [file, 'domain'], { encoding: 'utf8' });
  expect({ status: validated.status, out: `${validated.stdout}${validated.stderr}`.trim() }).toEqual({
    status: 0,
    out: `${file} validates`,
  });
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`the plan after the apply is not empty (exit ${plan.code}):\n${plan.out}`);
});

test('GIVEN an escape-hatch device removed outside Terraform WHEN planned THEN xml.devices changes back; WHEN applied THEN the device is there again and no drift is left', () => {
  const xml = virsh('dumpxml', '--inactive', '--security-info', EVERY).replace(/\s*<panic model='isa'\/>/, '');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vstest-devices-')), 'edited.xml');
  fs.writeFileSync(file, xml);
  virsh('define', file);
  expect(virsh('dumpxml', '--inactive', EVERY)).not.toMatch(/<panic/);
  const change = plannedChange(tf.planJson(), 'virtseed_domain.every');
  expect(change.before?.xml).toEqual(expect.objectContaining({ devices: '<sound model="ich9"/>' }));
  expect(change.after?.xml).toEqual(expect.objectContaining({ devices: EXTRA }));
  tf.apply();
  expect(virsh('dumpxml', '--inactive', EVERY)).toMatch(/<panic model='isa'/);
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`the plan after restoring is not empty (exit ${plan.code}):\n${plan.out}`);
});

test('GIVEN a running domain created WHEN its live and persistent XML are read THEN neither holds the create-pending mark', () => {
  expect(virsh('dumpxml', TINY)).toMatch(/<virtseed:instance/);
  expect(virsh('dumpxml', TINY)).not.toMatch(/virtseed-create-pending/);
  expect(virsh('dumpxml', '--inactive', TINY)).not.toMatch(/virtseed-create-pending/);
});

test('GIVEN a running domain with VNC and a TPM WHEN applied THEN display_uri names a localhost port that answers RFB 003.008 and swtpm keeps its state for the domain', async () => {
  const tiny = tf.resource('virtseed_domain.tiny') as { graphics: { display_uri: string }[] };
  const uri = tiny.graphics[0].display_uri;
  expect(uri).toMatch(/^vnc:\/\/127\.0\.0\.1:59\d\d$/);
  expect(await serverGreeting(Number(uri.split(':').pop()))).toBe('RFB 003.008\n');
  expect(fs.existsSync(`/var/lib/libvirt/swtpm/${domainUuid(TINY)}/tpm2`)).toBe(true);
});

test('GIVEN title, metadata, on_crash and display password changed WHEN planned THEN each is live; WHEN applied THEN the running domain has them with the same QEMU process', () => {
  const id = virsh('domid', TINY).trim();
  tf.write(config(EXTRA, { title: 'tiny2', password: 'second', onCrash: 'preserve' }));
  const change = plannedChange(tf.planJson(), 'virtseed_domain.tiny').after as {
    change_impact: string;
    change_impacts: Record<string, string>;
  };
  expect(change.change_impact).toBe('live');
  expect(change.change_impacts).toEqual({
    title: 'live',
    metadata: 'live',
    on_crash: 'live',
    'graphics[0].password': 'live',
  });
  tf.apply();
  const live = virsh('dumpxml', '--security-info', TINY);
  expect(live).toContain('<title>tiny2</title>');
  expect(live).toMatch(/<vsuser:entry key="step">tiny2<\/vsuser:entry>/);
  expect(live).toContain('<on_crash>preserve</on_crash>');
  expect(live).toMatch(/passwd='second'/);
  expect(virsh('domid', TINY).trim()).toBe(id);
  const plan = tf.plan();
  if (plan.code !== 0) throw new Error(`the plan after the live changes is not empty (exit ${plan.code}):\n${plan.out}`);
});

test('GIVEN the domains WHEN destroyed THEN the TPM state is removed with the domain', () => {
  const uuid = domainUuid(TINY);
  tf.destroy();
  expect(fs.existsSync(`/var/lib/libvirt/swtpm/${uuid}`)).toBe(false);
});
