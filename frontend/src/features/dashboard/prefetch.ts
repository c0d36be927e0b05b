import type { AppDispatch } from '../../app/store.ts';
import { dashboardApi } from './api.ts';
import { filtersToQuery } from './logic.ts';

/** The dashboard's first view: every board, no search, no tags (what useDashboardData asks for first). */
export const FIRST_VIEW_QUERY = filtersToQuery({ folder: { kind: 'all' }, search: '', tagIds: [] });

/**
 * Starts the dashboard's three calls while auth is still verifying the session, so the first cards
 * do not wait for verify → page render → request in turn. The page's hooks then find them in the
 * cache (or in flight). A token that turns out to be stale goes through the one shared refresh.
 */
export function prefetchDashboard(dispatch: AppDispatch): void {
  void dispatch(dashboardApi.endpoints.getBoards.initiate(FIRST_VIEW_QUERY, { subscribe: false }));
  void dispatch(dashboardApi.endpoints.getFolders.initiate(undefined, { subscribe: false }));
  void dispatch(dashboardApi.endpoints.getTags.initiate(undefined, { subscribe: false }));
}
