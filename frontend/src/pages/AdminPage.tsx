import { AdminPanel } from '../features/admin/AdminPanel.tsx';
import { SPEC_TEXTS } from '../features/admin/specTexts.ts';
import { useDocumentTitle } from '../lib/useDocumentTitle.ts';

/** /admin (spec §2 Admin panel): the admin feature's panel. */
export function AdminPage() {
  useDocumentTitle(SPEC_TEXTS.adminLabel);
  return <AdminPanel />;
}
