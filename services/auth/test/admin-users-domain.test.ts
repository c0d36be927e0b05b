import { describe, expect, it } from 'vitest';
import { EventSchemas } from '@wb/contracts';
import { searchPattern, toAdminUser, userAction } from '../src/domain/admin-users.ts';

describe('admin user list rules', () => {
  it('search text becomes a literal ILIKE pattern; blank means everyone', () => {
    expect(searchPattern(undefined)).toBeNull();
    expect(searchPattern('   ')).toBeNull();
    expect(searchPattern(' Иван ')).toBe('%Иван%');
    expect(searchPattern('100%_a\\b')).toBe('%100\\%\\_a\\\\b%');
  });

  it('a user billing has not named a plan for is on Free; dates are ISO', () => {
    const row = { id: 'u', name: 'Имя', email: 'a@b.c', is_admin: false, plan_name: null, boards_count: 3, created_at: new Date('2026-01-02T03:04:05Z') };
    expect(toAdminUser(row)).toEqual({ id: 'u', name: 'Имя', email: 'a@b.c', isAdmin: false, plan_name: 'Free', boards_count: 3, created_at: '2026-01-02T03:04:05.000Z' });
    expect(toAdminUser({ ...row, plan_name: 'Pro' }).plan_name).toBe('Pro');
  });

  it('the audit event names the actor and the user, carries only name and e-mail, and fits the event schema', () => {
    const actor = { id: '00000000-0000-4000-8000-000000000001', name: 'Администратор' };
    const target = { id: '00000000-0000-4000-8000-000000000002', name: 'Старое', email: 'old@example.com', password_hash: 'argon2id$...' };
    const at = new Date('2026-11-28T00:00:00Z');
    const updated = userAction(actor, 'user.updated', target, { name: 'Новое', email: 'new@example.com' }, at);
    expect(updated).toEqual({
      actorId: actor.id,
      actorName: 'Администратор',
      action: 'user.updated',
      target: { type: 'user', id: target.id, label: 'Старое <old@example.com>' },
      before: { name: 'Старое', email: 'old@example.com' },
      after: { name: 'Новое', email: 'new@example.com' },
      at: '2026-11-28T00:00:00.000Z',
    });
    const deleted = userAction(actor, 'user.deleted', target, null, at);
    expect(deleted.after).toBeNull();
    for (const e of [updated, deleted]) expect(EventSchemas['admin.action'].safeParse(e).success).toBe(true);
    expect(JSON.stringify([updated, deleted])).not.toContain('argon2');
  });
});
