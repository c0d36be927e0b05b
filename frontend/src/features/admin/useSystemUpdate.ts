import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/store.ts';
import { failWith, succeed } from './alerts.ts';
import { adminApi, useStartUpdateMutation } from './adminApi.ts';
import { SPEC_TEXTS } from './specTexts.ts';
import { TEXTS } from './texts.ts';
import {
  UPDATE_POLL_MS,
  UPDATE_RELOAD_MS,
  afterPoll,
  startedView,
  type PollOutcome,
  type UpdateView,
} from './updatePolicy.ts';

/**
 * Spec §4 System update in the page: start it, poll its status every 5 s (updatePolicy.ts decides
 * what each answer means), try the health check while the status call fails, reload 2 s after
 * 'Завершено'. Timers stop when the page goes away.
 */
export function useSystemUpdate() {
  const dispatch = useAppDispatch();
  const [startUpdate] = useStartUpdateMutation();
  const [view, setView] = useState<UpdateView>({ phase: 'idle' });
  const current = useRef<UpdateView>(view);
  const startedAt = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, []);

  const apply = useCallback((v: UpdateView) => {
    current.current = v;
    setView(v);
  }, []);

  const poll = useCallback(async (): Promise<void> => {
    let outcome: PollOutcome;
    try {
      const status = await dispatch(
        adminApi.endpoints.getUpdateStatus.initiate(undefined, { subscribe: false, forceRefetch: true }),
      ).unwrap();
      outcome = { ok: true, status };
    } catch {
      outcome = { ok: false };
    }
    if (!alive.current) return;
    const { view: next, next: action } = afterPoll(current.current, outcome, Date.now() - startedAt.current);
    apply(next);
    const again = () => {
      timer.current = setTimeout(() => void poll(), UPDATE_POLL_MS);
    };
    if (action === 'poll') again();
    else if (action === 'health') {
      // The services are restarting: a readiness check, whose answer only shows in the browser's log.
      await dispatch(
        adminApi.endpoints.getHealth.initiate(undefined, { subscribe: false, forceRefetch: true }),
      )
        .unwrap()
        .catch((err: unknown) => console.info('admin: health check while updating', err));
      if (alive.current) again();
    } else if (action === 'reload') {
      succeed(TEXTS.update.done);
      timer.current = setTimeout(() => window.location.reload(), UPDATE_RELOAD_MS);
    }
  }, [apply, dispatch]);

  const start = useCallback(async () => {
    try {
      const answer = await startUpdate().unwrap();
      startedAt.current = Date.now();
      apply(startedView(answer));
      timer.current = setTimeout(() => void poll(), UPDATE_POLL_MS);
    } catch (err) {
      failWith(SPEC_TEXTS.updateStartError, err);
    }
  }, [apply, poll, startUpdate]);

  const dismiss = useCallback(() => apply({ phase: 'idle' }), [apply]);

  return { view, start, dismiss };
}
