import { randomUUID } from 'node:crypto';
import { newEvent } from '../src/index.ts';

export { eventually as waitFor } from '@wb/testkit';

export const userDeleted = () => newEvent('user.deleted', { userId: randomUUID() }, 'test');
export const userUpdated = () => newEvent('user.updated', { userId: randomUUID(), email: 'a@b.c', name: 'Аня' }, 'test');
export const boardDeleted = () => newEvent('board.deleted', { boardId: randomUUID(), ownerId: randomUUID() }, 'test');
export const boardCreated = () =>
  newEvent('board.created', { boardId: randomUUID(), ownerId: randomUUID(), title: 'Доска', folderId: null }, 'test');

export const durableName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** Collects log records instead of printing them, so tests can assert on what was logged. */
export function memoryLogger() {
  const records: { level: string; msg?: string; obj: object }[] = [];
  const at = (level: string) => (obj: object, msg?: string) => void records.push({ level, msg, obj });
  return { records, logger: { info: at('info'), warn: at('warn'), error: at('error') } };
}
