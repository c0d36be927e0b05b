import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { Link } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { ArrowLeftIcon } from 'lucide-react';
import { selectUser } from '../features/auth/authSlice.ts';

/** Placeholder of the admin panel: the admin feature replaces the body (stats, tabs, modals). */
export function AdminPage() {
  useDocumentTitle('Администратор');
  const user = useAppSelector(selectUser);
  return (
    <div className="app-shell">
      <header className="app-header">
        <div className="app-header__inner">
          <Link to="/dashboard" className="back-link">
            <ArrowLeftIcon size={16} /> К доскам
          </Link>
          <div className="app-header__spacer" />
          <span className="admin-who">
            {user?.name} <span className="badge">Администратор</span>
          </span>
        </div>
      </header>
      <main className="page" data-testid="admin-page">
        <h1 className="page__title">Панель администратора</h1>
        <p className="page__lead">Статистика, тарифы, пользователи и подписки появятся здесь.</p>
      </main>
    </div>
  );
}
