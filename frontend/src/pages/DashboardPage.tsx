import { Dashboard } from '../features/dashboard/Dashboard.tsx';
// One stylesheet per part of the page; the layout comes last because its narrow-screen rules
// override the parts (the drawer, the grid).
import '../features/dashboard/styles/board-card.css';
import '../features/dashboard/styles/folders-panel.css';
import '../features/dashboard/styles/dialogs.css';
import '../features/dashboard/styles/tags-modal.css';
import '../features/dashboard/styles/layout.css';

/** /dashboard (spec §2): folders panel, board grid, modals; see features/dashboard. */
export function DashboardPage() {
  return <Dashboard />;
}
