import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { AppHeader } from '../components/AppHeader.tsx';
import { LayoutIcon } from '../components/icons.tsx';
import { selectUser } from '../features/auth/authSlice.ts';

/**
 * Placeholder: the dashboard feature (folders panel, board grid, modals) replaces the body.
 * Keep <AppHeader/> at the top and pass it the `limits` of GET /boards.
 */
export function DashboardPage() {
  const user = useAppSelector(selectUser);
  return (
    <div className="app-shell">
      <AppHeader />
      <main className="page" data-testid="dashboard-page">
        <h1 className="page__title">Все доски</h1>
        <div className="empty-state">
          <div className="empty-state__icon">
            <LayoutIcon size={28} />
          </div>
          <h2>Пока нет досок</h2>
          <p>{user ? `${user.name}, здесь появятся ваши доски, папки и теги.` : null}</p>
          <Link to="/pricing" className="btn btn--secondary">
            Тарифы
          </Link>
        </div>
      </main>
    </div>
  );
}
