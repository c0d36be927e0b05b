/** The billing answers as the server defines them (libs/contracts/src/billing.ts). */
export type {
  PlanView as Plan,
  PlanVariantView as PlanVariant,
  PlanLimits,
  PlansAnswer as PlansResponse,
  SubscriptionView,
  PaymentView,
} from '@wb/contracts';
