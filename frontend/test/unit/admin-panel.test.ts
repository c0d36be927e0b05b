/** The admin panel's pure rules: §4 indicators and update polling, §5 form rules, §9 formats and defaults. */
import { describe, expect, it } from 'vitest';
import {
  containerUptime,
  formatBytes,
  formatRoubles,
  formatUptime,
  stateTone,
  usageTone,
} from '../../src/features/admin/format.ts';
import {
  ConfigForm,
  EXTEND_DEFAULT_DAYS,
  ExtendForm,
  PlanForm,
  SubscriptionEditForm,
  UserForm,
  newPlanValues,
  priceToMinor,
  type PlanFormValues,
} from '../../src/features/admin/forms.ts';
import {
  UPDATE_POLL_MS,
  UPDATE_RELOAD_MS,
  UPDATE_TIMEOUT_MS,
  afterPoll,
  startedView,
} from '../../src/features/admin/updatePolicy.ts';

const errors = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('indicators (spec §4)', () => {
  it('usage: 90 % and above red, 70 % and above yellow, else green; unknown grey', () => {
    expect([0, 69.9, 70, 89.9, 90, 100].map(usageTone)).toEqual([
      'green',
      'green',
      'yellow',
      'yellow',
      'red',
      'red',
    ]);
    expect(usageTone(null)).toBe('grey');
  });
  it('container states: running green, exited red, paused yellow, anything else grey', () => {
    expect(
      ['running', 'exited', 'paused', 'restarting', 'CrashLoopBackOff', 'Running'].map(stateTone),
    ).toEqual(['green', 'red', 'yellow', 'grey', 'grey', 'green']);
  });
});

describe('formats (spec §9)', () => {
  it('sizes in B, KB, MB, GB with base 1024; unknown is null, never 0', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1024)).toBe('1,0 KB');
    expect(formatBytes(1536)).toBe('1,5 KB');
    expect(formatBytes(5 * 1024 * 1024)).toBe('5,0 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3,0 GB');
    expect(formatBytes(2048 * 1024 ** 3)).toBe('2048 GB');
    expect(formatBytes(null)).toBeNull();
  });
  it('uptime in days and hours', () => {
    expect(formatUptime(0)).toBe('0 д 0 ч');
    expect(formatUptime(3 * 3600 + 59 * 60)).toBe('0 д 3 ч');
    expect(formatUptime(2 * 86_400 + 5 * 3600)).toBe('2 д 5 ч');
    const now = Date.UTC(2026, 0, 10);
    expect(containerUptime({ state: 'running', created: now / 1000 - 86_400 - 7200 }, now)).toBe('1 д 2 ч');
    expect(containerUptime({ state: 'running', created: 0, uptime: 3600 }, now)).toBe('0 д 1 ч');
    expect(containerUptime({ state: 'exited', created: 0 }, now)).toBeNull();
    expect(containerUptime({ state: 'exited', created: 0, uptime: null }, now)).toBeNull();
  });
  it('revenue in roubles', () => {
    expect(formatRoubles(12345).replace(/\s/g, ' ')).toBe('12 345 ₽');
    expect(formatRoubles(4.99).replace(/\s/g, ' ')).toBe('4,99 ₽');
  });
});

describe('plan form (spec §5 Admin plan form, §9 Default new plan)', () => {
  it('a new plan: 3 boards, canvas 8000 by 8000, PDF off, one variant of 30 days at 0 RUB, active', () => {
    expect(newPlanValues()).toEqual({
      name: '',
      description: '',
      is_active: true,
      max_board_count: 3,
      canvas_size: 8000,
      export_pdf_enabled: false,
      variants: [{ days: 30, price: 0, currency: 'RUB', is_active: true }],
    });
  });
  it('sends the price as minor units and one canvas size as width and height', () => {
    const v: PlanFormValues = {
      ...newPlanValues(),
      name: ' Команда ',
      canvas_size: 12000,
      variants: [{ days: 90, price: 1234.56, currency: 'EUR', is_active: true }],
    };
    const r = PlanForm.safeParse(v);
    expect(r.success).toBe(true);
    expect(r.data).toEqual({
      name: 'Команда',
      description: '',
      is_active: true,
      limits: {
        max_board_count: 3,
        max_canvas_extent_w: 12000,
        max_canvas_extent_h: 12000,
        export_pdf_enabled: false,
      },
      variants: [{ days: 90, price_minor: 123456, currency: 'EUR', is_active: true }],
    });
    expect(priceToMinor(4.99)).toBe(499);
    expect(priceToMinor(0.1 + 0.2)).toBe(30);
  });
  it('refuses an empty name, days under 1, a negative or sub-cent price, a bad currency, each on its field', () => {
    const v = {
      ...newPlanValues(),
      canvas_size: 50,
      variants: [
        { days: 0, price: -1, currency: 'RUB' as const, is_active: true },
        { days: Number.NaN, price: 1.005, currency: 'GBP' as never, is_active: true },
      ],
    };
    expect(errors(PlanForm.safeParse(v))).toEqual({
      name: 'Название тарифа обязательно',
      canvas_size: 'Размер холста должен быть не меньше 100 пикселей',
      'variants.0.days': 'Количество дней должно быть целым числом не меньше 1',
      'variants.0.price': 'Цена — число не меньше 0 с шагом 0,01',
      'variants.1.days': 'Количество дней должно быть целым числом не меньше 1',
      'variants.1.price': 'Цена — число не меньше 0 с шагом 0,01',
      'variants.1.currency': 'Валюта должна быть одной из: RUB, USD, EUR',
    });
  });
  it('one active variant must remain (on the list, not on a row)', () => {
    const v = {
      ...newPlanValues(),
      name: 'X',
      variants: [{ days: 30, price: 0, currency: 'RUB' as const, is_active: false }],
    };
    expect(errors(PlanForm.safeParse(v))).toEqual({
      'variants.root': 'У тарифа должен остаться хотя бы один активный вариант',
    });
  });
});

describe('other admin forms (spec §5)', () => {
  it('user editor: name and email required', () => {
    expect(errors(UserForm.safeParse({ name: '', email: '' }))).toEqual({
      name: 'Имя обязательно',
      email: 'Email обязателен',
    });
    expect(UserForm.parse({ name: ' Анна ', email: 'a@b.ru' })).toEqual({ name: 'Анна', email: 'a@b.ru' });
  });
  it('extend: 30 days by default, at least 1', () => {
    expect(EXTEND_DEFAULT_DAYS).toBe(30);
    expect(ExtendForm.safeParse({ days: 0 }).success).toBe(false);
  });
  it('subscription edit: a local date-time becomes an ISO instant; no date names the field', () => {
    const ok = SubscriptionEditForm.parse({
      plan_id: '3f1b1a52-6d0e-4b7e-9a36-0f3c8c1b2d4e',
      expires_at: '2027-01-02T10:30',
      status: 'grace',
    });
    expect(ok.expires_at).toBe(new Date(2027, 0, 2, 10, 30).toISOString());
    expect(
      errors(SubscriptionEditForm.safeParse({ plan_id: 'x', expires_at: '', status: 'gone' as never })),
    ).toEqual({
      plan_id: 'Выберите тариф',
      expires_at: 'Укажите дату окончания',
      status: 'Статус должен быть одним из: active, grace, expired',
    });
  });
  it('config: grace days 0–365 whole', () => {
    expect(
      errors(ConfigForm.safeParse({ billing_enabled: true, limits_enabled: true, grace_days: -1 })),
    ).toEqual({
      grace_days: 'Льготный период — целое число дней от 0 до 365',
    });
  });
});

describe('system update polling (spec §4 System update, §9)', () => {
  const running = startedView({ is_running: true, current_step: 'Подготовка обновления', progress: 0 });
  const status = (
    s: Partial<{ is_running: boolean; current_step: string; progress: number; error: string }>,
  ) => ({
    ok: true as const,
    status: { is_running: true, current_step: '', progress: 0, ...s },
  });

  it('polls every 5 s, gives up after 300 s, reloads 2 s after the end', () => {
    expect([UPDATE_POLL_MS, UPDATE_TIMEOUT_MS, UPDATE_RELOAD_MS]).toEqual([5000, 300_000, 2000]);
  });
  it('shows the step and progress while it runs', () => {
    expect(
      afterPoll(running, status({ current_step: 'Перезапуск сервиса auth', progress: 42.4 }), 5000),
    ).toEqual({
      view: { phase: 'running', step: 'Перезапуск сервиса auth', progress: 42, waiting: false },
      next: 'poll',
    });
  });
  it("finishes at 'Завершено' when no longer running, then reloads", () => {
    expect(
      afterPoll(running, status({ is_running: false, current_step: 'Завершено', progress: 100 }), 60_000),
    ).toEqual({
      view: { phase: 'done', step: 'Завершено', progress: 100 },
      next: 'reload',
    });
    // Still running at the last step: not yet.
    expect(afterPoll(running, status({ is_running: true, current_step: 'Завершено' }), 60_000).next).toBe(
      'poll',
    );
  });
  it('a failing status call: waiting, the last step kept, a health check', () => {
    const mid = afterPoll(
      running,
      status({ current_step: 'Перезапуск сервиса boards', progress: 50 }),
      5000,
    ).view;
    expect(afterPoll(mid, { ok: false }, 10_000)).toEqual({
      view: { phase: 'running', step: 'Перезапуск сервиса boards', progress: 50, waiting: true },
      next: 'health',
    });
  });
  it('after 5 minutes it stops with a message to reload by hand', () => {
    expect(afterPoll(running, { ok: false }, 300_000)).toEqual({ view: { phase: 'timedOut' }, next: 'stop' });
    expect(afterPoll(running, status({ current_step: 'x' }), 300_001).next).toBe('stop');
  });
  it('an update that failed on the server stops with its error', () => {
    expect(
      afterPoll(
        running,
        status({ is_running: false, current_step: 'Перезапуск сервиса auth', error: 'не запустился' }),
        5000,
      ),
    ).toEqual({
      view: { phase: 'failed', message: 'не запустился' },
      next: 'stop',
    });
  });
});
