/** Validation and rendering of a spec in one pass (each input checked once, the content rendered once). */
import { hasErrors, ValidationError } from '../../diagnostics';
import { formatOf, seedContent } from '../content';
import type { PendingSeedContent } from '../layout';
import type { SeedFormat, SeedSpec } from '../model';
import { withBase64Memo } from './base64';
import { contentDiagnostics, validateSeedInputs } from '../validate';

/**
 * The format and rendered content (no instance-id) of a spec whose `files[].source` are loaded. Throws
 * `ValidationError` carrying the diagnostics `validateSeed(spec, { requireLoadedSources: true })` gives, when any
 * is an error.
 */
export function checkedContent(spec: SeedSpec): { format: SeedFormat; content: PendingSeedContent } {
  return withBase64Memo(() => check(spec));
}

function check(spec: SeedSpec): { format: SeedFormat; content: PendingSeedContent } {
  const inputs = validateSeedInputs(spec, { requireLoadedSources: true });
  if (hasErrors(inputs)) throw new ValidationError(inputs);
  const rendered = seedContent(spec);
  const diagnostics = [...inputs, ...contentDiagnostics(spec, rendered.content, rendered.diagnostics, rendered.userDataPlainBytes)];
  if (hasErrors(diagnostics)) throw new ValidationError(diagnostics);
  return { format: formatOf(spec), content: rendered.content };
}
