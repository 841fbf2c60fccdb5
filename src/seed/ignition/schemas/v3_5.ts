/** JSON Schema of Ignition spec 3.5.0: 3.4.0 plus `luks[].cex` (IBM Crypto Express: `{enabled}`). */
import { extend, list, nullableBool, obj, type Schema } from './common';
import * as v34 from './v3_4';

export const luks = extend(v34.luks, { cex: obj({ enabled: nullableBool }) });
export const storage = extend(v34.storage, { luks: list(luks) });

export const { ignitionSection, systemd, passwd, kernelArguments } = v34;

export const schemaV3_5: Schema = obj({ ignition: ignitionSection, storage, systemd, passwd, kernelArguments }, ['ignition']);
