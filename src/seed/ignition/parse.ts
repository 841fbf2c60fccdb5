/** Ignition config text → JSON value, with syntax errors at a line and column (as cloud-config YAML's). */
import { error, type AttributePath, type Diagnostic } from '../../diagnostics';
import { parseJsonText } from '../private/json-text';

/**
 * Parses Ignition config text. On a syntax error returns one diagnostic on `path` (the attribute or prop holding
 * the text): `Line L, column C: what is wrong` (1-based), and no value. Pure; never throws.
 */
export function parseIgnitionText(text: string, path: AttributePath = []): { value?: unknown; diagnostics: Diagnostic[] } {
  const parsed = parseJsonText(text);
  if (!parsed.problem) return { value: parsed.value, diagnostics: [] };
  const { line, col, message } = parsed.problem;
  return { diagnostics: [error(path, 'Invalid Ignition JSON', `Line ${line}, column ${col}: ${message}.`)] };
}
