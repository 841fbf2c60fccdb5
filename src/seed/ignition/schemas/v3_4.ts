/**
 * JSON Schema of Ignition spec 3.4.0: 3.3.0 plus `luks[].discard`, `luks[].openOptions`, `tang[].advertisement`;
 * `raid[].level`/`devices` and `links[].target` no longer required by the schema (a link still needs a target);
 * setuid/setgid/sticky mode bits and `arn:` sources allowed (checked semantically).
 */
import { extend, list, nullableBool, nullableStr, obj, strList, type Schema } from './common';
import * as v33 from './v3_3';
import * as v30 from './v3_0';

export const tang = extend(v33.tang, { advertisement: nullableStr });
export const clevis = extend(v33.clevis, { tang: list(tang) });
export const luks = extend(v33.luks, { clevis, discard: nullableBool, openOptions: strList });
const raid = extend(v30.raid, { level: nullableStr }, ['name']);
const link = extend(v30.link, { target: nullableStr }, ['path']);

export const storage = extend(v33.storage, { raid: list(raid), links: list(link), luks: list(luks) });

export const { ignitionSection, systemd, passwd, kernelArguments } = v33;

export const schemaV3_4: Schema = obj({ ignition: ignitionSection, storage, systemd, passwd, kernelArguments }, ['ignition']);
