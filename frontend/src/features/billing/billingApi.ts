import { baseApi } from '../../api/baseApi.ts';
import type { SubscriptionView } from './types.ts';

export interface CheckoutAnswer {
  data: { order_id: string; checkout_url: string };
}

/** POST /billing/checkout and GET /billing/subscription (spec §7 Billing). */
export const billingApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    checkout: build.mutation<CheckoutAnswer, { plan_id: string; variant_id: string }>({
      query: (body) => ({ url: '/billing/checkout', method: 'POST', body }),
    }),
    getSubscription: build.query<{ subscription: SubscriptionView | null; billing_enabled: boolean }, void>({
      query: () => '/billing/subscription',
      providesTags: ['Subscription'],
    }),
  }),
});

export const { useCheckoutMutation, useGetSubscriptionQuery } = billingApi;
