import { useEffect } from 'react';
import { Link, useRouteError } from 'react-router-dom';
import styles from './RouteError.module.css';
// Straight from the module, not the ui barrel: this page is in the entry chunk, the barrel would pull every Radix primitive into it.
import { Button, buttonClass } from '../components/ui/Button.tsx';

const TEXT = {
  title: 'Не удалось открыть страницу',
  body: 'Попробуйте обновить страницу. Если ошибка повторяется, вернитесь к доскам.',
  reload: 'Обновить страницу',
  home: 'К моим доскам',
};

/** What the user sees when a route throws: a way out, no stack trace (the details go to the console). */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main className={styles.page} data-testid="route-error">
      <h1>{TEXT.title}</h1>
      <p>{TEXT.body}</p>
      <div className={styles.actions}>
        <Button variant="primary" onClick={() => window.location.reload()}>
          {TEXT.reload}
        </Button>
        <Link to="/dashboard" className={buttonClass({ variant: 'secondary' })}>
          {TEXT.home}
        </Link>
      </div>
    </main>
  );
}
