import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { ERRORS, type ErrorBody, type ErrorCode } from '@wb/contracts';
import { QUERY_TIMEOUT_MESSAGE } from '@wb/db';
import { findBadInput, INPUT_PROBLEM_TEXTS, type InputProblem } from './storable.ts';

/** An error with a stable code from the catalogue; the handler turns it into `{error, code}`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode | string,
    readonly status: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

/** Builds the catalogue's error for `code`, optionally with another message or field errors. */
export function appError(code: ErrorCode, opts: { message?: string; fields?: Record<string, string> } = {}): AppError {
  const def = ERRORS[code];
  return new AppError(code, def.status, opts.message ?? def.message, opts.fields);
}

const isRussian = (text: string) => /[а-яё]/i.test(text);

/**
 * Field texts for zod's own English messages (a schema without a message of ours: wrong type,
 * unknown enum value, an extra key): the forms show a field's text as it comes.
 */
const FIELD_TEXTS: Partial<Record<z.core.$ZodIssue['code'], string>> = {
  invalid_type: 'Неверный тип значения',
  too_small: 'Значение меньше допустимого',
  too_big: 'Значение больше допустимого',
  invalid_format: 'Неверный формат',
  invalid_value: 'Недопустимое значение',
  invalid_union: 'Недопустимое значение',
  unrecognized_keys: 'Лишние поля',
};

function fieldText(issue: z.core.$ZodIssue): string {
  if (isRussian(issue.message)) return issue.message;
  // zod keeps the input out of its issues; its message says what was received.
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return 'Обязательное поле';
  return FIELD_TEXTS[issue.code] ?? ERRORS.VALIDATION_ERROR.message;
}

/** Turns a ZodError into VALIDATION_ERROR: the first issue's message is the toast text. */
export function validationError(err: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = fieldText(issue);
  }
  const first = err.issues[0];
  // zod's own English messages (wrong type, unknown enum) are replaced by the catalogue text.
  const message = first && isRussian(first.message) ? first.message : ERRORS.VALIDATION_ERROR.message;
  return appError('VALIDATION_ERROR', { message, fields });
}

/** VALIDATION_ERROR for a value no store takes (see findBadInput): the field and what is wrong with it. */
export function inputProblemError(problem: InputProblem): AppError {
  const text = INPUT_PROBLEM_TEXTS[problem.reason];
  return appError('VALIDATION_ERROR', { message: text, fields: { [problem.path || '_']: text } });
}

/**
 * Parses `data` with `schema`, throwing VALIDATION_ERROR. Strings with a NUL or a lone surrogate
 * (and overflowed numbers, hostile nesting) are refused first, whatever the schema says: no schema
 * has to remember it, and a body parsed outside the app's guard (billing's) is covered too.
 */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const problem = findBadInput(data);
  if (problem) throw inputProblemError(problem);
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(appError('NOT_FOUND'));

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** PostgreSQL's SQLSTATEs for "not now": shutting down, crashed, starting up, full. Class 08 is added below. */
const PG_NOT_NOW = new Set(['57P01', '57P02', '57P03', '53300']);
const MONGO_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
]);

/**
 * Whether `err` says a database or another service cannot be reached right now (connection refused
 * or lost, server restarting). Not a bug of ours and not the caller's: 503, try again shortly.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNREACHABLE.has(code) || PG_NOT_NOW.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  if (typeof e.name === 'string' && MONGO_UNREACHABLE.has(e.name)) return true;
  if (e.message === QUERY_TIMEOUT_MESSAGE) return true;
  // node-postgres's own words for a connection lost mid-query or never made within its timeout.
  if (typeof e.message === 'string' && /^(Connection terminated|timeout exceeded when trying to connect)/.test(e.message)) return true;
  // A host name with several addresses fails with one error per address.
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every(isDependencyUnavailable);
}

/** Seconds a client is asked to wait before retrying after SERVICE_UNAVAILABLE. */
const RETRY_AFTER_S = 5;

/**
 * The last middleware of every app. Known errors answer with their code; body-parser failures
 * become INVALID_JSON / PAYLOAD_TOO_LARGE; an unreachable database or service SERVICE_UNAVAILABLE (503,
 * Retry-After); anything else is logged and answered as a bare 500.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let appErr: AppError;
  if (err instanceof AppError) appErr = err;
  else if (err instanceof z.ZodError) appErr = validationError(err);
  else if (err?.type === 'entity.parse.failed') appErr = appError('INVALID_JSON');
  else if (err?.type === 'entity.too.large' || err?.status === 413) appErr = appError('PAYLOAD_TOO_LARGE');
  else if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported')
    appErr = appError('VALIDATION_ERROR');
  else if (err?.status === 404 || err?.statusCode === 404) appErr = appError('NOT_FOUND');
  else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500)
    appErr = appError('VALIDATION_ERROR');
  else if (isDependencyUnavailable(err)) {
    // Logged without the stack: during an outage every request says the same.
    req.log?.warn({ err: { message: String(err.message).slice(0, 300), code: err.code, name: err.name } }, 'dependency unavailable');
    appErr = appError('SERVICE_UNAVAILABLE');
    if (!res.headersSent) res.setHeader('Retry-After', String(RETRY_AFTER_S));
  } else {
    req.log?.error({ err }, 'unhandled error');
    appErr = appError('INTERNAL_ERROR');
  }
  if (res.headersSent) return;
  const body: ErrorBody = { error: appErr.message, code: appErr.code, requestId: req.id };
  if (appErr.fields) body.fields = appErr.fields;
  res.status(appErr.status).json(body);
};
