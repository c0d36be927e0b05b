/**
 * Calls of the board page (spec §7), injected into the one RTK Query API. The board itself is read
 * with `x-share-token` when the page was opened through a link; without a login that is the only
 * credential and the call gives up after 10 s (§4).
 */
import type { BoardBackground, BoardListItem, CameraDevice, CameraPosition, CanvasLimits, PublicBoardView } from '@wb/contracts';
import { baseApi } from '../../../api/baseApi.ts';

export const LINK_ONLY_TIMEOUT_MS = 10_000;

export interface BoardPageAnswer {
  board: PublicBoardView;
  canvasLimits: CanvasLimits;
  currentUser: { id: string; name: string } | null;
}

export interface SnapshotRow {
  id: string;
  version: number;
  created_at: string;
  blob_size: number;
  status: 'empty' | 'small' | 'normal';
}
export interface SnapshotStats {
  total: number;
  content_count: number;
  empty_count: number;
  max_size: number;
}

export interface BoardQueryArg {
  id: string;
  shareToken: string | null;
  signedIn: boolean;
}

export const boardPageApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getBoardPage: build.query<BoardPageAnswer, BoardQueryArg>({
      query: ({ id, shareToken, signedIn }) => {
        const headers: Record<string, string> = {};
        if (shareToken) headers['x-share-token'] = shareToken;
        // A link visitor without a login sends the token alone (no stale bearer, no refresh loop).
        if (shareToken && !signedIn) headers.Authorization = '';
        return {
          url: `/boards/${encodeURIComponent(id)}`,
          headers,
          ...(shareToken && !signedIn ? { timeout: LINK_ONLY_TIMEOUT_MS } : {}),
        };
      },
      providesTags: (_r, _e, arg) => [{ type: 'Board', id: arg.id }],
    }),
    getCamera: build.query<{ data: CameraPosition | null }, { id: string; device: CameraDevice }>({
      query: ({ id, device }) => `/boards/${encodeURIComponent(id)}/camera?device=${device}`,
      keepUnusedDataFor: 0,
    }),
    saveCamera: build.mutation<unknown, { id: string; camera: CameraPosition }>({
      query: ({ id, camera }) => ({ url: `/boards/${encodeURIComponent(id)}/camera`, method: 'PUT', body: camera }),
    }),
    setBackground: build.mutation<{ board: BoardListItem }, { id: string; background: BoardBackground }>({
      query: ({ id, background }) => ({ url: `/boards/${encodeURIComponent(id)}`, method: 'PATCH', body: { background } }),
      invalidatesTags: ['Boards'],
    }),
    forceSave: build.mutation<
      { duplicate: boolean; objects_count: number; version?: number },
      { boardId: string; clearData?: boolean }
    >({
      // /yjs/* lives beside /api, not under it: an absolute URL bypasses the base.
      query: (body) => ({ url: `${window.location.origin}/yjs/force-save`, method: 'POST', body }),
    }),
    getSnapshots: build.query<{ snapshots: SnapshotRow[]; stats: SnapshotStats }, string>({
      query: (id) => `/boards/${encodeURIComponent(id)}/debug/snapshots`,
      keepUnusedDataFor: 0,
    }),
    deleteEmptySnapshots: build.mutation<{ message: string; deleted?: number }, string>({
      query: (id) => ({ url: `/boards/${encodeURIComponent(id)}/debug/empty-snapshots`, method: 'DELETE' }),
    }),
    getFavoriteEmojis: build.query<{ favorites: string[] }, void>({
      query: () => '/auth/user/favorite-emojis',
    }),
    saveFavoriteEmojis: build.mutation<unknown, string[]>({
      query: (favorites) => ({ url: '/auth/user/favorite-emojis', method: 'PUT', body: { favorites } }),
      // The star changes at once; a refused save puts the list back.
      async onQueryStarted(favorites, { dispatch, queryFulfilled }) {
        void dispatch(boardPageApi.util.upsertQueryData('getFavoriteEmojis', undefined, { favorites }));
        try {
          await queryFulfilled;
        } catch {
          void dispatch(boardPageApi.endpoints.getFavoriteEmojis.initiate(undefined, { forceRefetch: true, subscribe: false }));
        }
      },
    }),
  }),
});

export const {
  useGetBoardPageQuery,
  useGetCameraQuery,
  useSaveCameraMutation,
  useSetBackgroundMutation,
  useForceSaveMutation,
  useLazyGetSnapshotsQuery,
  useDeleteEmptySnapshotsMutation,
  useGetFavoriteEmojisQuery,
  useSaveFavoriteEmojisMutation,
} = boardPageApi;
