import { describe, expect, it } from 'vitest';
import { safeRedirect, loginPathFor } from '../../src/app/navigation.ts';
import { formatBoardCount } from '../../src/lib/boardCount.ts';
import {
  boardLimitText,
  formatPeriod,
  formatPrice,
  isPopularPlan,
  planFeatures,
} from '../../src/features/billing/format.ts';

describe('pricing texts', () => {
  it('formats prices in the Russian locale, 0 as free', () => {
    expect(formatPrice(0)).toBe('Бесплатно');
    expect(formatPrice(99000).replace(/\s/g, ' ')).toBe('990 ₽');
    expect(formatPrice(123456, 'USD').replace(/\s/g, ' ')).toBe('1 234,56 $');
  });
  it('names the periods', () => {
    expect(formatPeriod(30)).toBe('за месяц');
    expect(formatPeriod(365)).toBe('за год');
    expect(formatPeriod(90)).toBe('за 90 дней');
  });
  it('describes the board limit', () => {
    expect(boardLimitText(-1)).toBe('Неограниченное количество досок');
    expect(boardLimitText(3)).toBe('До 3 досок');
    expect(boardLimitText(undefined)).toBeNull();
  });
  it('marks Pro as popular and lists PDF export only when enabled', () => {
    expect(isPopularPlan({ name: 'Pro' })).toBe(true);
    expect(isPopularPlan({ name: 'Free' })).toBe(false);
    const base = { id: 1, name: 'Free', limits_json: { max_board_count: 3, export_pdf_enabled: false } };
    expect(planFeatures(base)).not.toContain('Экспорт в PDF');
    expect(planFeatures({ ...base, limits_json: { export_pdf_enabled: true } })).toContain('Экспорт в PDF');
  });
  it('shows the board count as current/max', () => {
    expect(formatBoardCount(2, 3)).toBe('2/3');
    expect(formatBoardCount(7, -1)).toBe('7/∞');
    expect(formatBoardCount(1, undefined)).toBe('1/—');
  });
});

describe('redirect targets', () => {
  it('only honours paths on this site', () => {
    expect(safeRedirect('/settings')).toBe('/settings');
    expect(safeRedirect('/board/1?token=x')).toBe('/board/1?token=x');
    expect(safeRedirect(null)).toBe('/dashboard');
    expect(safeRedirect('https://evil.example')).toBe('/dashboard');
    expect(safeRedirect('//evil.example')).toBe('/dashboard');
    expect(safeRedirect('/\\evil.example')).toBe('/dashboard');
    expect(safeRedirect('/login?redirect=/x')).toBe('/dashboard');
  });
  it('builds the login path with a return address', () => {
    expect(loginPathFor('/dashboard')).toBe('/login');
    expect(loginPathFor('/settings')).toBe('/login?redirect=%2Fsettings');
  });
});
