import { randomUUID } from 'node:crypto';
import { FREE_PLAN_NAME, type PlanInput, type PlanLimits, type PlanView } from '@wb/contracts';
import type { Queryable } from '@wb/db';

/** Plans with their variants in one statement; `activeOnly` is the public list (active plans, active variants). */
function plansSql(where: string, activeOnly: boolean): string {
  return `
    SELECT p.id, p.name, p.description, p.is_active, p.limits_json,
      COALESCE((SELECT json_agg(json_build_object('id', v.id, 'days', v.days, 'price_minor', v.price_minor,
                  'currency', v.currency, 'is_active', v.is_active) ORDER BY v.position, v.days)
                FROM plan_variants v WHERE v.plan_id = p.id ${activeOnly ? 'AND v.is_active' : ''}), '[]') AS variants
    FROM plans p
    WHERE ${where}
    -- Free first, then by the cheapest variant, then by name
    ORDER BY lower(p.name) <> lower('${FREE_PLAN_NAME}'),
      (SELECT min(v.price_minor) FROM plan_variants v WHERE v.plan_id = p.id AND v.is_active), p.name`;
}

export async function listPlans(db: Queryable, opts: { activeOnly: boolean }): Promise<PlanView[]> {
  const { rows } = await db.query<PlanView>(plansSql(opts.activeOnly ? 'p.is_active' : 'true', opts.activeOnly));
  return rows;
}

export async function getPlan(db: Queryable, id: string): Promise<PlanView | null> {
  const { rows } = await db.query<PlanView>(plansSql('p.id = $1', false), [id]);
  return rows[0] ?? null;
}

export async function planNameTaken(db: Queryable, name: string, exceptId?: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM plans WHERE lower(name) = lower($1) AND id IS DISTINCT FROM $2', [name, exceptId ?? null]);
  return (rowCount ?? 0) > 0;
}

export async function insertPlan(db: Queryable, input: PlanInput): Promise<string> {
  const id = randomUUID();
  await db.query('INSERT INTO plans (id, name, description, is_active, limits_json) VALUES ($1, $2, $3, $4, $5)', [
    id,
    input.name,
    input.description,
    input.is_active,
    JSON.stringify(input.limits),
  ]);
  await writeVariants(db, id, input.variants, new Set());
  return id;
}

/** Replaces a plan's fields and variants: listed variants with an id are updated, new ones added, the rest removed. */
export async function updatePlan(db: Queryable, id: string, input: PlanInput): Promise<boolean> {
  const r = await db.query(
    'UPDATE plans SET name = $2, description = $3, is_active = $4, limits_json = $5, updated_at = now() WHERE id = $1',
    [id, input.name, input.description, input.is_active, JSON.stringify(input.limits)],
  );
  if (r.rowCount === 0) return false;
  const { rows } = await db.query<{ id: string }>('SELECT id FROM plan_variants WHERE plan_id = $1', [id]);
  const own = new Set(rows.map((r) => r.id));
  const keep = input.variants.map((v) => v.id).filter((v): v is string => v !== undefined && own.has(v));
  await db.query('DELETE FROM plan_variants WHERE plan_id = $1 AND NOT (id = ANY($2::uuid[]))', [id, keep]);
  await writeVariants(db, id, input.variants, own);
  return true;
}

/** `own` are the plan's variant ids: any other id (unknown, or another plan's) is written as a new variant. */
async function writeVariants(db: Queryable, planId: string, variants: PlanInput['variants'], own: Set<string>) {
  for (const [position, v] of variants.entries()) {
    const id = v.id && own.has(v.id) ? v.id : randomUUID();
    await db.query(
      `INSERT INTO plan_variants (id, plan_id, days, price_minor, currency, is_active, position)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (id) DO UPDATE SET days = EXCLUDED.days, price_minor = EXCLUDED.price_minor,
         currency = EXCLUDED.currency, is_active = EXCLUDED.is_active, position = EXCLUDED.position`,
      [id, planId, v.days, v.price_minor, v.currency, v.is_active, position],
    );
  }
}

export async function deactivatePlan(db: Queryable, id: string): Promise<boolean> {
  const r = await db.query('UPDATE plans SET is_active = false, updated_at = now() WHERE id = $1', [id]);
  return (r.rowCount ?? 0) > 0;
}

export interface PlanLimitsRow {
  id: string;
  name: string;
  is_active: boolean;
  limits_json: PlanLimits;
}

/** Every plan's name and limits: few rows, read whenever entitlements are computed. */
export async function allPlanLimits(db: Queryable): Promise<PlanLimitsRow[]> {
  const { rows } = await db.query<PlanLimitsRow>('SELECT id, name, is_active, limits_json FROM plans');
  return rows;
}

export interface VariantRow {
  id: string;
  plan_id: string;
  plan_name: string;
  plan_active: boolean;
  days: number;
  price_minor: number;
  currency: 'RUB' | 'USD' | 'EUR';
  is_active: boolean;
}

export async function getVariant(db: Queryable, planId: string, variantId: string): Promise<VariantRow | null> {
  const { rows } = await db.query<VariantRow>(
    `SELECT v.id, v.plan_id, p.name AS plan_name, p.is_active AS plan_active, v.days, v.price_minor, v.currency, v.is_active
     FROM plan_variants v JOIN plans p ON p.id = v.plan_id WHERE v.id = $1 AND v.plan_id = $2`,
    [variantId, planId],
  );
  return rows[0] ?? null;
}
