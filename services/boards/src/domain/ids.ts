const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids that are not UUID-shaped are treated as ids that do not exist (they never reach SQL as a uuid cast error). */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);
