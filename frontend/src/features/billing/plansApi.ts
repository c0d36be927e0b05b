import { baseApi } from '../../api/baseApi.ts';
import type { PlansResponse } from './types.ts';

/** GET /billing/plans — public; the billing feature may extend this slice. */
export const plansApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPlans: build.query<PlansResponse, void>({
      query: () => '/billing/plans',
      providesTags: ['Plans'],
      transformResponse: (raw: unknown): PlansResponse => {
        const r = (raw ?? {}) as Partial<PlansResponse>;
        return {
          plans: Array.isArray(r.plans) ? r.plans.filter((p) => p.is_active !== false) : [],
          billing_enabled: r.billing_enabled !== false,
        };
      },
    }),
  }),
  overrideExisting: false,
});

export const { useGetPlansQuery } = plansApi;
