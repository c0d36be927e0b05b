/** A UUID in its textual form (any version, either letter case): the shape of every id the services hand out. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids that are not UUID-shaped name nothing: services treat them as ids that do not exist (they
 * never reach SQL as a uuid cast error), the SPA as a link it cannot follow.
 */
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_PATTERN.test(v);
