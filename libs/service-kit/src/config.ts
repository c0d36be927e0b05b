import { z } from 'zod';

export class ConfigError extends Error {}

/**
 * Parses the environment once into a typed object. Every problem is listed with the variable's
 * name, so a misconfigured pod says what to fix instead of failing later.
 */
export function parseConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** parseConfig for a process entry point: prints the problem and exits with status 1. */
export function loadConfig<S extends z.ZodType>(schema: S, env: Record<string, string | undefined> = process.env): z.infer<S> {
  try {
    return parseConfig(schema, env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

type Range = { min?: number; max?: number };
const ranged = <N extends z.ZodNumber | z.ZodCoercedNumber>(n: N, { min, max }: Range): N => {
  let r = n;
  if (min !== undefined) r = r.min(min) as N;
  if (max !== undefined) r = r.max(max) as N;
  return r;
};

/** Unset and blank both mean "not configured" (compose files often pass `X=` for off). */
const optionalString = () =>
  z
    .string()
    .optional()
    .transform((v) => (v && v.trim() ? v.trim() : undefined));

/**
 * The pieces every service config schema is written with (services/<name>/src/config.ts:
 * `serviceConfig(port, { X: env.int(10, { min: 1 }), ... })`), so the same kind of setting is read
 * the same way everywhere: numbers coerced from text, blanks meaning unset, URLs checked at start.
 */
export const env = {
  port: (def: number) => z.coerce.number().int().min(0).max(65535).default(def),
  url: () => z.string().url(),
  bool: (def: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(def ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset and blank both mean "not configured" (compose files often pass `X=` for off). */
  optionalString,
  /** As optionalString, but the value is kept as written: a password's surrounding spaces are part of it. */
  optionalSecret: () =>
    z
      .string()
      .optional()
      .transform((v) => (v && v.trim() ? v : undefined)),
  /** A URL, or unset/blank for "not configured". */
  optionalUrl: () => optionalString().pipe(z.string().url().optional()),
  /** A port, or unset/blank for "not served". */
  optionalPort: () =>
    optionalString()
      .transform((v) => (v === undefined ? undefined : Number(v)))
      .pipe(z.number().int().min(0).max(65535).optional()),
  string: (def: string) => z.string().default(def),
  /** A whole number (counts, milliseconds, bytes) within the range. */
  int: (def: number, range: Range = {}) => ranged(z.coerce.number().int(), range).default(def),
  /** A number that may have a fraction (megabytes, milliseconds of a wait). */
  number: (def: number, range: Range = {}) => ranged(z.coerce.number(), range).default(def),
};
