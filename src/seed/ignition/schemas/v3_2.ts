/**
 * JSON Schema of Ignition spec 3.2.0: 3.1.0 plus `storage.luks` (with clevis tang/tpm2/custom),
 * `partitions[].resize`, `users[].shouldExist`, `groups[].shouldExist`; `gs://` sources (checked semantically).
 */
import { extend, list, nullableBool, nullableInt, nullableStr, obj, str, strList, type Schema } from './common';
import * as v31 from './v3_1';

export const tang = obj({ url: str, thumbprint: nullableStr });
const clevisCustom = obj({ pin: nullableStr, config: nullableStr, needsNetwork: nullableBool });
export const clevis = obj({ custom: clevisCustom, tpm2: nullableBool, tang: list(tang), threshold: nullableInt });
export const luks = obj(
  {
    name: str,
    label: nullableStr,
    uuid: nullableStr,
    device: nullableStr,
    keyFile: v31.resource,
    wipeVolume: nullableBool,
    clevis,
    options: strList,
  },
  ['name'],
);

export const partition = extend(v31.partition, { resize: nullableBool });
export const disk = extend(v31.disk, { partitions: list(partition) });
export const storage = extend(v31.storage, { disks: list(disk), luks: list(luks) });

export const user = extend(v31.user, { shouldExist: nullableBool });
export const group = extend(v31.group, { shouldExist: nullableBool });
export const passwd = obj({ users: list(user), groups: list(group) });

export const { ignitionSection, systemd, resource } = v31;

export const schemaV3_2: Schema = obj({ ignition: ignitionSection, storage, systemd, passwd }, ['ignition']);
