/**
 * The admin forms (spec §5 Admin plan form, Other admin forms). Each form keeps the values its
 * inputs hold (price in roubles, one canvas size, a local date) and turns them into the call's
 * payload, which the request schema of @wb/contracts checks: the browser refuses exactly what the
 * server refuses, with the same Russian texts, each shown on the field it came from.
 */
import {
  AdminUserUpdateInput,
  DEFAULT_PLAN_LIMITS,
  PlanInput,
  SubscriptionCreateInput,
  SubscriptionExtendInput,
  SubscriptionUpdateInput,
  SystemConfigInput,
  type Currency,
  type PlanView,
  type SubscriptionStatus,
  type SubscriptionView,
} from '@wb/contracts';
import { z } from 'zod';
import { TEXTS } from './texts.ts';

type Path = PropertyKey[];

/** A form field of type T: any value passes here, the contract schema judges the payload. */
const field = <T>() => z.custom<T>(() => true);

/**
 * `form` parsed, turned into a payload and checked by `contract`; each contract issue lands on the
 * form field `fieldOf` names (the contract's path by default).
 */
function viaContract<V, C extends z.ZodType>(
  form: z.ZodType<V, V>,
  contract: C,
  toPayload: (v: V) => unknown,
  fieldOf: (issue: z.core.$ZodIssue) => { path: Path; message: string } = (i) => ({
    path: i.path,
    message: i.message,
  }),
) {
  return form.transform((values, ctx): z.output<C> => {
    const r = contract.safeParse(toPayload(values));
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      const { path, message } = fieldOf(issue);
      ctx.addIssue({ code: 'custom', path, message });
    }
    return z.NEVER;
  });
}

/* ---------- Plan ---------- */

export interface VariantFormValues {
  id?: string;
  days: number;
  /** In major units (roubles), as typed. */
  price: number;
  currency: Currency;
  is_active: boolean;
}
export interface PlanFormValues {
  name: string;
  description: string;
  is_active: boolean;
  max_board_count: number;
  /** §5: one canvas size sets both width and height. */
  canvas_size: number;
  export_pdf_enabled: boolean;
  variants: VariantFormValues[];
}

/** §9 Default new variant: 30 days, price 0, RUB, active. */
export const DEFAULT_VARIANT: VariantFormValues = { days: 30, price: 0, currency: 'RUB', is_active: true };

/** §9 Default new plan: 3 boards, canvas 8000 by 8000, PDF export off, one default variant. */
export function newPlanValues(): PlanFormValues {
  return {
    name: '',
    description: '',
    is_active: true,
    max_board_count: DEFAULT_PLAN_LIMITS.max_board_count,
    canvas_size: DEFAULT_PLAN_LIMITS.max_canvas_extent_w,
    export_pdf_enabled: DEFAULT_PLAN_LIMITS.export_pdf_enabled,
    variants: [{ ...DEFAULT_VARIANT }],
  };
}

export function planValues(plan: PlanView): PlanFormValues {
  const l = plan.limits_json;
  return {
    name: plan.name,
    description: plan.description ?? '',
    is_active: plan.is_active,
    max_board_count: l.max_board_count,
    canvas_size: Math.max(l.max_canvas_extent_w, l.max_canvas_extent_h),
    export_pdf_enabled: l.export_pdf_enabled,
    variants: plan.variants.map((v) => ({
      id: v.id,
      days: v.days,
      price: v.price_minor / 100,
      currency: v.currency,
      is_active: v.is_active,
    })),
  };
}

/** §5: price at least 0 in steps of 0.01, sent as minor units (× 100); anything else is NaN for the contract to refuse. */
export function priceToMinor(price: number): number {
  if (typeof price !== 'number' || !Number.isFinite(price)) return Number.NaN;
  const cents = price * 100;
  const rounded = Math.round(cents);
  return Math.abs(cents - rounded) < 1e-6 ? rounded : Number.NaN;
}

export function planPayload(v: PlanFormValues) {
  return {
    name: v.name,
    description: v.description,
    is_active: v.is_active,
    limits: {
      max_board_count: v.max_board_count,
      max_canvas_extent_w: v.canvas_size,
      max_canvas_extent_h: v.canvas_size,
      export_pdf_enabled: v.export_pdf_enabled,
    },
    variants: v.variants.map((x) => ({
      ...(x.id ? { id: x.id } : {}),
      days: x.days,
      price_minor: priceToMinor(x.price),
      currency: x.currency,
      is_active: x.is_active,
    })),
  };
}

function planField(issue: z.core.$ZodIssue): { path: Path; message: string } {
  const [head, second, third] = issue.path;
  if (head === 'limits' && typeof second === 'string') {
    return {
      path: [second.startsWith('max_canvas_extent') ? 'canvas_size' : second],
      message: issue.message,
    };
  }
  if (head === 'variants' && typeof second === 'number' && third === 'price_minor') {
    // The contract speaks of minor units; the field holds roubles. Its upper bound keeps its own text.
    return {
      path: ['variants', second, 'price'],
      message: issue.code === 'too_big' ? issue.message : TEXTS.plans.priceError,
    };
  }
  // The "one active variant must remain" rule belongs to the list, not to one row.
  if (head === 'variants' && issue.path.length === 1)
    return { path: ['variants', 'root'], message: issue.message };
  return { path: issue.path, message: issue.message };
}

export const PlanForm = viaContract(
  z.object({
    name: field<string>(),
    description: field<string>(),
    is_active: field<boolean>(),
    max_board_count: field<number>(),
    canvas_size: field<number>(),
    export_pdf_enabled: field<boolean>(),
    variants: field<VariantFormValues[]>(),
  }) as z.ZodType<PlanFormValues, PlanFormValues>,
  PlanInput,
  planPayload,
  planField,
);
export type PlanPayload = z.output<typeof PlanForm>;

/* ---------- User ---------- */

/** Spec §5 User editor: name and email are required (the contract's rules, the profile's). */
export type UserFormValues = z.input<typeof AdminUserUpdateInput>;
export const UserForm = AdminUserUpdateInput;

/* ---------- Subscriptions ---------- */

export interface SubscriptionCreateValues {
  user_id: string;
  plan_id: string;
  days: number;
}
export const SubscriptionCreateForm = viaContract(
  z.object({ user_id: field<string>(), plan_id: field<string>(), days: field<number>() }) as z.ZodType<
    SubscriptionCreateValues,
    SubscriptionCreateValues
  >,
  SubscriptionCreateInput,
  (v) => v,
);

export interface SubscriptionEditValues {
  plan_id: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (a datetime-local input). */
  expires_at: string;
  status: SubscriptionStatus;
}

/** A datetime-local value as an ISO instant; '' when it is no date (the contract then names the field). */
export function localToIso(local: string): string {
  const t = Date.parse(local);
  return Number.isNaN(t) ? '' : new Date(t).toISOString();
}

/** An ISO instant as a datetime-local value in the browser's time zone. */
export function isoToLocal(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function subscriptionEditValues(s: SubscriptionView): SubscriptionEditValues {
  return { plan_id: s.plan_id, expires_at: isoToLocal(s.expires_at), status: s.status };
}

export const SubscriptionEditForm = viaContract(
  z.object({
    plan_id: field<string>(),
    expires_at: field<string>(),
    status: field<SubscriptionStatus>(),
  }) as z.ZodType<SubscriptionEditValues, SubscriptionEditValues>,
  SubscriptionUpdateInput,
  (v) => ({ ...v, expires_at: localToIso(v.expires_at) }),
);

/** §5 / §9: the extend prompt asks for days, 30 by default. */
export const EXTEND_DEFAULT_DAYS = 30;
export const ExtendForm = SubscriptionExtendInput;
export interface ExtendValues {
  days: number;
}

/* ---------- System config ---------- */

export interface ConfigValues {
  billing_enabled: boolean;
  limits_enabled: boolean;
  grace_days: number;
}
export const ConfigForm = viaContract(
  z.object({
    billing_enabled: field<boolean>(),
    limits_enabled: field<boolean>(),
    grace_days: field<number>(),
  }) as z.ZodType<ConfigValues, ConfigValues>,
  SystemConfigInput,
  (v) => v,
);
export type ConfigPayload = z.output<typeof ConfigForm>;
