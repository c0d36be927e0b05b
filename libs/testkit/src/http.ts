/** A JSON call as a test makes it: status and parsed body (the raw text when it is not JSON). */
export interface JsonAnswer {
  status: number;
  // Tests read arbitrary fields of answers; typing each one would only restate the assertions.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface JsonCallOptions {
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with a JSON content type (for malformed bodies). */
  raw?: string;
  /** Bearer access token. */
  token?: string;
  /** Share token (x-share-token). */
  share?: string;
  headers?: Record<string, string>;
}

export async function callJson(base: string, method: string, path: string, opts: JsonCallOptions = {}): Promise<JsonAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.share) headers['x-share-token'] = opts.share;
  const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
  if (body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: the text itself */
  }
  return { status: res.status, body: parsed };
}
