import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import { ERRORS, type ErrorBody, type ErrorCode } from '@wb/contracts';

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

/** Turns a ZodError into VALIDATION_ERROR: the first issue's message is the toast text. */
export function validationError(err: z.ZodError): AppError {
  const fields: Record<string, string> = {};
  for (const issue of err.issues) {
    const key = issue.path.join('.') || '_';
    if (!(key in fields)) fields[key] = issue.message;
  }
  const first = err.issues[0];
  // zod's own English messages (wrong type, unknown enum) are replaced by the catalogue text.
  const message = first && /[а-яё]/i.test(first.message) ? first.message : ERRORS.VALIDATION_ERROR.message;
  return appError('VALIDATION_ERROR', { message, fields });
}

/** Parses `data` with `schema`, throwing VALIDATION_ERROR. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.infer<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(appError('NOT_FOUND'));

/**
 * The last middleware of every app. Known errors answer with their code; body-parser failures
 * become INVALID_JSON / PAYLOAD_TOO_LARGE; anything else is logged and answered as a bare 500.
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
  else {
    req.log?.error({ err }, 'unhandled error');
    appErr = appError('INTERNAL_ERROR');
  }
  if (res.headersSent) return;
  const body: ErrorBody = { error: appErr.message, code: appErr.code, requestId: req.id };
  if (appErr.fields) body.fields = appErr.fields;
  res.status(appErr.status).json(body);
};
