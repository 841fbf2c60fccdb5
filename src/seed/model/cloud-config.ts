/**
 * Typed cloud-config: the common cloud-init modules (cloud-init docs, "Module reference"; key names and shapes as
 * in cloud-init's schema-cloud-config-v1). Any other key passes through the index signature and is validated only
 * as "known to cloud-init or not" (unknown top-level keys give a warning).
 */

/** One user (module `users_groups`). */
export interface CloudConfigUser {
  /** Login name. */
  name: string;
  /** GECOS comment (full name). */
  gecos?: string;
  /** Supplementary groups: comma-separated string or list. */
  groups?: string | string[];
  /** sudoers rule(s), e.g. `'ALL=(ALL) NOPASSWD:ALL'`; `false` or `null` for none. */
  sudo?: string | string[] | false | null;
  /** Login shell, e.g. `/bin/bash`. */
  shell?: string;
  /** Lock the password (no password login). @default true (cloud-init) */
  lock_passwd?: boolean;
  /** crypt(3) hash of the password. */
  hashed_passwd?: string;
  /** crypt(3) hash of the password (older name of `hashed_passwd`). */
  passwd?: string;
  /** Keys written to the user's `~/.ssh/authorized_keys`. */
  ssh_authorized_keys?: string[];
  /** A system user (no home directory unless `homedir`). */
  system?: boolean;
  /** Create the user disabled. */
  inactive?: string | boolean;
  /** Primary group name. @default - a group named as the user */
  primary_group?: string;
  /** Home directory. @default '/home/<name>' */
  homedir?: string;
  /** Numeric user id. */
  uid?: number | string;
  [key: string]: unknown;
}

/** A password set by module `set_passwords`. */
export interface ChpasswdUser {
  name: string;
  /** The password; `RANDOM` for a random one. */
  password: string;
  /** How `password` is given. @default 'hash' */
  type?: 'hash' | 'text' | 'RANDOM';
}

/** Module `set_passwords` settings. */
export interface ChpasswdConfig {
  /** Force a password change at first login. @default true (cloud-init) */
  expire?: boolean;
  users?: ChpasswdUser[];
  [key: string]: unknown;
}

/** One `write_files` entry (module `write_files`). */
export interface CloudConfigWriteFile {
  /** Absolute path in the guest. */
  path: string;
  /** Content, encoded as `encoding` says. */
  content?: string;
  /** @default 'text/plain' */
  encoding?: 'b64' | 'base64' | 'gz' | 'gzip' | 'gz+base64' | 'gzip+base64' | 'gz+b64' | 'gzip+b64' | 'text/plain';
  /** Octal mode string, e.g. `'0644'`. */
  permissions?: string;
  /** `user:group`. */
  owner?: string;
  append?: boolean;
  /** Write in the final stage (after users and packages). */
  defer?: boolean;
  [key: string]: unknown;
}

/** Module `power_state_change` settings. */
export interface PowerState {
  mode: 'poweroff' | 'reboot' | 'halt';
  /** `now` or `+N` minutes. */
  delay?: string | number;
  message?: string;
  /** Seconds to wait for cloud-init to finish. */
  timeout?: number;
  /** Only when this command (or boolean) succeeds. */
  condition?: string | boolean | string[];
  [key: string]: unknown;
}

/** Module `phone_home` settings. */
export interface PhoneHome {
  url: string;
  post?: 'all' | string[];
  tries?: number;
  [key: string]: unknown;
}

/** A command: a shell string or an argv list. */
export type CloudConfigCommand = string | string[];

/** The typed cloud-config document. */
export interface CloudConfig {
  /** Users to create; the string `default` keeps the distribution's default user. */
  users?: (CloudConfigUser | string)[];
  /** Keys for the default user. */
  ssh_authorized_keys?: string[];
  /** Allow password authentication in sshd. */
  ssh_pwauth?: boolean | string;
  chpasswd?: ChpasswdConfig;
  /** tz database name, e.g. `Europe/Berlin`. */
  timezone?: string;
  hostname?: string;
  fqdn?: string;
  /** Manage /etc/hosts: `true`, `false`, `template` or `localhost`. */
  manage_etc_hosts?: boolean | 'template' | 'localhost';
  write_files?: CloudConfigWriteFile[];
  /** Commands run once per instance, late in boot. */
  runcmd?: CloudConfigCommand[];
  /** Commands run on every boot, early. */
  bootcmd?: CloudConfigCommand[];
  /** Package names, or `[name, version]` pairs. */
  packages?: (string | string[])[];
  package_update?: boolean;
  /** fstab entries: `[device, mount_point, fs_type, options, dump, pass]` (trailing fields optional). */
  mounts?: (string | null)[][];
  /** Defaults for the missing fields of `mounts` entries (6 entries). */
  mount_default_fields?: (string | null)[];
  /** Partition tables by device (module `disk_setup`). */
  disk_setup?: Record<string, { table_type?: 'mbr' | 'gpt'; layout?: boolean | unknown[]; overwrite?: boolean; [key: string]: unknown }>;
  /** File systems to create (module `disk_setup`). */
  fs_setup?: {
    label?: string;
    filesystem?: string;
    device?: string;
    partition?: string | number;
    overwrite?: boolean;
    replace_fs?: string;
    extra_opts?: string | string[];
    cmd?: string | string[];
    [key: string]: unknown;
  }[];
  /** Remove host keys baked into the image. */
  ssh_deletekeys?: boolean;
  /** Host key types to generate, e.g. `['ed25519', 'rsa']`. */
  ssh_genkeytypes?: ('ecdsa' | 'ed25519' | 'rsa' | 'dsa')[];
  /** Logged when cloud-init finishes. */
  final_message?: string;
  phone_home?: PhoneHome;
  power_state?: PowerState;
  /** Any other cloud-init key (validated only as known/unknown). */
  [key: string]: unknown;
}
