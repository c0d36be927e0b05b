export const LOADING_TEXT = 'Загрузка...';

export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' | 'lg' }) {
  return <span className={`spinner spinner--${size}`} aria-hidden="true" />;
}

/** Shown while authentication initialises (spec §2). */
export function FullScreenLoader() {
  return (
    <div className="fullscreen-loader" role="status" aria-live="polite" data-testid="app-loading">
      <Spinner size="lg" />
      <p>{LOADING_TEXT}</p>
    </div>
  );
}
