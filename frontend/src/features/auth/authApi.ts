import { baseApi } from '../../api/baseApi.ts';
import { userUpdated } from './authSlice.ts';
import type { AuthResponse, User } from './types.ts';

export interface LoginArgs {
  email: string;
  password: string;
}
export interface RegisterArgs extends LoginArgs {
  name: string;
}
export interface UpdateProfileArgs {
  name: string;
  email?: string;
  /** Required by auth when `email` changes. */
  currentPassword?: string;
}
export interface ChangePasswordArgs {
  currentPassword: string;
  newPassword: string;
}

async function storeUser(
  queryFulfilled: Promise<{ data: { user: User } }>,
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
    verify: build.query<{ user: User }, void>({
      query: () => '/auth/verify',
      providesTags: ['User'],
    }),
    getProfile: build.query<{ user: User }, void>({
      query: () => '/auth/profile',
      providesTags: ['User'],
    }),
    updateProfile: build.mutation<{ user: User }, UpdateProfileArgs>({
      query: (body) => ({ url: '/auth/profile', method: 'PATCH', body }),
      onQueryStarted: (_arg, { queryFulfilled, dispatch }) => storeUser(queryFulfilled, dispatch),
    }),
    changePassword: build.mutation<{ message?: string }, ChangePasswordArgs>({
      query: (body) => ({ url: '/auth/change-password', method: 'PATCH', body }),
    }),
    changeEmail: build.mutation<{ user: User }, { email: string }>({
      query: (body) => ({ url: '/auth/change-email', method: 'PATCH', body }),
      onQueryStarted: (_arg, { queryFulfilled, dispatch }) => storeUser(queryFulfilled, dispatch),
    }),
    updateSettings: build.mutation<{ user: User }, { settings: Record<string, unknown> }>({
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
  useChangeEmailMutation,
  useUpdateSettingsMutation,
} = authApi;
