/**
 * The signed-in header's 'current/max' outside the dashboard (which passes the limits of its own
 * list). One board is the smallest page the boards service answers with its limits; every board
 * change invalidates 'Boards', so the header follows.
 */
import { baseApi } from './baseApi.ts';
import type { BoardLimits, BoardsListAnswer } from '@wb/contracts';

const boardLimitsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getBoardLimits: build.query<BoardLimits, void>({
      query: () => ({ url: '/boards', params: { limit: 1 } }),
      transformResponse: (answer: BoardsListAnswer) => answer.limits,
      providesTags: ['Boards'],
    }),
  }),
});

export const { useGetBoardLimitsQuery } = boardLimitsApi;
