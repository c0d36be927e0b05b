/** Texts of "Мой тариф" and of the checkout result (the spec is silent: ours, docs/decisions.md). Pure, unit-testable. */
import type { OrderAnswer, SubscriptionStatus } from '@wb/contracts';

export const MY_PLAN_TITLE = 'Мой тариф';
export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Активна',
  grace: 'Льготный период',
  expired: 'Истекла',
};
export const AUTO_RENEW_LABEL = 'Автопродление';
export const AUTO_RENEW_ERROR = 'Не удалось изменить автопродление';
export const PAYMENTS_TITLE = 'История платежей';
export const PAYMENTS_EMPTY = 'Платежей пока не было';
export const PAYMENT_STATUS: Record<'paid' | 'failed', string> = { paid: 'Оплачен', failed: 'Отклонён' };
export const RECEIPT_LABEL = 'Скачать чек (PDF)';
export const RECEIPT_ERROR = 'Не удалось скачать чек';
export const LOAD_ERROR = 'Не удалось загрузить данные о тарифе';
export const CHANGE_PLAN = 'Сменить тариф';
export const CHOOSE_PLAN = 'Выбрать тариф';

export const formatDate = (iso: string) =>
  new Intl.DateTimeFormat('ru-RU', { day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(iso));

export function renewalNote(status: SubscriptionStatus, autoRenew: boolean, expiresAt: string): string {
  const date = formatDate(expiresAt);
  if (status === 'expired') return `Подписка закончилась ${date}. Сейчас действует бесплатный тариф.`;
  if (status === 'grace') return `Оплаченный период закончился ${date}. Тариф сохраняется на льготный период — продлите его, чтобы не потерять возможности.`;
  return autoRenew
    ? `Действует до ${date}. Автопродление включено.`
    : `Действует до ${date}. Автопродление выключено: тариф сохранится до этой даты и не продлится.`;
}

export interface CheckoutMessage {
  tone: 'success' | 'error' | 'info';
  title: string;
  text: string;
}

/**
 * What the dashboard says after a checkout, from the order as billing sees it (not from the
 * address the provider sent the browser to): declining an order that was already paid says the
 * plan did change.
 */
export function checkoutMessage(returned: 'success' | 'declined', answer: OrderAnswer): CheckoutMessage {
  const { order, subscription } = answer;
  const until = subscription && subscription.plan_name === order.plan_name ? ` до ${formatDate(subscription.expires_at)}` : '';
  if (order.status === 'paid') {
    return returned === 'success'
      ? { tone: 'success', title: 'Оплата прошла успешно', text: `Тариф «${order.plan_name}» подключён${until}.` }
      : {
          tone: 'success',
          title: 'Этот заказ уже оплачен',
          text: `Отклонить его нельзя: оплата прошла, тариф изменён — «${order.plan_name}» подключён${until}.`,
        };
  }
  if (order.status === 'failed') {
    return { tone: 'error', title: 'Оплата отклонена', text: `Тариф не изменился. Попробуйте оплатить ещё раз на странице тарифов.` };
  }
  return { tone: 'info', title: 'Оплата обрабатывается', text: 'Тариф изменится, как только платёжная система подтвердит оплату.' };
}
