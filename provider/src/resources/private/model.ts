/**
 * The typed state of each resource: the plain-JS value of its schema's implied cty object type, as the protocol
 * layer decodes it from a DynamicValue (every attribute present; null when unset; `UNKNOWN` when Terraform does not
 * know it yet) and encodes it back. Attribute names are the Terraform names. The schemas (./fields) are keyed by
 * these interfaces, so a field added to one and not the other does not compile.
 */
import type { Unknown } from '../../plugin/cty';

/** An attribute value: known, null (unset) or unknown. */
export type Val<T> = T | null | Unknown;
/** A list block: its elements, or unknown as a whole (a `dynamic` block over an unknown collection). */
export type Blocks<T> = T[] | Unknown;

export interface VolumeState {
  id: Val<string>;
  pool: Val<string>;
  name: Val<string>;
  format: Val<string>;
  capacity: Val<number>;
  backing_volume: Val<string>;
  source: Val<string>;
  path: Val<string>;
  allocation: Val<number>;
}

export interface IgnitionState {
  id: Val<string>;
  pool: Val<string>;
  name: Val<string>;
  content: Val<string>;
  version: Val<string>;
  instance_id: Val<string>;
  sha256: Val<string>;
  path: Val<string>;
}

export interface SeedUserDataPart {
  content: Val<string>;
  content_type: Val<string>;
  filename: Val<string>;
  merge_type: Val<string>;
}

export interface SeedFile {
  path: Val<string>;
  content: Val<string>;
  content_base64: Val<string>;
  source: Val<string>;
  owner: Val<string>;
  permissions: Val<string>;
  defer: Val<boolean>;
  append: Val<boolean>;
}

export interface SeedMount {
  device: Val<string>;
  mount_point: Val<string>;
  symlink: Val<string>;
  fs_type: Val<string>;
  options: Val<string>;
}

export interface SeedInterface {
  name: Val<string>;
  mac: Val<string>;
  dhcp4: Val<boolean>;
  dhcp6: Val<boolean>;
  addresses: Val<string[]>;
  gateway4: Val<string>;
  gateway6: Val<string>;
  nameservers: Val<string[]>;
  search: Val<string[]>;
  mtu: Val<number>;
}

export interface SeedNetwork {
  version: Val<number>;
  force_dhcp: Val<boolean>;
  interface: Blocks<SeedInterface>;
}

export interface CloudinitSeedState {
  id: Val<string>;
  pool: Val<string>;
  name: Val<string>;
  format: Val<string>;
  instance_id: Val<string>;
  hostname: Val<string>;
  fqdn: Val<string>;
  public_keys: Val<string[]>;
  meta_data: Val<string>;
  cloud_config: Val<string>;
  user_data: Val<string>;
  user_data_base64: Val<string>;
  user_data_gzip: Val<boolean>;
  merge_overwrite: Val<boolean>;
  environment: Val<Record<string, string>>;
  network_config: Val<string>;
  vendor_data: Val<string>;
  path: Val<string>;
  size: Val<number>;
  sha256: Val<string>;
  user_data_part: Blocks<SeedUserDataPart>;
  file: Blocks<SeedFile>;
  mount: Blocks<SeedMount>;
  network: SeedNetwork | null | Unknown;
}

export interface DomainDiskState {
  volume_id: Val<string>;
  file: Val<string>;
  target: Val<string>;
  bus: Val<string>;
  readonly: Val<boolean>;
}

export interface DomainInterfaceState {
  network: Val<string>;
  user: Val<boolean>;
  restrict: Val<boolean>;
  mac: Val<string>;
  model: Val<string>;
}

export interface DomainState {
  id: Val<string>;
  uuid: Val<string>;
  name: Val<string>;
  memory: Val<number>;
  vcpu: Val<number>;
  type: Val<string>;
  cpu_mode: Val<string>;
  kernel: Val<string>;
  initrd: Val<string>;
  cmdline: Val<string>;
  cloudinit_seed_id: Val<string>;
  ignition_id: Val<string>;
  instance_id: Val<string>;
  reprovision: Val<string>;
  running: Val<boolean>;
  shutdown_timeout: Val<number>;
  console_log: Val<string>;
  wait_for: Val<string>;
  wait_timeout: Val<number>;
  reprovision_action: Val<string>;
  previous_instance_id: Val<string>;
  disk: Blocks<DomainDiskState>;
  network_interface: Blocks<DomainInterfaceState>;
}

export interface NetworkDhcpRangeState {
  start: Val<string>;
  end: Val<string>;
}

export interface NetworkIpState {
  address: Val<string>;
  dhcp_range: Blocks<NetworkDhcpRangeState>;
}

export interface NetworkDhcpHostState {
  mac: Val<string>;
  hostname: Val<string>;
  ip: Val<string>;
}

export interface NetworkDnsHostState {
  ip: Val<string>;
  hostnames: Val<string[]>;
}

export interface NetworkState {
  id: Val<string>;
  uuid: Val<string>;
  name: Val<string>;
  mode: Val<string>;
  bridge: Val<string>;
  forward_dev: Val<string>;
  domain: Val<string>;
  mtu: Val<number>;
  autostart: Val<boolean>;
  ip: Blocks<NetworkIpState>;
  dhcp_host: Blocks<NetworkDhcpHostState>;
  dns_host: Blocks<NetworkDnsHostState>;
}
