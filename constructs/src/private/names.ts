import { Token } from 'cdktf';
import { invalidName } from '../errors';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** Throws `invalidName` unless `name` is a token or 1–63 chars of `[A-Za-z0-9._-]` starting alphanumeric. */
export function checkName(prop: string, name: string): void {
  if (Token.isUnresolved(name)) return;
  if (typeof name !== 'string' || !NAME.test(name)) throw invalidName(prop, name);
}
