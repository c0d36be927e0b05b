import { Dashboard } from '../features/dashboard/Dashboard.tsx';
import './DashboardPage.css';

/** /dashboard (spec §2): folders panel, board grid, modals; see features/dashboard. */
export function DashboardPage() {
  return <Dashboard />;
}
