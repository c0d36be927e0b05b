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

/** Reusable pieces for service config schemas. */
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
  optionalString: () =>
    z
      .string()
      .optional()
      .transform((v) => (v && v.trim() ? v.trim() : undefined)),
};
