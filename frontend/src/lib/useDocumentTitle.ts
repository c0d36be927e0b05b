import { useEffect } from 'react';
import { PRODUCT_NAME } from '../components/Logo.tsx';

/** Sets the tab title to "<title> — <product>" while the page is shown. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title ? `${title} — ${PRODUCT_NAME}` : previous;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
