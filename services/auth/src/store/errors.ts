import { appError } from '@wb/service-kit';

/**
 * The unique index on lower(email) is the only arbiter of "address taken": a check-then-insert
 * would let two concurrent requests both pass the check.
 */
export function mapUniqueEmail(err: unknown): never {
  const e = err as { code?: string; constraint?: string };
  if (e?.code === '23505' && e.constraint === 'users_email_lower_key') throw appError('EMAIL_ALREADY_EXISTS');
  throw err;
}
