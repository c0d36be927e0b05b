/** Reading the server's `{error, code, fields?}` answers out of RTK Query errors. */
export interface ApiErrorBody {
  error?: string;
  code?: string;
  fields?: Record<string, string>;
}

function bodyOf(err: unknown): ApiErrorBody | null {
  if (!err || typeof err !== 'object') return null;
  const data = (err as { data?: unknown }).data;
  if (data && typeof data === 'object') return data as ApiErrorBody;
  return null;
}

/** The server's `error` text, or the given fallback (spec §8). */
export function getErrorMessage(err: unknown, fallback: string): string {
  const msg = bodyOf(err)?.error;
  return typeof msg === 'string' && msg.trim() ? msg : fallback;
}

export function getErrorCode(err: unknown): string | undefined {
  const code = bodyOf(err)?.code;
  return typeof code === 'string' ? code : undefined;
}

export function getFieldErrors(err: unknown): Record<string, string> {
  const fields = bodyOf(err)?.fields;
  return fields && typeof fields === 'object' ? fields : {};
}

export function getStatus(err: unknown): number | string | undefined {
  if (!err || typeof err !== 'object') return undefined;
  return (err as { status?: number | string }).status;
}
