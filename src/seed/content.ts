/** Rendering of a validated SeedSpec into format-neutral SeedContent (no instance-id yet). */
import type { Diagnostic } from '../diagnostics';
import type { PendingSeedContent } from './layout';
import type { SeedFormat, SeedSpec } from './model';
import { renderNetworkFile } from './network/render';
import { renderCloudConfig } from './user-data/cloud-config';
import { composeUserDataPieces } from './user-data/compose';

/** The seed format of a spec (default `nocloud`). */
export function formatOf(spec: SeedSpec): SeedFormat {
  return spec.format ?? 'nocloud';
}

/** Content of a validated spec with `instanceId: null` (a rendered cloud-config user-data left as pieces), plus
 *  composition warnings and the user-data's length before compression (for the size rule). Pure. */
export function seedContent(spec: SeedSpec): { content: PendingSeedContent; diagnostics: Diagnostic[]; userDataPlainBytes: number } {
  const userData = composeUserDataPieces(spec);
  const network = renderNetworkFile(spec, formatOf(spec));
  const vendorData =
    spec.vendor_data === undefined
      ? undefined
      : typeof spec.vendor_data === 'string'
        ? spec.vendor_data
        : renderCloudConfig(spec.vendor_data);
  return {
    content: {
      instanceId: null,
      ...(spec.hostname !== undefined ? { hostname: spec.hostname } : {}),
      ...(spec.public_keys ? { publicKeys: spec.public_keys } : {}),
      ...(spec.meta_data ? { extraMetaData: spec.meta_data } : {}),
      userData: userData.bytes,
      ...(network !== undefined ? { network } : {}),
      ...(vendorData !== undefined ? { vendorData } : {}),
    },
    diagnostics: userData.diagnostics,
    userDataPlainBytes: userData.plainLength,
  };
}
