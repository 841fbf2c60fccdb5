/**
 * `virtseed_domain` state ⇄ the shared domain model (src/domain `DomainSpec`): defaults filled at plan, libvirt
 * references resolved at apply (volume keys → pool/volume, seed and Ignition volumes), and libvirt's view of a
 * domain turned back into state at read/import.
 */
import { createHash } from 'node:crypto';
import type { DomainDisk, DomainInterface, DomainSpec } from '../../../../src/domain';
import { METADATA_KEYS } from '../../../../src/domain';
import type { LibvirtClient } from '../../../../src/libvirt';
import { resolveNetworkNames } from './network-refs';
import { isNotFound, volumeFormatFromXml } from './storage';
import { bool, list, num, str, UNKNOWN } from './values';

type State = Record<string, unknown>;

export const REPROVISION_POLICIES = ['reboot', 'recreate', 'next-boot'] as const;
export type ReprovisionPolicy = (typeof REPROVISION_POLICIES)[number];

/** Defaults of optional+computed attributes, filled at plan when the config leaves them null. */
export const DOMAIN_DEFAULTS = { vcpu: 1, running: true, reprovision: 'reboot', shutdown_timeout: 60, wait_for: 'none', wait_timeout: 600, qemu_agent: false } as const;

/** The fw_cfg key Ignition reads on QEMU (Ignition docs "Supported platforms": qemu). */
export const IGNITION_FW_CFG_KEY = 'opt/com.coreos/config';

/** The serial console log file virtseed gives a domain (virtlogd writes it). */
export function consoleLogPath(name: string): string {
  return `/var/log/libvirt/qemu/${name}-console.log`;
}

/** `vda`, `vdb`, … for the i-th virtio disk. */
export function diskTarget(index: number, bus: string): string {
  const prefix = bus === 'virtio' ? 'vd' : 'sd';
  let n = index;
  let suffix = '';
  do {
    suffix = String.fromCharCode(97 + (n % 26)) + suffix;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return prefix + suffix;
}

/** A stable MAC for the i-th interface of a named domain: QEMU's 52:54:00 prefix + 3 bytes of sha256(name/i). */
export function derivedMac(domainName: string, index: number): string {
  const h = createHash('sha256').update(`${domainName}/${index}`).digest();
  return ['52', '54', '00', ...[h[0], h[1], h[2]].map((b) => b.toString(16).padStart(2, '0'))].join(':');
}

/** Fills defaults into a planned value (config nulls → defaults; computed nested values derived). */
export function withDefaults(planned: State, prior: State | null): State {
  const out: State = { ...planned };
  for (const [k, v] of Object.entries(DOMAIN_DEFAULTS)) if (out[k] === null) out[k] = v;
  const priorDisks = list<State>(prior?.disk);
  out.disk = list<State>(planned.disk).map((d, i) => {
    const bus = str(d.bus) ?? 'virtio';
    const samePrior = priorDisks[i] && priorDisks[i].volume_id === d.volume_id && priorDisks[i].file === d.file ? priorDisks[i] : undefined;
    return {
      ...d,
      bus,
      readonly: d.readonly ?? false,
      target: d.target ?? (samePrior?.target as string | undefined) ?? diskTarget(i, bus),
    };
  });
  const priorNics = list<State>(prior?.network_interface);
  const name = str(planned.name);
  out.network_interface = list<State>(planned.network_interface).map((n, i) => {
    const user = n.user === true;
    const p = priorNics[i];
    const mac = n.mac ?? (p && p.network === n.network && p.user === n.user ? p.mac : undefined) ?? (name ? derivedMac(name, i) : UNKNOWN);
    return { ...n, user, restrict: user ? (n.restrict ?? true) : (n.restrict ?? false), model: n.model ?? 'virtio', mac };
  });
  if (out.console_log === null || out.console_log === UNKNOWN) out.console_log = str(prior?.console_log) ?? (name ? consoleLogPath(name) : UNKNOWN);
  return out;
}

/** Host paths/volumes that a domain's state refers to, looked up at apply. */
export interface ResolvedRefs {
  readonly disks: { source: DomainDisk['source']; format?: 'qcow2' | 'raw' }[];
  readonly seed?: { pool: string; volume: string };
  readonly ignitionFile?: string;
  /** The libvirt network name of each `network_interface` (its `network` may be a UUID). @default - `network` as given */
  readonly networks?: readonly (string | undefined)[];
  /** libvirt older than 6.5 has no `<sysinfo type='fwcfg'>`: pass the Ignition file with QEMU's `-fw_cfg`. */
  readonly fwCfgViaCommandline?: boolean;
}

/** First libvirt version with `<sysinfo type='fwcfg'>` (formatdomain "SMBIOS System Information"), 6.5.0. */
export const LIBVIRT_FWCFG_SYSINFO_VERSION = 6_005_000;

/** QEMU arguments passing a host file as the Ignition fw_cfg blob (for libvirt < 6.5). */
export function ignitionFwCfgArgs(file: string): string[] {
  return ['-fw_cfg', `name=${IGNITION_FW_CFG_KEY},file=${file}`];
}

/** The Ignition file named by `-fw_cfg name=opt/com.coreos/config,file=...` among QEMU arguments, if any. */
export function ignitionFileFromArgs(args: readonly string[] | undefined): string | undefined {
  const prefix = `name=${IGNITION_FW_CFG_KEY},file=`;
  for (let i = 0; i + 1 < (args?.length ?? 0); i++) {
    if (args![i] === '-fw_cfg' && args![i + 1].startsWith(prefix)) return args![i + 1].slice(prefix.length);
  }
  return undefined;
}

async function volumeSource(client: LibvirtClient, key: string): Promise<{ source: DomainDisk['source']; format?: 'qcow2' | 'raw' }> {
  const vol = await client.storageVolLookupByKey(key).catch(async (err) => {
    if (isNotFound(err) && key.startsWith('/')) return client.storageVolLookupByPath(key);
    throw err;
  });
  const format = volumeFormatFromXml(await client.storageVolGetXmlDesc(vol, 0));
  return { source: { pool: vol.pool, volume: vol.name }, format: format === 'qcow2' ? 'qcow2' : 'raw' };
}

/** Looks up every volume the state refers to. Throws LibvirtError when one is missing. */
export async function resolveRefs(client: LibvirtClient, s: State): Promise<ResolvedRefs> {
  const disks = [];
  for (const d of list<State>(s.disk)) {
    const key = str(d.volume_id);
    if (key) disks.push(await volumeSource(client, key));
    else {
      const file = str(d.file) as string;
      disks.push({ source: { file }, format: (/\.qcow2$/i.test(file) ? 'qcow2' : 'raw') as 'qcow2' | 'raw' });
    }
  }
  let seed: ResolvedRefs['seed'];
  const seedKey = str(s.cloudinit_seed_id);
  if (seedKey) {
    const vol = await client.storageVolLookupByKey(seedKey);
    seed = { pool: vol.pool, volume: vol.name };
  }
  let ignitionFile: string | undefined;
  const ignKey = str(s.ignition_id);
  let fwCfgViaCommandline = false;
  if (ignKey) {
    ignitionFile = await client.storageVolGetPath(await client.storageVolLookupByKey(ignKey));
    fwCfgViaCommandline = (await client.connectGetLibVersion()) < LIBVIRT_FWCFG_SYSINFO_VERSION;
  }
  const networks = await resolveNetworkNames(client, list<State>(s.network_interface));
  return { disks, seed, ignitionFile, fwCfgViaCommandline, networks };
}

/** The DomainSpec of a planned state, with refs resolved (or placeholders for validation at plan). */
export function toDomainSpec(s: State, refs: ResolvedRefs, uuid?: string): DomainSpec {
  const disks: DomainDisk[] = list<State>(s.disk).map((d, i) => ({
    source: refs.disks[i]?.source ?? { file: `/placeholder/disk${i}` },
    target: str(d.target) ?? diskTarget(i, str(d.bus) ?? 'virtio'),
    bus: (str(d.bus) ?? 'virtio') as DomainDisk['bus'],
    device: 'disk',
    format: refs.disks[i]?.format,
    ...(bool(d.readonly) ? { readonly: true } : {}),
  }));
  if (refs.seed) disks.push({ source: refs.seed, target: 'sda', bus: 'sata', device: 'cdrom', format: 'raw', readonly: true });
  const interfaces: DomainInterface[] = list<State>(s.network_interface).map((n, i) => {
    const common = { model: (str(n.model) ?? 'virtio') as DomainInterface['model'], ...(str(n.mac) ? { mac: n.mac as string } : {}) };
    return n.user === true || !str(n.network)
      ? { type: 'user' as const, ...(n.restrict !== false ? { restrict: true } : {}), ...common }
      : { type: 'network' as const, network: refs.networks?.[i] ?? (n.network as string), ...common };
  });
  const kernel = str(s.kernel);
  const metadata: Record<string, string> = { [METADATA_KEYS.reprovisionPolicy]: str(s.reprovision) ?? DOMAIN_DEFAULTS.reprovision };
  if (str(s.instance_id)) metadata[METADATA_KEYS.instanceId] = s.instance_id as string;
  return {
    name: s.name as string,
    ...(uuid ? { uuid } : {}),
    type: (str(s.type) ?? 'qemu') as DomainSpec['type'],
    memoryMiB: num(s.memory) as number,
    vcpu: num(s.vcpu) ?? DOMAIN_DEFAULTS.vcpu,
    ...(str(s.cpu_mode) ? { cpuMode: s.cpu_mode as DomainSpec['cpuMode'] } : {}),
    ...(kernel ? { os: { kernel, ...(str(s.initrd) ? { initrd: s.initrd as string } : {}), ...(str(s.cmdline) ? { cmdline: s.cmdline as string } : {}) } } : {}),
    disks,
    interfaces,
    ...(str(s.console_log) ? { serialLogFile: s.console_log as string } : {}),
    ...(bool(s.qemu_agent) ? { qemuAgent: true } : {}),
    ...(refs.ignitionFile && !refs.fwCfgViaCommandline ? { fwCfg: [{ name: IGNITION_FW_CFG_KEY, file: refs.ignitionFile }] } : {}),
    ...(refs.ignitionFile && refs.fwCfgViaCommandline ? { qemuCommandline: ignitionFwCfgArgs(refs.ignitionFile) } : {}),
    metadata,
  };
}

/** What libvirt says a domain is, as the state attributes virtseed manages (for read and import). */
export async function stateFromDomain(client: LibvirtClient, spec: DomainSpec, running: boolean): Promise<State> {
  const disk: State[] = [];
  let seedId: string | null = null;
  for (const d of spec.disks) {
    let key: string | null = null;
    let file: string | null = null;
    if ('pool' in d.source) {
      try {
        const pool = await client.storagePoolLookupByName(d.source.pool);
        key = (await client.storageVolLookupByName(pool, d.source.volume)).key;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        key = `${d.source.pool}/${d.source.volume}`;
      }
    } else {
      try {
        key = (await client.storageVolLookupByPath(d.source.file)).key;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        file = d.source.file;
      }
    }
    if (d.device === 'cdrom') {
      seedId = key ?? file;
      continue;
    }
    disk.push({ volume_id: key, file, target: d.target, bus: d.bus, readonly: d.readonly === true });
  }
  let ignitionId: string | null = null;
  const fwFile = spec.fwCfg?.find((e) => e.name === IGNITION_FW_CFG_KEY)?.file ?? ignitionFileFromArgs(spec.qemuCommandline);
  const fw = fwFile ? { file: fwFile } : undefined;
  if (fw) {
    try {
      ignitionId = (await client.storageVolLookupByPath(fw.file)).key;
    } catch (err) {
      if (!isNotFound(err)) throw err;
      ignitionId = fw.file;
    }
  }
  return {
    name: spec.name,
    uuid: spec.uuid ?? null,
    id: spec.uuid ?? null,
    memory: spec.memoryMiB,
    vcpu: spec.vcpu,
    type: spec.type,
    cpu_mode: spec.cpuMode ?? null,
    kernel: spec.os?.kernel ?? null,
    initrd: spec.os?.initrd ?? null,
    cmdline: spec.os?.cmdline ?? null,
    disk,
    cloudinit_seed_id: seedId,
    ignition_id: ignitionId,
    instance_id: spec.metadata?.[METADATA_KEYS.instanceId] ?? null,
    network_interface: spec.interfaces.map((n) => ({
      network: n.type === 'network' ? n.network : null,
      user: n.type === 'user',
      restrict: n.type === 'user' ? n.restrict === true : false,
      mac: n.mac ?? null,
      model: n.model ?? 'virtio',
    })),
    running,
    console_log: spec.serialLogFile ?? null,
    qemu_agent: spec.qemuAgent === true,
  };
}
