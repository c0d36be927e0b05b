import { describe, expect, it } from 'vitest';
import type { OrderAnswer } from '@wb/contracts';
import { checkoutMessage, formatDate, renewalNote, STATUS_LABELS } from '../../src/features/billing/myPlanTexts.ts';

const EXPIRES = '2026-12-27T10:00:00.000Z';
const answer = (status: OrderAnswer['order']['status'], planOnSub = 'Pro'): OrderAnswer => ({
  order: { id: 'o', plan_name: 'Pro', days: 30, amount_minor: 49900, currency: 'RUB', status, created_at: EXPIRES },
  subscription: {
    id: 's',
    user_id: 'u',
    user_name: null,
    plan_id: 'p',
    plan_name: planOnSub,
    status: 'active',
    calculated_status: 'active',
    expires_at: EXPIRES,
    auto_renew: true,
  },
});

describe('"Мой тариф" texts', () => {
  it('names the three statuses as users read them', () => {
    expect(STATUS_LABELS).toEqual({ active: 'Активна', grace: 'Льготный период', expired: 'Истекла' });
  });

  it('says what happens at expiry with auto-renew on and off', () => {
    const date = formatDate(EXPIRES);
    expect(renewalNote('active', true, EXPIRES)).toBe(`Действует до ${date}. Автопродление включено.`);
    expect(renewalNote('active', false, EXPIRES)).toContain('тариф сохранится до этой даты и не продлится');
    expect(renewalNote('grace', true, EXPIRES)).toContain(`Оплаченный период закончился ${date}`);
    expect(renewalNote('expired', true, EXPIRES)).toContain('Сейчас действует бесплатный тариф');
  });
});

describe('the dashboard after a checkout', () => {
  it('follows the order, not the address: paid, declined, declined after paying, pending', () => {
    const date = formatDate(EXPIRES);
    expect(checkoutMessage('success', answer('paid'))).toEqual({
      tone: 'success',
      title: 'Оплата прошла успешно',
      text: `Тариф «Pro» подключён до ${date}.`,
    });
    expect(checkoutMessage('declined', answer('failed'))).toMatchObject({ tone: 'error', title: 'Оплата отклонена' });
    expect(checkoutMessage('success', answer('failed')).title).toBe('Оплата отклонена');
    const paidAnyway = checkoutMessage('declined', answer('paid'));
    expect(paidAnyway.title).toBe('Этот заказ уже оплачен');
    expect(paidAnyway.text).toContain('тариф изменён');
    expect(checkoutMessage('success', answer('pending')).title).toBe('Оплата обрабатывается');
    // A later purchase of another plan replaced this one: no date that belongs to another plan.
    expect(checkoutMessage('success', answer('paid', 'Team')).text).toBe('Тариф «Pro» подключён.');
  });
});
