/** Rendering of a cloud-config document (cloud-init docs, "User data formats: cloud-config"). */
import type { CloudConfig } from '../model';
import { dropUndefined } from '../../json';
import { stableYamlPieces } from '../private/yaml';

/** The header line cloud-init uses to recognise cloud-config user-data. */
export const CLOUD_CONFIG_HEADER = '#cloud-config';

/** `#cloud-config\n` + YAML with keys sorted at every level; `{}` renders as `#cloud-config\n{}\n`. Stable. */
export function renderCloudConfig(config: CloudConfig): string {
  return renderCloudConfigPieces(config).join('');
}

/** {@link renderCloudConfig}'s text in pieces: every odd piece is an ASCII base64 payload (see `stableYamlPieces`),
 *  so the text can be encoded to bytes without scanning the payloads again. */
export function renderCloudConfigPieces(config: CloudConfig): string[] {
  const pieces = stableYamlPieces(dropUndefined(config));
  pieces[0] = `${CLOUD_CONFIG_HEADER}\n${pieces[0]}`;
  return pieces;
}
