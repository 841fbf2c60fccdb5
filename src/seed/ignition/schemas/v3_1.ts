/**
 * JSON Schema of Ignition spec 3.1.0: 3.0.0 plus one `resource` shape (source, compression, httpHeaders,
 * verification) for config references, CAs and file contents; `ignition.proxy`; `filesystems[].mountOptions`;
 * `ignition.version` required.
 */
import { extend, list, nullableStr, obj, str, strList, type Schema } from './common';
import * as v30 from './v3_0';

const httpHeaders = list(obj({ name: str, value: nullableStr }, ['name']));
export const resource = obj({
  source: nullableStr,
  compression: nullableStr,
  httpHeaders,
  verification: obj({ hash: nullableStr }),
});

export const ignitionSection = extend(
  v30.ignitionSection,
  {
    config: obj({ merge: list(resource), replace: resource }),
    security: obj({ tls: obj({ certificateAuthorities: list(resource) }) }),
    proxy: obj({ httpProxy: nullableStr, httpsProxy: nullableStr, noProxy: strList }),
  },
  ['version'],
);

export const file = extend(v30.file, { contents: resource, append: list(resource) });
export const filesystem = extend(v30.filesystem, { mountOptions: strList });

export const storage = extend(v30.storage, { filesystems: list(filesystem), files: list(file) });

export const schemaV3_1: Schema = obj({ ignition: ignitionSection, storage, systemd: v30.systemd, passwd: v30.passwd }, ['ignition']);
// Keep the unchanged parts reachable for later versions.
export const { directory, link, disk, partition, raid, user, group, systemd, passwd } = v30;
