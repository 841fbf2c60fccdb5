/** JSON Schema of Ignition spec 3.3.0: 3.2.0 plus top-level `kernelArguments` (`format: none` is semantic). */
import { obj, strList, type Schema } from './common';
import * as v32 from './v3_2';

export const kernelArguments = obj({ shouldExist: strList, shouldNotExist: strList });

export const { ignitionSection, storage, systemd, passwd, luks, tang, clevis, resource, disk } = v32;

export const schemaV3_3: Schema = obj({ ignition: ignitionSection, storage, systemd, passwd, kernelArguments }, ['ignition']);
