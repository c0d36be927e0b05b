/**
 * Boards, folders and tags calls of the dashboard (spec §7), injected into the one RTK Query API.
 * Cache tags: 'Boards' (every list), 'Folders' (the tree, whose board counts follow the boards),
 * 'Tags' (the user's tags; boards show tags too, so tag changes refresh them).
 */
import { baseApi } from '../../api/baseApi.ts';
import type { BoardsQuery } from './logic.ts';
import type {
  BoardAnswer,
  BoardsListAnswer,
  FolderAnswer,
  FoldersAnswer,
  ShareRole,
  TagAnswer,
  TagsAnswer,
} from '@wb/contracts';

export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    // ---- boards ----
    /** GET /boards page by page (the service pages with `limit` + `cursor`; an invalidation refetches every loaded page). */
    getBoards: build.infiniteQuery<BoardsListAnswer, BoardsQuery, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor ?? undefined,
      },
      query: ({ queryArg, pageParam }) => ({
        url: '/boards',
        params: pageParam ? { ...queryArg, cursor: pageParam } : { ...queryArg },
      }),
      providesTags: ['Boards'],
    }),
    createBoard: build.mutation<BoardAnswer, { title: string; folder_id: string | null }>({
      query: (body) => ({ url: '/boards', method: 'POST', body }),
      invalidatesTags: ['Boards', 'Folders'],
    }),
    renameBoard: build.mutation<BoardAnswer, { id: string; title: string }>({
      query: ({ id, title }) => ({ url: `/boards/${id}`, method: 'PATCH', body: { title } }),
      invalidatesTags: ['Boards'],
    }),
    deleteBoard: build.mutation<unknown, string>({
      query: (id) => ({ url: `/boards/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Boards', 'Folders'],
    }),
    setSharing: build.mutation<BoardAnswer, { id: string; enabled: boolean }>({
      query: ({ id, enabled }) => ({ url: `/boards/${id}/sharing`, method: 'PUT', body: { enabled } }),
      invalidatesTags: ['Boards'],
    }),
    setRoleLinks: build.mutation<BoardAnswer, { id: string; enabledRoles: ShareRole[]; rotate?: boolean }>({
      query: ({ id, enabledRoles, rotate }) => ({
        url: `/boards/${id}/multiple-links`,
        method: 'POST',
        body: rotate ? { enabledRoles, rotate: true } : { enabledRoles },
      }),
      invalidatesTags: ['Boards'],
    }),

    // ---- folders ----
    getFolders: build.query<FoldersAnswer, void>({
      query: () => '/folders',
      providesTags: ['Folders'],
    }),
    createFolder: build.mutation<
      FolderAnswer,
      { name: string; parent_id: string | null; color: string }
    >({
      query: (body) => ({ url: '/folders', method: 'POST', body }),
      invalidatesTags: ['Folders'],
    }),
    updateFolder: build.mutation<
      FolderAnswer,
      { id: string; name?: string; color?: string; parent_id?: string | null }
    >({
      query: ({ id, ...body }) => ({ url: `/folders/${id}`, method: 'PATCH', body }),
      // Boards carry folder_name / folder_color.
      invalidatesTags: ['Folders', 'Boards'],
    }),
    deleteFolder: build.mutation<unknown, string>({
      query: (id) => ({ url: `/folders/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Folders', 'Boards'],
    }),
    moveBoard: build.mutation<unknown, { board_id: string; folder_id: string | null }>({
      query: (body) => ({ url: '/folders/move-board', method: 'POST', body }),
      invalidatesTags: ['Folders', 'Boards'],
    }),
    moveFolderToPosition: build.mutation<
      unknown,
      { folder_id: string; parent_id: string | null; target_folder_id: string; position: 'before' | 'after' }
    >({
      query: (body) => ({ url: '/folders/move-to-position', method: 'POST', body }),
      invalidatesTags: ['Folders'],
    }),
    reorderFolders: build.mutation<unknown, { parent_id: string | null; folder_ids: string[] }>({
      query: (body) => ({ url: '/folders/reorder', method: 'POST', body }),
      invalidatesTags: ['Folders'],
    }),

    // ---- tags ----
    getTags: build.query<TagsAnswer, void>({
      query: () => '/tags',
      providesTags: ['Tags'],
    }),
    createTag: build.mutation<TagAnswer, { name: string; color: string }>({
      query: (body) => ({ url: '/tags', method: 'POST', body }),
      invalidatesTags: ['Tags'],
    }),
    updateTag: build.mutation<TagAnswer, { id: string; name: string; color: string }>({
      query: ({ id, ...body }) => ({ url: `/tags/${id}`, method: 'PUT', body }),
      invalidatesTags: ['Tags', 'Boards'],
    }),
    deleteTag: build.mutation<unknown, string>({
      query: (id) => ({ url: `/tags/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Tags', 'Boards'],
    }),
    getBoardTags: build.query<TagsAnswer, string>({
      query: (id) => `/tags/board/${id}`,
      providesTags: ['Tags'],
    }),
    setBoardTags: build.mutation<TagsAnswer, { id: string; tagIds: string[] }>({
      query: ({ id, tagIds }) => ({ url: `/tags/board/${id}`, method: 'PUT', body: { tagIds } }),
      invalidatesTags: ['Boards', 'Tags'],
    }),
  }),
});

export const {
  useGetBoardsInfiniteQuery,
  useCreateBoardMutation,
  useRenameBoardMutation,
  useDeleteBoardMutation,
  useSetSharingMutation,
  useSetRoleLinksMutation,
  useGetFoldersQuery,
  useCreateFolderMutation,
  useUpdateFolderMutation,
  useDeleteFolderMutation,
  useMoveBoardMutation,
  useMoveFolderToPositionMutation,
  useReorderFoldersMutation,
  useGetTagsQuery,
  useCreateTagMutation,
  useUpdateTagMutation,
  useDeleteTagMutation,
  useGetBoardTagsQuery,
  useSetBoardTagsMutation,
} = dashboardApi;
