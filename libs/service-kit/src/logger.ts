import { pino, type Logger } from 'pino';

export type { Logger };

/** One JSON logger per service; child loggers carry the request id. */
export function createLogger(service: string, level: string = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', '*.password', '*.refreshToken', '*.token'], remove: true },
  });
}
