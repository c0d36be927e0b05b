import { CheckoutResult } from '../features/billing/CheckoutResult.tsx';
import { Dashboard } from '../features/dashboard/Dashboard.tsx';

/** /dashboard (spec §2): folders panel, board grid, modals; see features/dashboard (styles are CSS modules beside each part). */
export function DashboardPage() {
  return (
    <>
      <CheckoutResult />
      <Dashboard />
    </>
  );
}
