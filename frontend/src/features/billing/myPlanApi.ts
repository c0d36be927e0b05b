import type { OrderAnswer, PaymentView, SubscriptionView } from '@wb/contracts';
import { baseApi } from '../../api/baseApi.ts';

/** "Мой тариф" and the checkout result: the owner's payments, one order, auto-renew, receipts. */
export const myPlanApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPayments: build.query<{ payments: PaymentView[] }, void>({
      query: () => '/billing/payments',
      providesTags: ['Billing'],
    }),
    getOrder: build.query<OrderAnswer, string>({
      query: (id) => `/billing/orders/${encodeURIComponent(id)}`,
    }),
    setAutoRenew: build.mutation<{ subscription: SubscriptionView }, boolean>({
      query: (on) => ({ url: on ? '/billing/resume-auto-renew' : '/billing/cancel-auto-renew', method: 'POST' }),
      invalidatesTags: ['Subscription'],
    }),
    /** The PDF as a Blob (a mutation: never cached). */
    downloadReceipt: build.mutation<Blob, string>({
      query: (id) => ({
        url: `/billing/payments/${encodeURIComponent(id)}/receipt`,
        headers: { Accept: 'application/pdf' },
        responseHandler: async (r) => (r.ok ? r.blob() : r.json()),
        timeout: 30_000,
      }),
    }),
  }),
  overrideExisting: false,
});

export const { useGetPaymentsQuery, useGetOrderQuery, useSetAutoRenewMutation, useDownloadReceiptMutation } = myPlanApi;
