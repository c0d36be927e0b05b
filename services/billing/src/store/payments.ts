import type { Currency, PaymentView } from '@wb/contracts';
import type { Queryable } from '@wb/db';

export interface OrderRow {
  id: string;
  user_id: string;
  user_name: string | null;
  plan_id: string;
  plan_name: string;
  variant_id: string;
  days: number;
  amount_minor: number;
  currency: Currency;
  provider: string;
  provider_payment_id: string | null;
  status: 'pending' | 'paid' | 'failed';
  checkout_url: string | null;
  created_at: string;
  settled_at: string | null;
  /** Set when the account was deleted: a later payment grants nothing (migration 002). */
  user_deleted_at: string | null;
}

export async function insertOrder(
  db: Queryable,
  o: Pick<OrderRow, 'id' | 'user_id' | 'user_name' | 'plan_id' | 'plan_name' | 'variant_id' | 'days' | 'amount_minor' | 'currency' | 'provider'>,
) {
  await db.query(
    `INSERT INTO payments (id, user_id, user_name, plan_id, plan_name, variant_id, days, amount_minor, currency, provider)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [o.id, o.user_id, o.user_name, o.plan_id, o.plan_name, o.variant_id, o.days, o.amount_minor, o.currency, o.provider],
  );
}

export async function setProviderPayment(db: Queryable, id: string, providerPaymentId: string, checkoutUrl: string) {
  await db.query('UPDATE payments SET provider_payment_id = $2, checkout_url = $3 WHERE id = $1', [id, providerPaymentId, checkoutUrl]);
}

/** An order the provider never took (it answered with an error): failed at once. */
export async function failUnsentOrder(db: Queryable, id: string) {
  await db.query(`UPDATE payments SET status = 'failed', settled_at = now() WHERE id = $1 AND status = 'pending'`, [id]);
}

export async function orderById(db: Queryable, id: string, lock = false): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>(`SELECT * FROM payments WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`, [id]);
  return rows[0] ?? null;
}

export async function orderByProviderId(db: Queryable, provider: string, providerPaymentId: string): Promise<OrderRow | null> {
  const { rows } = await db.query<OrderRow>('SELECT * FROM payments WHERE provider = $1 AND provider_payment_id = $2', [
    provider,
    providerPaymentId,
  ]);
  return rows[0] ?? null;
}

export async function settleOrderRow(db: Queryable, id: string, status: 'paid' | 'failed') {
  await db.query('UPDATE payments SET status = $2, settled_at = now() WHERE id = $1', [id, status]);
}

const VIEW = `SELECT id, user_id, user_name, plan_name, amount_minor, currency, status, provider, created_at FROM payments`;

/** Settled payments only: a pending order is not a payment yet. */
export async function paymentsOfUser(db: Queryable, userId: string): Promise<PaymentView[]> {
  const { rows } = await db.query<PaymentView>(`${VIEW} WHERE user_id = $1 AND status <> 'pending' ORDER BY created_at DESC LIMIT 200`, [userId]);
  return rows;
}

export async function allPayments(db: Queryable, limit = 500): Promise<PaymentView[]> {
  const { rows } = await db.query<PaymentView>(`${VIEW} WHERE status <> 'pending' ORDER BY created_at DESC LIMIT $1`, [limit]);
  return rows;
}
