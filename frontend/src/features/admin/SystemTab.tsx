import { RefreshCwIcon } from 'lucide-react';
import { Button } from '../../components/ui/index.ts';
import { failWith } from './alerts.ts';
import { useGetDockerQuery, useGetSystemQuery, useRefreshCacheMutation } from './adminApi.ts';
import { ContainerCard } from './ContainerCard.tsx';
import { formatDateTime, formatGb } from './format.ts';
import { Gauge } from './Gauge.tsx';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import a from './admin.module.css';
import styles from './system.module.css';

/** §4 Admin data refresh / §9: the system tab refreshes every 30 s. */
export const SYSTEM_REFRESH_MS = 30_000;

const T = TEXTS.system;
const live = {
  pollingInterval: SYSTEM_REFRESH_MS,
  skipPollingIfUnfocused: false,
  refetchOnMountOrArgChange: true,
} as const;

/** Spec §2 Система: host gauges, the cache badge and refresh, the containers with their count and health line. */
export function SystemTab() {
  const system = useGetSystemQuery(undefined, live);
  const docker = useGetDockerQuery(undefined, live);
  const [refreshCache, { isLoading: refreshing }] = useRefreshCacheMutation();

  const retry = () => {
    void system.refetch();
    void docker.refetch();
  };
  const onRefreshCache = async () => {
    try {
      await refreshCache().unwrap();
    } catch (err) {
      failWith(SPEC_TEXTS.cacheError, err);
    }
  };

  if (system.isError && !system.isFetching) {
    return (
      <div className={a.errorPanel} role="alert" data-testid="system-error">
        <span>{SPEC_TEXTS.systemError}</span>
        <Button variant="secondary" size="sm" onClick={retry} data-testid="system-retry">
          {T.retry}
        </Button>
      </div>
    );
  }
  const s = system.data;
  const d = docker.data;
  // The product is up when its containers could be read and every one of them runs.
  const up = !!d && !d.error && d.total > 0 && d.running === d.total;
  return (
    <section aria-label={T.containers} data-testid="system-tab">
      {s ? (
        <>
          <div className={styles.gauges}>
            <Gauge id="cpu" label={T.cpu} usage={s.cpu.usage} detail={T.cores(s.cpu.cores)} />
            <Gauge
              id="memory"
              label={T.memory}
              usage={s.memory.usage}
              detail={`${formatGb(s.memory.used)} / ${formatGb(s.memory.total)}`}
            />
            <Gauge
              id="disk"
              label={T.disk}
              usage={s.disk.usage}
              detail={`${formatGb(s.disk.used)} / ${formatGb(s.disk.total)} · ${s.disk.mount}`}
            />
          </div>
          <div className={styles.meta}>
            <span className={`${a.badge} ${s.cached ? a.yellow : a.green}`} data-testid="cache-badge">
              {s.cached ? T.cached : T.fresh}
            </span>
            <Button
              variant="secondary"
              size="sm"
              loading={refreshing}
              onClick={() => void onRefreshCache()}
              data-testid="refresh-cache"
            >
              <RefreshCwIcon size={14} aria-hidden="true" /> {T.refreshCache}
            </Button>
            <span data-testid="system-updated">
              {T.updatedAt}: <time dateTime={s.cacheTime}>{formatDateTime(s.cacheTime)}</time>
            </span>
          </div>
        </>
      ) : (
        <p className={a.muted}>…</p>
      )}
      <div className={styles.containersHead}>
        <h2>{T.containers}</h2>
        {d ? <span data-testid="containers-count">{T.runningOf(d.running, d.total)}</span> : null}
        {d || docker.isError ? (
          <span className={up ? styles.health_up : styles.health_down} data-testid="system-health">
            {up ? SPEC_TEXTS.systemUp : SPEC_TEXTS.systemDown}
          </span>
        ) : null}
      </div>
      {d?.error ? (
        <p className={styles.cardError} data-testid="docker-error">
          {d.error}
        </p>
      ) : null}
      {d && d.containers.length > 0 ? (
        <ul className={styles.cards} data-testid="containers">
          {d.containers.map((c) => (
            <ContainerCard key={c.id} c={c} now={Date.now()} />
          ))}
        </ul>
      ) : d ? (
        <p className={a.empty}>{T.noContainers}</p>
      ) : null}
    </section>
  );
}
