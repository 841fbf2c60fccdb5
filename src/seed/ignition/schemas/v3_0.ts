/** JSON Schema of Ignition spec 3.0.0 (facts from coreos/ignition config/v3_0/schema/ignition.json). */
import { int, list, nullableBool, nullableInt, nullableStr, obj, str, strList, type Schema } from './common';

const verification = obj({ hash: nullableStr });
// In 3.0 config references and CAs have only source + verification; file contents add compression.
const configReference = obj({ source: nullableStr, verification }, ['source']);
const caReference: Schema = { ...obj({ source: str, verification }, ['source']), type: ['object', 'null'] };
const fileContents = obj({ source: nullableStr, compression: nullableStr, verification });

const owner = obj({ id: nullableInt, name: nullableStr });
const node = { path: str, overwrite: nullableBool, user: owner, group: owner };

export const ignitionSection = obj({
  version: str,
  config: obj({ merge: list(configReference), replace: configReference }),
  timeouts: obj({ httpResponseHeaders: nullableInt, httpTotal: nullableInt }),
  security: obj({ tls: obj({ certificateAuthorities: list(caReference) }) }),
});

export const partition = obj({
  label: nullableStr,
  number: int,
  sizeMiB: nullableInt,
  startMiB: nullableInt,
  typeGuid: nullableStr,
  guid: nullableStr,
  wipePartitionEntry: nullableBool,
  shouldExist: nullableBool,
});
export const disk = obj({ device: str, wipeTable: nullableBool, partitions: list(partition) }, ['device']);
export const raid = obj({ name: str, level: str, devices: strList, spares: nullableInt, options: strList }, ['name', 'level', 'devices']);
export const filesystem = obj(
  {
    device: str,
    format: nullableStr,
    path: nullableStr,
    wipeFilesystem: nullableBool,
    label: nullableStr,
    uuid: nullableStr,
    options: strList,
  },
  ['device'],
);
export const file = obj({ ...node, mode: nullableInt, contents: fileContents, append: list(fileContents) }, ['path']);
export const directory = obj({ ...node, mode: nullableInt }, ['path']);
export const link = obj({ ...node, target: str, hard: nullableBool }, ['path', 'target']);

export const storage = obj({
  disks: list(disk),
  raid: list(raid),
  filesystems: list(filesystem),
  files: list(file),
  directories: list(directory),
  links: list(link),
});

const dropin = obj({ name: str, contents: nullableStr }, ['name']);
const unit = obj({ name: str, enabled: nullableBool, mask: nullableBool, contents: nullableStr, dropins: list(dropin) }, ['name']);
export const systemd = obj({ units: list(unit) });

export const user = obj(
  {
    name: str,
    passwordHash: nullableStr,
    sshAuthorizedKeys: strList,
    uid: nullableInt,
    gecos: nullableStr,
    homeDir: nullableStr,
    noCreateHome: nullableBool,
    primaryGroup: nullableStr,
    groups: strList,
    noUserGroup: nullableBool,
    system: nullableBool,
    noLogInit: nullableBool,
    shell: nullableStr,
  },
  ['name'],
);
export const group = obj({ name: str, gid: nullableInt, passwordHash: nullableStr, system: nullableBool }, ['name']);
export const passwd = obj({ users: list(user), groups: list(group) });

export const schemaV3_0: Schema = obj({ ignition: ignitionSection, storage, systemd, passwd }, ['ignition']);
