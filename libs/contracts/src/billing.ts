import { z } from 'zod';

/**
 * Billing calls of spec §7 (plans, checkout, subscriptions, payments, system config): request
 * schemas the billing service parses with, and answer types the SPA reads.
 */

export const CURRENCIES = ['RUB', 'USD', 'EUR'] as const;
export const Currency = z.enum(CURRENCIES, { error: 'Валюта должна быть одной из: RUB, USD, EUR' });
export type Currency = z.infer<typeof Currency>;

export const SUBSCRIPTION_STATUSES = ['active', 'grace', 'expired'] as const;
export const SubscriptionStatus = z.enum(SUBSCRIPTION_STATUSES, { error: 'Статус должен быть одним из: active, grace, expired' });
export type SubscriptionStatus = z.infer<typeof SubscriptionStatus>;

/** Names with a meaning of their own (spec §3 Plan): Free is everyone's plan without a subscription. */
export const FREE_PLAN_NAME = 'Free';
export const PRO_PLAN_NAME = 'Pro';

/** Spec §9 "Default new plan". */
export const DEFAULT_PLAN_LIMITS = {
  max_board_count: 3,
  max_canvas_extent_w: 8000,
  max_canvas_extent_h: 8000,
  export_pdf_enabled: false,
} as const;
export const DEFAULT_GRACE_DAYS = 3;
/** The largest canvas side a plan may set; beyond it the canvas is effectively unbounded anyway. */
export const MAX_CANVAS_EXTENT = 1_000_000;
/** Ten years: the longest variant or single extension. */
export const MAX_DAYS = 3650;
/** 10 000 000.00 in any currency. */
export const MAX_PRICE_MINOR = 1_000_000_000;

const uuid = (message: string) => z.string({ error: message }).uuid({ message });

const days = z
  .number({ error: 'Количество дней должно быть целым числом не меньше 1' })
  .int({ message: 'Количество дней должно быть целым числом не меньше 1' })
  .min(1, { message: 'Количество дней должно быть целым числом не меньше 1' })
  .max(MAX_DAYS, { message: `Количество дней не может превышать ${MAX_DAYS}` });

export const PlanLimits = z.object(
  {
    max_board_count: z
      .number({ error: 'Лимит досок должен быть целым числом (-1 — без ограничений)' })
      .int({ message: 'Лимит досок должен быть целым числом (-1 — без ограничений)' })
      .min(-1, { message: 'Лимит досок должен быть целым числом (-1 — без ограничений)' })
      .max(1_000_000, { message: 'Слишком большой лимит досок' }),
    max_canvas_extent_w: z
      .number({ error: 'Размер холста должен быть целым числом пикселей' })
      .int({ message: 'Размер холста должен быть целым числом пикселей' })
      .min(100, { message: 'Размер холста должен быть не меньше 100 пикселей' })
      .max(MAX_CANVAS_EXTENT, { message: 'Слишком большой размер холста' }),
    max_canvas_extent_h: z
      .number({ error: 'Размер холста должен быть целым числом пикселей' })
      .int({ message: 'Размер холста должен быть целым числом пикселей' })
      .min(100, { message: 'Размер холста должен быть не меньше 100 пикселей' })
      .max(MAX_CANVAS_EXTENT, { message: 'Слишком большой размер холста' }),
    export_pdf_enabled: z.boolean({ error: 'export_pdf_enabled должен быть true или false' }),
  },
  { error: 'Укажите лимиты тарифа' },
);
export type PlanLimits = z.infer<typeof PlanLimits>;

export const PlanVariantInput = z.object({
  /** Present when editing an existing variant; absent for a new one. */
  id: uuid('Некорректный идентификатор варианта').optional(),
  days,
  price_minor: z
    .number({ error: 'Цена должна быть целым неотрицательным числом в минимальных единицах валюты' })
    .int({ message: 'Цена должна быть целым неотрицательным числом в минимальных единицах валюты' })
    .min(0, { message: 'Цена должна быть целым неотрицательным числом в минимальных единицах валюты' })
    .max(MAX_PRICE_MINOR, { message: 'Слишком большая цена' }),
  currency: Currency,
  is_active: z.boolean({ error: 'is_active должен быть true или false' }).default(true),
});
export type PlanVariantInput = z.infer<typeof PlanVariantInput>;

/** POST /admin/plans and PUT /admin/plans/{id}. `limits` (spec) or `limits_json` (as the plan answers) are both accepted. */
export const PlanInput = z
  .object({
    name: z.string({ error: 'Название тарифа обязательно' }).trim().min(1, { message: 'Название тарифа обязательно' }).max(100, {
      message: 'Название тарифа не длиннее 100 символов',
    }),
    description: z.string({ error: 'Описание должно быть строкой' }).max(1000, { message: 'Описание не длиннее 1000 символов' }).default(''),
    is_active: z.boolean({ error: 'is_active должен быть true или false' }).default(true),
    limits: PlanLimits.optional(),
    limits_json: PlanLimits.optional(),
    variants: z
      .array(PlanVariantInput, { error: 'Укажите варианты тарифа' })
      .max(20, { message: 'Не больше 20 вариантов' })
      .refine((vs) => vs.some((v) => v.is_active), { message: 'У тарифа должен остаться хотя бы один активный вариант' }),
  })
  .transform(({ limits, limits_json, ...rest }, ctx) => {
    const l = limits ?? limits_json;
    if (!l) {
      ctx.addIssue({ code: 'custom', path: ['limits'], message: 'Укажите лимиты тарифа' });
      return z.NEVER;
    }
    return { ...rest, limits: l };
  });
export type PlanInput = z.infer<typeof PlanInput>;

export const CheckoutInput = z.object({
  plan_id: uuid('Тариф не найден'),
  variant_id: uuid('Вариант тарифа не найден'),
});

/** The test provider's checkout page: the owner's choice (POST /billing/test-checkout/{orderId}). */
export const TEST_CHECKOUT_OUTCOMES = ['pay', 'decline'] as const;
export const TestCheckoutInput = z.object(
  { outcome: z.enum(TEST_CHECKOUT_OUTCOMES, { error: 'Выберите «Оплатить» или «Отклонить»' }) },
  { error: 'Выберите «Оплатить» или «Отклонить»' },
);

/** The auto-renew switch of "Мой тариф" (on: POST /billing/resume-auto-renew, off: /billing/cancel-auto-renew). */
export const AutoRenewForm = z.object({ auto_renew: z.boolean({ error: 'Укажите, продлевать ли тариф автоматически' }) });
export type AutoRenewForm = z.infer<typeof AutoRenewForm>;

/** What billing sends to export's /internal/receipts to have one paid payment's receipt drawn as a PDF. */
export const ReceiptInput = z.object(
  {
    payment_id: uuid('Некорректный идентификатор платежа'),
    user_name: z.string({ error: 'Укажите имя покупателя' }).max(200, { message: 'Имя не длиннее 200 символов' }),
    user_email: z.string({ error: 'Укажите e-mail покупателя' }).max(320, { message: 'E-mail не длиннее 320 символов' }),
    plan_name: z.string({ error: 'Укажите тариф' }).min(1, { message: 'Укажите тариф' }).max(100, { message: 'Название тарифа не длиннее 100 символов' }),
    days,
    amount_minor: z
      .number({ error: 'Сумма должна быть целым положительным числом в минимальных единицах валюты' })
      .int({ message: 'Сумма должна быть целым положительным числом в минимальных единицах валюты' })
      .min(1, { message: 'Сумма должна быть целым положительным числом в минимальных единицах валюты' })
      .max(MAX_PRICE_MINOR, { message: 'Слишком большая сумма' }),
    currency: Currency,
    provider: z.string({ error: 'Укажите платёжную систему' }).min(1, { message: 'Укажите платёжную систему' }).max(40, { message: 'Слишком длинное имя платёжной системы' }),
    paid_at: z.iso.datetime({ offset: true, message: 'Укажите дату оплаты' }),
  },
  { error: 'Укажите данные платежа' },
);
export type ReceiptInput = z.infer<typeof ReceiptInput>;

export const SubscriptionCreateInput = z.object({
  user_id: uuid('Выберите пользователя'),
  plan_id: uuid('Выберите тариф'),
  days,
});

export const SubscriptionUpdateInput = z.object({
  plan_id: uuid('Выберите тариф'),
  expires_at: z.iso.datetime({ offset: true, message: 'Укажите дату окончания' }),
  status: SubscriptionStatus,
});

export const SubscriptionExtendInput = z.object({ days });

export const SystemConfigInput = z
  .object({
    billing_enabled: z.boolean({ error: 'billing_enabled должен быть true или false' }),
    limits_enabled: z.boolean({ error: 'limits_enabled должен быть true или false' }),
    grace_days: z
      .number({ error: 'Льготный период — целое число дней от 0 до 365' })
      .int({ message: 'Льготный период — целое число дней от 0 до 365' })
      .min(0, { message: 'Льготный период — целое число дней от 0 до 365' })
      .max(365, { message: 'Льготный период — целое число дней от 0 до 365' }),
  })
  .partial()
  .refine((c) => Object.keys(c).length > 0, { message: 'Нет изменений настроек' });

/** Answers. */
export interface PlanVariantView {
  id: string;
  days: number;
  price_minor: number;
  currency: Currency;
  is_active: boolean;
}
export interface PlanView {
  id: string;
  name: string;
  description: string;
  is_active: boolean;
  limits_json: PlanLimits;
  variants: PlanVariantView[];
}
export interface PlansAnswer {
  plans: PlanView[];
  billing_enabled: boolean;
}
export interface SubscriptionView {
  id: string;
  user_id: string;
  user_name: string | null;
  plan_id: string;
  plan_name: string;
  status: SubscriptionStatus;
  calculated_status: SubscriptionStatus;
  expires_at: string;
  auto_renew: boolean;
}
export interface PaymentView {
  id: string;
  user_id: string;
  user_name: string | null;
  plan_name: string | null;
  amount_minor: number;
  currency: Currency;
  status: 'paid' | 'failed';
  provider: string;
  created_at: string;
}
/** GET /billing/orders/{id}: the owner's order and, once paid, what it bought (the dashboard's checkout message). */
export interface OrderView {
  id: string;
  plan_name: string;
  days: number;
  amount_minor: number;
  currency: Currency;
  status: 'pending' | 'paid' | 'failed';
  created_at: string;
}
export interface OrderAnswer {
  order: OrderView;
  subscription: SubscriptionView | null;
}
/** POST /billing/test-checkout/{id}: what the choice did and where the browser goes next. */
export interface TestCheckoutAnswer {
  result: 'paid' | 'failed' | 'already_paid' | 'already_failed';
  redirect_url: string;
}
export interface SystemConfigView {
  billing_enabled: boolean;
  limits_enabled: boolean;
  grace_days: number;
}
