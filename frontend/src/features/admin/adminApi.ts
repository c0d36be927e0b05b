/** Spec §7 Administration calls, injected into the one RTK Query API (tag 'Admin' and per-list tags). */
import type {
  ActivityAnswer,
  AdminStats,
  AdminUsersAnswer,
  DockerData,
  PaymentView,
  PlanView,
  SubscriptionView,
  SystemConfigView,
  SystemData,
  UpdateStatus,
} from '@wb/contracts';
import { baseApi } from '../../api/baseApi.ts';
import type { ConfigPayload, PlanPayload, UserFormValues } from './forms.ts';

const adminBase = baseApi.enhanceEndpoints({
  addTagTypes: [
    'AdminStats',
    'AdminPlans',
    'AdminUsers',
    'AdminSubscriptions',
    'AdminPayments',
    'AdminConfig',
    'AdminSystem',
  ],
});

/** Everything a change may move: the counters, the activity, and the lists that show the changed record. */
const CHANGED = ['AdminStats', 'AdminUsers', 'AdminSubscriptions'] as const;

export const adminApi = adminBase.injectEndpoints({
  endpoints: (build) => ({
    getAdminStats: build.query<AdminStats, void>({
      query: () => '/admin/stats',
      providesTags: ['AdminStats'],
    }),
    getActivity: build.query<ActivityAnswer, void>({
      query: () => '/admin/activity',
      providesTags: ['AdminStats'],
    }),

    getSystem: build.query<SystemData, void>({ query: () => '/admin/system', providesTags: ['AdminSystem'] }),
    getDocker: build.query<DockerData, void>({ query: () => '/admin/docker', providesTags: ['AdminSystem'] }),
    refreshCache: build.mutation<unknown, void>({
      query: () => ({ url: '/admin/system/refresh-cache', method: 'POST' }),
      invalidatesTags: ['AdminSystem'],
    }),

    getAdminPlans: build.query<PlanView[], void>({
      query: () => '/admin/plans',
      transformResponse: (r: { plans: PlanView[] }) => r.plans,
      providesTags: ['AdminPlans'],
    }),
    savePlan: build.mutation<{ plan: PlanView }, { id?: string; body: PlanPayload }>({
      query: ({ id, body }) =>
        id
          ? { url: `/admin/plans/${encodeURIComponent(id)}`, method: 'PUT', body }
          : { url: '/admin/plans', method: 'POST', body },
      invalidatesTags: ['AdminPlans', 'Plans', ...CHANGED],
    }),
    deactivatePlan: build.mutation<{ plan: PlanView }, string>({
      query: (id) => ({ url: `/admin/plans/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['AdminPlans', 'Plans', 'AdminStats'],
    }),

    getAdminUsers: build.query<AdminUsersAnswer, string>({
      query: (search) => ({ url: '/admin/users', params: search ? { search } : undefined }),
      providesTags: ['AdminUsers'],
    }),
    updateUser: build.mutation<unknown, { id: string; body: UserFormValues }>({
      query: ({ id, body }) => ({ url: `/admin/users/${encodeURIComponent(id)}`, method: 'PUT', body }),
      invalidatesTags: [...CHANGED],
    }),
    deleteUser: build.mutation<unknown, string>({
      query: (id) => ({ url: `/admin/users/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...CHANGED, 'AdminPayments'],
    }),

    getAdminSubscriptions: build.query<SubscriptionView[], string>({
      query: (search) => ({ url: '/admin/subscriptions', params: search ? { search } : undefined }),
      transformResponse: (r: { subscriptions: SubscriptionView[] }) => r.subscriptions,
      providesTags: ['AdminSubscriptions'],
    }),
    createSubscription: build.mutation<
      { subscription: SubscriptionView },
      { user_id: string; plan_id: string; days: number }
    >({
      query: (body) => ({ url: '/admin/subscriptions', method: 'POST', body }),
      invalidatesTags: [...CHANGED],
    }),
    updateSubscription: build.mutation<
      { subscription: SubscriptionView },
      { id: string; body: { plan_id: string; expires_at: string; status: string } }
    >({
      query: ({ id, body }) => ({
        url: `/admin/subscriptions/${encodeURIComponent(id)}`,
        method: 'PUT',
        body,
      }),
      invalidatesTags: [...CHANGED],
    }),
    extendSubscription: build.mutation<{ subscription: SubscriptionView }, { id: string; days: number }>({
      query: ({ id, days }) => ({
        url: `/admin/subscriptions/${encodeURIComponent(id)}/extend`,
        method: 'PUT',
        body: { days },
      }),
      invalidatesTags: [...CHANGED],
    }),
    revokeSubscription: build.mutation<unknown, string>({
      query: (id) => ({ url: `/admin/subscriptions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [...CHANGED],
    }),

    getAdminPayments: build.query<PaymentView[], void>({
      query: () => '/admin/payments',
      transformResponse: (r: { payments: PaymentView[] }) => r.payments,
      providesTags: ['AdminPayments'],
    }),

    getConfig: build.query<SystemConfigView, void>({
      query: () => '/admin/config',
      providesTags: ['AdminConfig'],
    }),
    saveConfig: build.mutation<SystemConfigView, ConfigPayload>({
      query: (body) => ({ url: '/admin/config', method: 'PUT', body }),
      invalidatesTags: ['Plans', 'AdminSubscriptions'],
      // The switches show the answer at once, without a second GET.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(adminApi.util.upsertQueryData('getConfig', undefined, data));
      },
    }),

    startUpdate: build.mutation<Partial<UpdateStatus> | null, void>({
      query: () => ({ url: '/admin/update', method: 'POST' }),
    }),
    getUpdateStatus: build.query<UpdateStatus, void>({
      query: () => '/admin/update/status',
      keepUnusedDataFor: 0,
    }),
    /** §4 System update: attempted while the status call fails; its answer only tells whether to poll at once. */
    getHealth: build.query<unknown, void>({ query: () => '/health', keepUnusedDataFor: 0 }),
  }),
  overrideExisting: false,
});

export const {
  useGetAdminStatsQuery,
  useGetActivityQuery,
  useGetSystemQuery,
  useGetDockerQuery,
  useRefreshCacheMutation,
  useGetAdminPlansQuery,
  useSavePlanMutation,
  useDeactivatePlanMutation,
  useGetAdminUsersQuery,
  useUpdateUserMutation,
  useDeleteUserMutation,
  useGetAdminSubscriptionsQuery,
  useCreateSubscriptionMutation,
  useUpdateSubscriptionMutation,
  useExtendSubscriptionMutation,
  useRevokeSubscriptionMutation,
  useGetAdminPaymentsQuery,
  useGetConfigQuery,
  useSaveConfigMutation,
  useStartUpdateMutation,
} = adminApi;
