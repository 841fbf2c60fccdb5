/**
 * What the conformance generator (./generate.ts) needs to know of each resource beyond its field table: sample
 * values of free-form attributes, the attributes this machine cannot take (each with why), and the combinations
 * libvirt or the provider refuse, repaired. Pure data and functions. Generated domains are defined and never started
 * (`running = false`): the suite boots no guest. The backup policies back up one fixed domain that runs with no OS
 * (RUNNING_DOMAIN_HCL: QEMU starts in a second and SeaBIOS finds nothing to boot). Networks have no forward mode (the
 * test machine's rule).
 */
import {
  BACKUP_POLICY_FIELDS,
  CLOUDINIT_SEED_FIELDS,
  DOMAIN_FIELDS,
  IGNITION_FIELDS,
  NETWORK_FIELDS,
  POOL_FIELDS,
  SNAPSHOT_FIELDS,
  VOLUME_FIELDS,
} from '../../src/fields';
import { asWritten } from '../../provider/src/resources/private/domain-as-written';
import type { DomainState } from '../../provider/src/resources/private/model';
import { expr, type Attrs, type Context, type KindSpec } from './generate';

const HOST_SKIP = "needs the provider's `host` blocks (placement tests cover it)";

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Name of instance `i` of a kind: `<prefix>-<tag><i>`. */
export function objectName(ctx: Context, tag: string, i: number): string {
  return `${ctx.prefix}-${tag}${i}`;
}

export const POOL_KIND: KindSpec = {
  type: 'virtseed_pool',
  fields: POOL_FIELDS.fields,
  count: 3,
  base: (ctx, i) => ({
    name: objectName(ctx, 'p', i),
    ...(i === 0 ? { type: 'dir', active: true } : {}),
  }),
  samples: {
    path: (ctx, i) => [`/var/lib/libvirt/images/${objectName(ctx, 'p', i)}`],
  },
  skip: {
    host: HOST_SKIP,
    source_host: 'set by the repair for `netfs` only',
    source_dir: 'set by the repair for `netfs` only',
    source_name: 'set by the repair for `logical` only',
    source_devices: '`logical` with devices would build a volume group on a host disk',
    source_format: 'set by the repair from `type`',
  },
  fix: (a, ctx, i) => {
    const type = str(a.type) || 'dir';
    if (type !== 'logical') a.path = `/var/lib/libvirt/images/${objectName(ctx, 'p', i)}`;
    else delete a.path;
    if (type !== 'dir') a.active = false; // no LVM volume group or NFS server on the test machine
    if (type === 'netfs')
      Object.assign(a, { source_host: '127.0.0.1', source_dir: `/srv/${objectName(ctx, 'nfs', i)}`, source_format: 'nfs' });
    if (type === 'logical') Object.assign(a, { source_name: objectName(ctx, 'vg', i), source_format: 'lvm2' });
  },
  importId: (v) => str(v.name),
};

export const VOLUME_KIND: KindSpec = {
  type: 'virtseed_volume',
  fields: VOLUME_FIELDS.fields,
  count: 5,
  base: (ctx, i) => ({
    name: objectName(ctx, 'v', i),
    pool: i % 2 === 0 ? 'default' : expr('virtseed_pool.c0.name'),
  }),
  samples: {
    capacity: () => [1048576, 4194304],
    source: (ctx) => [ctx.fixtures.sourceFile ?? ''],
    backing_volume: () => [expr('virtseed_volume.c0.id')],
    sha256: (ctx) => [ctx.fixtures.sourceSha256 ?? ''],
  },
  skip: {
    host: HOST_SKIP,
    checksum_url: 'needs a published, signed checksum file (test/e2e/verified-image covers it)',
    restore_from: 'needs a backup of a running domain (test/ops/backups.int.test.ts covers it)',
    restore_disk: 'with `restore_from` only',
    checksum_algorithm: 'with `checksum_url` only',
    signature_url: 'with `checksum_url` only',
    signature_key: 'with `checksum_url` only',
  },
  fix: (a, _ctx, i) => {
    if (i === 0) {
      // The backing volume of the others: empty, qcow2.
      for (const k of ['source', 'sha256', 'backing_volume']) delete a[k];
      a.format = 'qcow2';
    }
    if (a.backing_volume !== undefined) {
      delete a.source;
      delete a.sha256;
      a.format = 'qcow2';
    }
    if (a.source === undefined) delete a.sha256;
    if (a.source === undefined && a.backing_volume === undefined && a.capacity === undefined) a.capacity = 1048576;
    // The raw source file is 1 MiB: a capacity of its size or more.
    if (a.source !== undefined && a.capacity !== undefined) a.capacity = 4194304;
    if (a.source !== undefined && a.format === 'qcow2') a.format = 'raw';
  },
  change: { capacity: (c) => (typeof c === 'number' ? c * 2 : 8388608) },
  importId: (v) => str(v.id),
  importIgnore: ['source', 'sha256', 'backing_volume'],
};

export const SEED_KIND: KindSpec = {
  type: 'virtseed_cloudinit_seed',
  fields: CLOUDINIT_SEED_FIELDS.fields,
  count: 3,
  base: (ctx, i) => ({ name: `${objectName(ctx, 's', i)}.iso`, pool: 'default' }),
  samples: {
    instance_id: (_ctx, i) => [`iid-conform-${i}`, `iid-conform-${i}b`],
    hostname: (_ctx, i) => [`host${i}`, `node-${i}`],
    fqdn: (_ctx, i) => [`host${i}.conform.test`],
    public_keys: () => [['ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGR0ZXN0a2V5Zm9yY29uZm9ybWFuY2VzdWl0ZTAwMDAw conform']],
    meta_data: (_ctx, i) => [JSON.stringify({ zone: `z${i}` })],
    cloud_config: (_ctx, i) => [JSON.stringify({ timezone: 'UTC', runcmd: [`echo ${i}`] })],
    user_data: (_ctx, i) => [`#cloud-config\nfinal_message: "conform ${i}"\n`],
    user_data_base64: () => [Buffer.from('#!/bin/sh\necho conform\n').toString('base64')],
    environment: (_ctx, i) => [{ CONFORM: `v${i}` }],
    network_config: () => ['version: 2\nethernets:\n  eth0:\n    dhcp4: true\n'],
    vendor_data: () => ['#cloud-config\n{}\n'],
    'user_data_part.content': (_ctx, i) => [`#cloud-config\nbootcmd: ["echo part ${i}"]\n`],
    'user_data_part.content_type': () => ['text/cloud-config'],
    'user_data_part.filename': (_ctx, i) => [`part${i}.yaml`],
    'user_data_part.merge_type': () => ['list(append)+dict(recurse_array)+str()'],
    'file.path': (_ctx, i) => [`/etc/conform-${i}.conf`],
    'file.content': (_ctx, i) => [`value ${i}\n`],
    'file.content_base64': () => [Buffer.from('bytes').toString('base64')],
    'file.owner': () => ['root:root'],
    'file.permissions': () => ['0644'],
    'mount.device': (_ctx, i) => [`vd${'bcdef'[i % 5]}`],
    'mount.mount_point': (_ctx, i) => [`/mnt/d${i}`],
    'mount.symlink': (_ctx, i) => [`/dev/disk/virtseed/d${i}`],
    'mount.fs_type': () => ['ext4'],
    'mount.options': () => ['defaults,nofail'],
    'network.version': () => [1, 2],
    'network.interface.name': (_ctx, i) => [`eth${i}`],
    'network.interface.mac': (_ctx, i) => [`52:54:00:c0:00:${(16 + i).toString(16)}`],
    'network.interface.addresses': (_ctx, i) => [[`192.168.${200 + (i % 50)}.10/24`]],
    'network.interface.gateway4': (_ctx, i) => [`192.168.${200 + (i % 50)}.1`],
    'network.interface.gateway6': () => ['fd00::1'],
    'network.interface.nameservers': () => [['192.0.2.53']],
    'network.interface.search': () => [['conform.test']],
    'network.interface.mtu': () => [1400],
  },
  skip: {
    host: HOST_SKIP,
    'file.source': 'a local file read at plan; covered by test/e2e/seed-plan',
  },
  fix: (a) => {
    if (a.user_data !== undefined) delete a.user_data_base64;
    if (a.user_data_base64 !== undefined) {
      // A script replaces all other user-data: alone.
      for (const k of ['cloud_config', 'user_data_part', 'file', 'mount', 'environment', 'merge_overwrite', 'fqdn']) delete a[k];
    }
    if (a.network !== undefined) delete a.network_config;
    if (a.format === 'configdrive' && a.network_config !== undefined)
      a.network_config = JSON.stringify({
        links: [{ id: 'eth0', type: 'phy', ethernet_mac_address: '52:54:00:c0:00:01' }],
        networks: [],
        services: [],
      });
    for (const f of (a.file as Attrs[] | undefined) ?? []) {
      if (f.content !== undefined) delete f.content_base64;
      else if (f.content_base64 === undefined) f.content = 'x\n';
    }
    // A part's `content` or its write-only twin must be given (the generator never writes a twin).
    for (const part of (a.user_data_part as Attrs[] | undefined) ?? [])
      if (part.content === undefined) part.content = '#cloud-config\n{}\n';
    for (const m of (a.mount as Attrs[] | undefined) ?? [])
      if (m.mount_point === undefined && m.symlink === undefined) m.mount_point = '/mnt/x';
    const net = a.network as Attrs | undefined;
    if (net && !Array.isArray(net.interface)) net.interface = [{ name: 'eth0', dhcp4: true }];
  },
};

export const IGNITION_KIND: KindSpec = {
  type: 'virtseed_ignition',
  fields: IGNITION_FIELDS.fields,
  count: 2,
  base: (ctx, i) => ({ name: `${objectName(ctx, 'ign', i)}.ign`, pool: 'default' }),
  samples: {
    content: (_ctx, i) => [
      expr(
        `jsonencode({ ignition = { version = "3.3.0" }, storage = { files = [{ path = "/etc/conform-${i}", contents = { source = "data:,${i}" } }] } })`,
      ),
      expr(`jsonencode({ ignition = { version = "3.4.0" } })`),
    ],
  },
  skip: { host: HOST_SKIP },
  fix: (a, _ctx, i) => {
    // `content` or its write-only twin must be given (the generator never writes a twin).
    if (a.content === undefined)
      a.content = expr(`jsonencode({ ignition = { version = "3.3.0" }, passwd = { users = [{ name = "c${i}" }] } })`);
  },
};

export const NETWORK_KIND: KindSpec = {
  type: 'virtseed_network',
  fields: NETWORK_FIELDS.fields,
  count: 2,
  base: (ctx, i) => ({ name: objectName(ctx, 'n', i), mode: 'none' }),
  samples: {
    bridge: (ctx, i) => [`vsc${(ctx.octets[i] ?? 0).toString(16)}br${i}`],
    domain: (_ctx, i) => [`n${i}.conform.test`],
    mtu: () => [1400, 9000],
    'ip.address': (ctx, i) => [`10.213.${ctx.octets[Math.floor(i / 2)] ?? 0}.1/24`],
    'ip.dhcp_range.start': () => ['x'],
    'ip.dhcp_range.end': () => ['x'],
    'dhcp_host.mac': (_ctx, i) => [`52:54:00:c1:00:${(16 + i).toString(16)}`],
    'dhcp_host.hostname': (_ctx, i) => [`guest${i}`],
    'dhcp_host.ip': () => ['x'],
    'dns_host.ip': () => ['x'],
    'dns_host.hostnames': (_ctx, i) => [[`dns${i}.conform.test`]],
  },
  skip: {
    host: HOST_SKIP,
    mode: 'no forward mode on the test machine (guests never send traffic off it): `none` only',
    forward_dev: 'with a forward mode only',
  },
  fix: (a, ctx, i) => {
    const octet = ctx.octets[i] ?? 0;
    a.ip = [{ address: `10.213.${octet}.1/24`, dhcp_range: [{ start: `10.213.${octet}.100`, end: `10.213.${octet}.199` }] }];
    ((a.dhcp_host as Attrs[] | undefined) ?? []).forEach((h, k) => {
      h.ip = `10.213.${octet}.${20 + k}`;
      if (h.mac === undefined && h.hostname === undefined)
        h.mac = `52:54:00:c1:${octet.toString(16).padStart(2, '0')}:${(16 + k).toString(16)}`;
    });
    ((a.dns_host as Attrs[] | undefined) ?? []).forEach((h, k) => {
      h.ip = `10.213.${octet}.${50 + k}`;
      h.hostnames = [`dns${k}.n${i}.conform.test`];
    });
  },
  importId: (v) => str(v.name),
};

/** Each domain uses volume `c(1 + i % 3)`, seed `c(1 + i % 2)` or Ignition config `c1`, and network `c(i % 2)`. */
export const DOMAIN_KIND: KindSpec = {
  type: 'virtseed_domain',
  fields: DOMAIN_FIELDS.fields,
  count: 7,
  base: (ctx, i) => ({ name: objectName(ctx, 'd', i), running: false, wait_for: 'none', type: 'qemu' }),
  samples: {
    memory: () => [128, 192],
    max_memory: () => [256],
    vcpu: () => [1, 2],
    max_vcpu: () => [2, 4],
    kernel: (ctx) => [ctx.fixtures.kernel ?? '/boot/vmlinuz'],
    initrd: (ctx) => [ctx.fixtures.initrd ?? '/boot/initrd.img'],
    cmdline: () => ['console=ttyS0 quiet'],
    cloudinit_seed_id: (_ctx, i) => [expr(`virtseed_cloudinit_seed.c${1 + (i % 2)}.id`)],
    ignition_id: () => [expr('virtseed_ignition.c1.id')],
    instance_id: (_ctx, i) => [`iid-dom-${i}`, `iid-dom-${i}b`],
    shutdown_timeout: () => [30, 90],
    wait_timeout: () => [300, 900],
    snapshot_keep: () => [1, 3],
    anti_affinity: (_ctx, i) => [`group-${i % 2}`],
    title: (_ctx, i) => [`conform domain ${i}`, `retitled ${i}`],
    description: (_ctx, i) => [`generated configuration ${i}\nsecond line`],
    metadata: (_ctx, i) => [{ owner: `conform-${i}`, note: 'tab\there' }],
    boot_devices: () => [
      ['hd', 'cdrom'],
      ['network', 'hd'],
    ],
    boot_menu_timeout: () => [3000],
    'disk.volume_id': (_ctx, i) => [expr(`virtseed_volume.c${1 + (i % 3)}.id`)],
    'disk.file': (ctx) => [ctx.fixtures.diskFile ?? ''],
    'disk.target': () => ['vdc', 'sdd'],
    'disk.serial': (_ctx, i) => [`CONF-${i}`],
    'disk.rotation_rate': () => [1, 7200],
    'network_interface.network': (_ctx, i) => [expr(`virtseed_network.c${i % 2}.id`)],
    'network_interface.mac': (_ctx, i) => [`52:54:00:c2:00:${(16 + i).toString(16)}`],
    'network_interface.direct': () => ['eth0'],
    'network_interface.mtu': () => [1400],
    'network_interface.bandwidth.inbound_average': () => [1000],
    'network_interface.bandwidth.inbound_peak': () => [2000],
    'network_interface.bandwidth.inbound_burst': () => [512],
    'network_interface.bandwidth.outbound_average': () => [800],
    'network_interface.bandwidth.outbound_peak': () => [1600],
    'network_interface.bandwidth.outbound_burst': () => [256],
    'cpu_topology.sockets': () => [1],
    'cpu_topology.cores': () => [1],
    'cpu_topology.threads': () => [1],
    'cpu_topology.dies': () => [1],
    'graphics.listen': () => ['127.0.0.1'],
    'graphics.socket': (ctx, i) => [`/tmp/${ctx.prefix}-g${i}.sock`],
    'graphics.port': (_ctx, i) => [5990 + i],
    'graphics.password': () => ['s3cret'],
    'filesystem.source': (ctx) => [ctx.fixtures.shareDir ?? '/tmp'],
    'filesystem.target': (_ctx, i) => [`share${i}`],
    'rng.source': () => ['/dev/urandom'],
    'rng.rate_bytes': () => [1024],
    'rng.rate_period': () => [2000],
    'serial.path': (ctx, i) => [`/tmp/${ctx.prefix}-serial${i}.log`],
    'serial.host': () => ['127.0.0.1'],
    'serial.port': (_ctx, i) => [24400 + i],
    'console.path': (ctx, i) => [`/tmp/${ctx.prefix}-console${i}.log`],
    'console.host': () => ['127.0.0.1'],
    'console.port': (_ctx, i) => [24500 + i],
    'channel.name': (_ctx, i) => [`org.conform.port.${i}`],
    'channel.path': (ctx, i) => [`/var/lib/libvirt/qemu/channel/target/${ctx.prefix}-ch${i}`],
    'xml.devices': () => ["<sound model='ich6'/>"],
    'xml.xslt': () => [
      '<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"><xsl:template match="@*|node()"><xsl:copy><xsl:apply-templates select="@*|node()"/></xsl:copy></xsl:template></xsl:stylesheet>',
    ],
  },
  skip: {
    host: HOST_SKIP,
    type: '`kvm` needs /dev/kvm; fixed to `qemu` (TCG)',
    running: 'the suite boots no guest: fixed to false',
    wait_for: 'waits for a running guest: fixed to `none`',
    hostdev: 'passes a host device through: none to spare on the test machine (test/e2e/devices-define covers its XML)',
    'network_interface.vlan': 'refused at define on a plain Linux bridge (the only kind here)',
    'network_interface.user': 'set by the repair (one NIC kind per element)',
    'network_interface.restrict': 'with `user` only; set by the repair',
    'network_interface.direct_mode': 'with `direct` only; set by the repair',
  },
  fix: (a, ctx, i) => {
    const n = (x: unknown, d: number) => (typeof x === 'number' ? x : d);
    if (n(a.max_memory, 0) < n(a.memory, 0)) a.max_memory = a.memory ?? 128;
    if (a.max_vcpu !== undefined && n(a.max_vcpu, 1) < n(a.vcpu, 1)) a.max_vcpu = a.vcpu ?? 1;
    const topo = a.cpu_topology as Attrs | undefined;
    if (topo) Object.assign(topo, { sockets: n(a.max_vcpu, n(a.vcpu, 1)), dies: 1, cores: 1, threads: 1 });
    if (a.secure_boot === true) a.firmware = 'efi';
    if (a.on_reboot === 'destroy' && a.on_poweroff === 'restart') a.on_poweroff = 'destroy';
    if (a.kernel === undefined) {
      delete a.initrd;
      delete a.cmdline;
    } else delete a.boot_devices;
    if (a.boot_menu !== true) delete a.boot_menu_timeout;
    if (a.cloudinit_seed_id !== undefined) delete a.ignition_id;
    if (a.cpu_mode === 'custom') delete a.cpu_mode; // needs a CPU model the table has no attribute for
    if (a.cpu_mode === 'host-passthrough') a.cpu_mode = 'maximum'; // needs KVM (refused at plan for `qemu`)
    if (i === 0 && a.disk === undefined) a.disk = [{}];
    // Only domain 0 has a writable qcow2 disk: snapshot_before elsewhere is refused at plan (no writable disk) or at the
    // first plan that changes the domain (a writable raw disk).
    if (i !== 0) delete a.snapshot_before;
    // One disk per element kind: the first a volume, others a file; targets unique.
    ((a.disk as Attrs[] | undefined) ?? []).forEach((d, k) => {
      if (k === 0) {
        // Domain 0 carries the snapshot: its writable disk is the qcow2 volume c0.
        d.volume_id = expr(`virtseed_volume.c${i === 0 ? 0 : 1 + (i % 3)}.id`);
        if (i === 0) d.readonly = false;
        delete d.file;
      } else {
        d.file = ctx.fixtures.diskFile ?? '';
        delete d.volume_id;
        d.readonly = true;
      }
      // libvirt refuses a read-only sata disk (refused at plan: src/domain/nic-options.ts NIC_OPTIONS).
      if (d.readonly === true && d.bus === 'sata') d.bus = 'scsi';
      // Given targets in the reverse of libvirt's order (it keeps disks in target order), beside derived ones.
      if (d.target !== undefined) d.target = `${d.bus === 'virtio' || d.bus === undefined ? 'vd' : 'sd'}${'dc'[k]}`;
      if (d.io === 'native') d.cache = 'none';
      if (d.bus !== undefined && d.bus !== 'virtio') delete d.serial;
      // libvirt keeps a rotation rate on sata and scsi disks only (refused at plan elsewhere: src/domain/disk-options.ts).
      if (d.bus !== 'sata' && d.bus !== 'scsi') delete d.rotation_rate;
    });
    ((a.network_interface as Attrs[] | undefined) ?? []).forEach((nic, k) => {
      delete nic.user;
      delete nic.restrict;
      delete nic.direct_mode;
      const kind = (i + k) % 3;
      if (kind === 0) {
        delete nic.direct;
        nic.network = expr(`virtseed_network.c${i % 2}.id`);
      } else if (kind === 1) {
        delete nic.direct;
        delete nic.network;
        delete nic.bandwidth;
        delete nic.mtu;
        nic.user = true;
        delete nic.link_state; // not on a restricted user-mode NIC
      } else {
        delete nic.network;
        nic.direct = 'eth0';
        nic.direct_mode = 'bridge';
        delete nic.mtu; // libvirt refuses an MTU on a direct NIC (refused at plan: src/domain/nic-options.ts NIC_OPTIONS)
      }
      const bw = nic.bandwidth as Attrs | undefined;
      if (bw) {
        // Peaks and bursts need their average (refused at plan otherwise); an empty block is refused too.
        for (const dir of ['inbound', 'outbound'])
          if ((bw[`${dir}_peak`] !== undefined || bw[`${dir}_burst`] !== undefined) && bw[`${dir}_average`] === undefined)
            bw[`${dir}_average`] = 1000;
        if (bw.inbound_average === undefined && bw.outbound_average === undefined) bw.inbound_average = 1000;
      }
      if (nic.mac !== undefined) nic.mac = `52:54:00:c2:${i.toString(16).padStart(2, '0')}:${(16 + k).toString(16)}`;
    });
    // At most one graphics of each type; a socket or a listen address, not both.
    const g = (a.graphics as Attrs[] | undefined) ?? [];
    g.forEach((e, k) => {
      e.type = k === 0 ? 'vnc' : 'spice';
      if (e.socket !== undefined) {
        delete e.listen;
        delete e.port;
        // Not under /var/lib/libvirt/qemu/: libvirt drops a VNC socket there (refused at plan).
        e.socket = `/tmp/${ctx.prefix}-g${i}-${k}.sock`;
      }
      if (e.port !== undefined) e.port = 5990 + i * 2 + k;
    });
    if (a.tpm !== undefined) {
      const t = a.tpm as Attrs;
      if (t.model !== 'tpm-tis') t.version = '2.0';
    }
    for (const f of (a.filesystem as Attrs[] | undefined) ?? []) {
      if (f.driver === undefined || f.driver === 'virtiofs') {
        f.access_mode = 'passthrough';
        delete f.readonly;
      }
    }
    ((a.filesystem as Attrs[] | undefined) ?? []).forEach((f, k) => (f.target = `share${i}x${k}`));
    const rng = a.rng as Attrs | undefined;
    if (rng && rng.rate_bytes === undefined) delete rng.rate_period;
    const wd = a.watchdog as Attrs | undefined;
    if (wd && wd.model === 'itco' && a.secure_boot !== true) wd.model = 'i6300esb';
    for (const key of ['serial', 'console']) {
      ((a[key] as Attrs[] | undefined) ?? []).forEach((c, k) => {
        const t = str(c.type);
        if (t === 'file' || t === 'unix') c.path = `/tmp/${ctx.prefix}-${key}${i}-${k}.${t === 'file' ? 'log' : 'sock'}`;
        else delete c.path;
        if (t === 'tcp') c.port = (key === 'serial' ? 24400 : 24500) + i * 2 + k;
        else {
          delete c.port;
          delete c.host;
        }
      });
    }
    ((a.channel as Attrs[] | undefined) ?? []).forEach((c, k) => {
      c.name = `org.conform.port.${k}`;
      if (c.type === 'spicevmc') c.type = 'unix';
      if (c.type !== undefined && c.type !== 'unix') delete c.path;
      else if (c.path !== undefined) c.path = `/var/lib/libvirt/qemu/channel/target/${ctx.prefix}-ch${i}-${k}`;
    });
    const seen = new Set<string>();
    a.input = ((a.input as Attrs[] | undefined) ?? []).filter((e) => {
      const key = `${str(e.type)}/${str(e.bus) || 'usb'}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if ((a.input as Attrs[]).length === 0) delete a.input;
  },
  importId: (v) => str(v.name),
  // Disks in libvirt's target order and `cache = "default"` read back as null: what import cannot know of the
  // configuration (documented: docs/resources/domain.md "Import"); a read after an apply keeps the state's spelling.
  importAsWritten: (config, imported) => asWritten(config as DomainState, imported as DomainState),
  // What libvirt does not keep (the provider's own settings; passwords libvirt shows only to secure reads), and
  // a NIC's network named by UUID in the configuration, read back by name: what import cannot know (documented:
  // docs/resources/domain.md "Import").
  importIgnore: [
    'shutdown_timeout',
    'wait_timeout',
    'wait_for',
    'snapshot_keep',
    'snapshot_before',
    'change_impact',
    'change_impacts',
    'graphics.password',
    'network_interface.network',
  ],
};

export const SNAPSHOT_KIND: KindSpec = {
  type: 'virtseed_snapshot',
  fields: SNAPSHOT_FIELDS.fields,
  count: 1,
  base: (ctx, i) => ({ domain_id: expr(`virtseed_domain.c${i}.id`), name: `snap${i}`, memory: false }),
  samples: { description: (_ctx, i) => [`conformance snapshot ${i}`, `described again ${i}`] },
  skip: { host: HOST_SKIP, memory: '`true` needs a running guest: fixed to false' },
  fix: () => undefined,
  importId: (v) => `${str(v.domain_id)}/${str(v.name)}`,
};

/** The fixed domain the backup policies back up (not generated): running, no OS (nothing to boot: QEMU runs, which
 *  is all a push backup needs), on a 16 MiB qcow2 volume. Its address is `virtseed_domain.bk`. */
export function runningDomainHcl(ctx: Context): string {
  return `
resource "virtseed_volume" "bk" {
  pool     = "default"
  name     = "${ctx.prefix}-bk.qcow2"
  capacity = 16777216
  format   = "qcow2"
}
resource "virtseed_domain" "bk" {
  name     = "${ctx.prefix}-bk"
  memory   = 64
  type     = "qemu"
  wait_for = "none"
  disk { volume_id = virtseed_volume.bk.id }
}
`;
}

/** The backup root of the run (`ctx.fixtures.backupRoot`): QEMU writes the copies there, so not a private /tmp. */
export function backupDir(ctx: Context, i: number): string {
  return `${ctx.fixtures.backupRoot ?? '/var/tmp/vstest-backups'}/b${i}`;
}

/** Two policies on the one running domain, each into its own directory (a local and a second copy, say). */
export const BACKUP_POLICY_KIND: KindSpec = {
  type: 'virtseed_backup_policy',
  fields: BACKUP_POLICY_FIELDS.fields,
  count: 2,
  base: (ctx, i) => ({ domain: expr('virtseed_domain.bk.name'), dir: backupDir(ctx, i) }),
  samples: {
    keep: () => [1, 2],
    // Far above the run's length: no plan of the run finds a backup due by age alone.
    max_age: () => [86400, 43200],
  },
  skip: { host: HOST_SKIP },
  fix: () => undefined,
  importId: (v) => str(v.id),
  // Nowhere on the host: null after import, set by the next apply (documented: docs/resources/backup_policy.md "Import").
  importIgnore: ['keep', 'max_age'],
};

/** Allowed values the repairs never let through (`type.path=value`), each with why; a unit test checks that every
 *  other allowed value and block is generated. */
export const NOT_GENERATED: Readonly<Record<string, string>> = {
  'virtseed_domain.cpu_mode=host-passthrough': 'needs KVM; refused at plan for `type = "qemu"` (the only type here)',
  'virtseed_domain.cpu_mode=custom': 'needs a CPU model, which the table has no attribute for',
  'virtseed_domain.channel.type=spicevmc': 'needs SPICE graphics with its agent channel; not generated yet',
};

/** Every resource kind, in the order their instances are written. */
export const KINDS: readonly KindSpec[] = [
  POOL_KIND,
  VOLUME_KIND,
  SEED_KIND,
  IGNITION_KIND,
  NETWORK_KIND,
  DOMAIN_KIND,
  SNAPSHOT_KIND,
  BACKUP_POLICY_KIND,
];
