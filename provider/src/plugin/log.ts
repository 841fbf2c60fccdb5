/**
 * Provider logging: lines to stderr (Terraform shows them with TF_LOG), filtered by `TF_LOG_PROVIDER` or
 * `TF_LOG` (TRACE, DEBUG, INFO, WARN, ERROR; JSON counts as TRACE; unset logs WARN and ERROR). Callers log
 * type names, ids and RPC names only — never attribute values (they may be sensitive).
 */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

export interface Logger {
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
  /** Whether lines of `level` are written (a caller may skip building a line that would be dropped). */
  enabled?(level: LogLevel): boolean;
}

/** The level named by the environment (see module doc). */
export function levelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const v = (env.TF_LOG_PROVIDER || env.TF_LOG || '').trim().toLowerCase();
  if (v === 'json') return 'trace';
  return v in RANK ? (v as LogLevel) : 'warn';
}

/** A logger writing `[LEVEL] virtseed: msg` lines (the hclog-like prefix Terraform recognizes) to `write`. */
export function createLogger(level: LogLevel = levelFromEnv(), write: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const at = (l: LogLevel) => (msg: string) => {
    if (RANK[l] >= RANK[level]) write(`[${l.toUpperCase()}] virtseed: ${msg}\n`);
  };
  const enabled = (l: LogLevel) => RANK[l] >= RANK[level];
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), enabled };
}
