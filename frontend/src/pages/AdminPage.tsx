import { AdminPanel } from '../features/admin/AdminPanel.tsx';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

/** /admin (spec §2 Admin panel): the admin feature's panel. */
export function AdminPage() {
  useDocumentTitle('Администратор');
  return <AdminPanel />;
}
