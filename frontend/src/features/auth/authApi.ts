import { baseApi } from '../../api/baseApi.ts';
import { userUpdated } from './authSlice.ts';
import type { AuthResponse, UserAnswer } from './types.ts';
import type { ChangePasswordRequest, DeleteAccountRequest, LoginRequest, RegisterRequest, UpdateProfileRequest } from '@wb/contracts';

// The bodies the auth service accepts, as its request schemas infer them.
export type LoginArgs = LoginRequest;
export type RegisterArgs = RegisterRequest;
export type UpdateProfileArgs = UpdateProfileRequest;
export type ChangePasswordArgs = ChangePasswordRequest;

async function storeUser(
  queryFulfilled: Promise<{ data: UserAnswer }>,
  dispatch: (a: unknown) => unknown,
) {
  try {
    const { data } = await queryFulfilled;
    dispatch(userUpdated(data.user));
  } catch {
    /* the page shows the error */
  }
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthResponse, LoginArgs>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    register: build.mutation<AuthResponse, RegisterArgs>({
      query: (body) => ({ url: '/auth/register', method: 'POST', body }),
    }),
    logout: build.mutation<void, { refreshToken: string | null }>({
      query: ({ refreshToken }) => ({
        url: '/auth/logout',
        method: 'POST',
        body: refreshToken ? { refreshToken } : {},
      }),
    }),
    verify: build.query<UserAnswer, void>({
      query: () => '/auth/verify',
      providesTags: ['User'],
    }),
    getProfile: build.query<UserAnswer, void>({
      query: () => '/auth/profile',
      providesTags: ['User'],
    }),
    updateProfile: build.mutation<UserAnswer, UpdateProfileArgs>({
      query: (body) => ({ url: '/auth/profile', method: 'PATCH', body }),
      onQueryStarted: (_arg, { queryFulfilled, dispatch }) => storeUser(queryFulfilled, dispatch),
    }),
    changePassword: build.mutation<{ message?: string }, ChangePasswordArgs>({
      query: (body) => ({ url: '/auth/change-password', method: 'PATCH', body }),
    }),
    // Issue 32 item 13: 204; every session ends on the server before the answer.
    deleteAccount: build.mutation<void, DeleteAccountRequest>({
      query: (body) => ({ url: '/auth/account', method: 'DELETE', body }),
    }),
    changeEmail: build.mutation<UserAnswer, { email: string }>({
      query: (body) => ({ url: '/auth/change-email', method: 'PATCH', body }),
      onQueryStarted: (_arg, { queryFulfilled, dispatch }) => storeUser(queryFulfilled, dispatch),
    }),
    updateSettings: build.mutation<UserAnswer, { settings: Record<string, unknown> }>({
      query: (body) => ({ url: '/auth/settings', method: 'PATCH', body }),
      onQueryStarted: (_arg, { queryFulfilled, dispatch }) => storeUser(queryFulfilled, dispatch),
    }),
  }),
});

export const {
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useGetProfileQuery,
  useUpdateProfileMutation,
  useChangePasswordMutation,
  useDeleteAccountMutation,
  useChangeEmailMutation,
  useUpdateSettingsMutation,
} = authApi;
