/** Price and plan texts of spec §2 "Pricing page" and §9. Pure, unit-tested. */
import type { Plan, PlanLimits, PlanVariant } from './types.ts';

export const FREE_PRICE_TEXT = 'Бесплатно';
export const POPULAR_BADGE_TEXT = 'Популярный';
export const INCLUDED_TITLE = 'Что включено';

/** Minor units / 100 in the Russian locale; 0 is 'Бесплатно'; default currency RUB. */
export function formatPrice(priceMinor: number, currency?: string | null): string {
  if (!priceMinor) return FREE_PRICE_TEXT;
  return new Intl.NumberFormat('ru-RU', {
    style: 'currency',
    currency: currency || 'RUB',
    minimumFractionDigits: priceMinor % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(priceMinor / 100);
}

/** 30 days is a month, 365 a year, anything else N days. */
export function formatPeriod(days: number): string {
  if (days === 30) return 'за месяц';
  if (days === 365) return 'за год';
  return `за ${days} дней`;
}

export function boardLimitText(max: number | undefined): string | null {
  if (max === undefined || max === null) return null;
  return max === -1 ? 'Неограниченное количество досок' : `До ${max} досок`;
}

export function isPopularPlan(plan: Pick<Plan, 'name'>): boolean {
  return plan.name.trim().toLowerCase() === 'pro';
}

export function activeVariants(plan: Plan): PlanVariant[] {
  return (plan.variants ?? []).filter((v) => v.is_active !== false).sort((a, b) => a.days - b.days);
}

/** The included-features list of a plan card. */
export function planFeatures(plan: { limits_json?: Partial<PlanLimits> | null }): string[] {
  const l = plan.limits_json ?? {};
  const out: string[] = [];
  const boards = boardLimitText(l.max_board_count);
  if (boards) out.push(boards);
  if (l.max_canvas_extent_w && l.max_canvas_extent_h) {
    out.push(
      `Холст ${l.max_canvas_extent_w.toLocaleString('ru-RU')}×${l.max_canvas_extent_h.toLocaleString('ru-RU')} px`,
    );
  }
  out.push('Экспорт в PNG и SVG');
  if (l.export_pdf_enabled) out.push('Экспорт в PDF');
  out.push('Совместная работа в реальном времени', 'Доступ по ссылке', 'Автосохранение');
  return out;
}
