import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useAppSelector } from '../../app/store.ts';
import { ConfirmDialog, Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/index.ts';
import { selectUser } from '../auth/authSlice.ts';
import { AdminHeader } from './AdminHeader.tsx';
import { logFailure } from './alerts.ts';
import { useGetAdminStatsQuery } from './adminApi.ts';
import { OverviewTab } from './OverviewTab.tsx';
import { PaymentsTab } from './PaymentsTab.tsx';
import { PlansTab } from './PlansTab.tsx';
import { SettingsTab } from './SettingsTab.tsx';
import { SPEC_TEXTS, TAB_TITLES } from './specTexts.ts';
import { StatsCounters } from './StatsCounters.tsx';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { SystemTab } from './SystemTab.tsx';
import { TEXTS } from './texts.ts';
import { UpdateOverlay } from './UpdateOverlay.tsx';
import { UsersTab } from './UsersTab.tsx';
import { useSystemUpdate } from './useSystemUpdate.ts';
import styles from './admin.module.css';

export type AdminTab = keyof typeof TAB_TITLES;
const TABS = Object.keys(TAB_TITLES) as AdminTab[];

/**
 * Spec §2 Admin panel (/admin). Only the selected tab is mounted, so its data loads when it is
 * chosen; the counters reload with every tab change and search (§4 Admin data refresh).
 */
export function AdminPanel() {
  const user = useAppSelector(selectUser);
  const [tab, setTab] = useState<AdminTab>('overview');
  const [confirmUpdate, setConfirmUpdate] = useState(false);
  const stats = useGetAdminStatsQuery(undefined, { refetchOnMountOrArgChange: true });
  const { refetch } = stats;
  const refreshStats = useCallback(() => void refetch(), [refetch]);
  const update = useSystemUpdate();
  useEffect(() => {
    if (stats.error) logFailure('stats', stats.error);
  }, [stats.error]);

  const panels: Record<AdminTab, () => ReactNode> = {
    overview: () => <OverviewTab />,
    system: () => <SystemTab />,
    plans: () => <PlansTab />,
    users: () => <UsersTab onSearchChange={refreshStats} />,
    subscriptions: () => <SubscriptionsTab onSearchChange={refreshStats} />,
    payments: () => <PaymentsTab />,
    settings: () => <SettingsTab />,
  };

  return (
    <div className="app-shell">
      <AdminHeader
        name={user?.name ?? ''}
        onUpdate={() => setConfirmUpdate(true)}
        updating={update.view.phase !== 'idle'}
      />
      <main className={styles.main} data-testid="admin-page">
        <h1 className={styles.title}>{TEXTS.pageTitle}</h1>
        <StatsCounters stats={stats.data} />
        <Tabs
          value={tab}
          onValueChange={(v) => {
            setTab(v as AdminTab);
            refreshStats();
          }}
        >
          <TabsList aria-label={TEXTS.pageTitle}>
            {TABS.map((t) => (
              <TabsTrigger key={t} value={t} data-testid={`admin-tab-${t}`}>
                {TAB_TITLES[t]}
              </TabsTrigger>
            ))}
          </TabsList>
          {TABS.map((t) => (
            <TabsContent key={t} value={t} data-testid={`admin-panel-${t}`}>
              {tab === t ? panels[t]() : null}
            </TabsContent>
          ))}
        </Tabs>
      </main>
      {confirmUpdate ? (
        <ConfirmDialog
          title={TEXTS.update.title}
          message={SPEC_TEXTS.confirmUpdate}
          confirmLabel={TEXTS.update.confirmLabel}
          testId="confirm-update"
          confirmTestId="confirm-update-ok"
          onClose={() => setConfirmUpdate(false)}
          onConfirm={() => update.start()}
        />
      ) : null}
      <UpdateOverlay view={update.view} onDismiss={update.dismiss} />
    </div>
  );
}
