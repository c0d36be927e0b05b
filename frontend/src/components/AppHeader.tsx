import type { ReactNode } from 'react';
import type { BoardLimits } from '@wb/contracts';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { selectUser } from '../features/auth/authSlice.ts';
import { CrownIcon, PanelsTopLeftIcon, SparklesIcon } from 'lucide-react';
import { Logo } from './Logo.tsx';
import { buttonClass } from './ui/index.ts';
import { UserMenu } from './UserMenu.tsx';
import { formatBoardCount } from '../lib/boardCount.ts';
import { useGetBoardLimitsQuery } from '../api/boardLimits.ts';

interface Props {
  /** The dashboard passes its list's limits (null while they load); without the prop the header asks the boards service itself. */
  limits?: BoardLimits | null;
  /** Extra controls shown before the links (e.g. a mobile folders toggle). */
  leading?: ReactNode;
}

export const UPGRADE_PLAN_TEXT = 'Обновить план';

/**
 * The header of the signed-in area: board count 'current/max', upgrade and pricing links,
 * the admin link for admins, and the user menu. Reused by the dashboard.
 */
export function AppHeader({ limits: passed, leading }: Props) {
  const user = useAppSelector(selectUser);
  const own = useGetBoardLimitsQuery(undefined, { skip: passed !== undefined || !user });
  const limits = passed ?? own.data ?? null;
  if (!user) return null;
  const current = limits?.current ?? user.boards_count ?? 0;
  const count = formatBoardCount(current, limits?.max);

  return (
    <header className="app-header">
      <div className="app-header__inner">
        {leading}
        <Logo to="/dashboard" />
        <div className="app-header__spacer" />
        <div className="board-count" title="Досок создано / доступно по тарифу" data-testid="board-count">
          <PanelsTopLeftIcon size={16} aria-hidden="true" />
          <span>{count}</span>
        </div>
        {limits && !limits.canCreate ? (
          // Narrow screens keep the icon only (its name stays UPGRADE_PLAN_TEXT), so the header fits.
          <Link
            to="/pricing"
            className={`${buttonClass({ variant: 'accent', size: 'sm' })} app-header__upgrade`}
            aria-label={UPGRADE_PLAN_TEXT}
            data-testid="upgrade-link"
          >
            <SparklesIcon size={16} aria-hidden="true" />
            <span className="app-header__upgrade-text">{UPGRADE_PLAN_TEXT}</span>
          </Link>
        ) : null}
        <Link to="/pricing" className="app-header__link" data-testid="pricing-link">
          Тарифы
        </Link>
        {user.isAdmin ? (
          <Link to="/admin" className="app-header__link app-header__link--admin" data-testid="admin-link">
            <CrownIcon size={16} aria-hidden="true" />
            <span>Админ-панель</span>
          </Link>
        ) : null}
        <UserMenu user={user} />
      </div>
    </header>
  );
}
