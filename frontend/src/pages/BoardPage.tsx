import { useDocumentTitle } from '../lib/useDocumentTitle.ts';
import { Link, useParams } from 'react-router-dom';
import { useAppSelector } from '../app/store.ts';
import { ArrowLeftIcon } from 'lucide-react';
import { selectUser } from '../features/auth/authSlice.ts';

/** Placeholder of the board page (canvas, realtime) — see spec/board-page.md. */
export function BoardPage() {
  useDocumentTitle('Доска');
  const { id } = useParams();
  const user = useAppSelector(selectUser);
  return (
    <div className="board-placeholder" data-testid="board-page" data-board-id={id}>
      <header className="board-placeholder__bar">
        {user ? (
          <Link to="/dashboard" className="back-link">
            <ArrowLeftIcon size={16} /> К доскам
          </Link>
        ) : null}
        <h1 className="board-placeholder__title">Доска</h1>
      </header>
      <div className="board-placeholder__canvas" />
    </div>
  );
}
