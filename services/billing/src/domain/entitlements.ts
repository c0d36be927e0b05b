import { DEFAULT_PLAN_LIMITS, type EventData, type PlanLimits } from '@wb/contracts';

export type Entitlements = EventData<'entitlements.changed'>;

export interface EntitlementInputs {
  userId: string;
  billingEnabled: boolean;
  limitsEnabled: boolean;
  /** The plan of the user's active or grace subscription, or null (Free). */
  plan: { name: string; limits: PlanLimits } | null;
  /** The plan named Free; null when an admin removed the name (then the default new-plan limits apply). */
  free: { name: string; limits: PlanLimits } | null;
  /** What "premium for everyone" means while billing is off (see mostGenerous). */
  premium: PlanLimits;
}

/**
 * A user's effective limits (spec §1): their subscription's plan, else Free; billing off means
 * premium limits for everyone; limits off lifts the board-count limit (boards reads limitsEnabled).
 */
export function computeEntitlements(i: EntitlementInputs): Entitlements {
  const own = i.plan ?? i.free ?? { name: 'Free', limits: { ...DEFAULT_PLAN_LIMITS } };
  const limits = i.billingEnabled ? own.limits : i.premium;
  return {
    userId: i.userId,
    planName: own.name,
    maxBoards: limits.max_board_count,
    maxCanvasWidth: limits.max_canvas_extent_w,
    maxCanvasHeight: limits.max_canvas_extent_h,
    exportPdf: limits.export_pdf_enabled,
    limitsEnabled: i.limitsEnabled,
  };
}

/** The most generous limits among the active plans: unlimited boards beat any number, the largest canvas, PDF if any plan has it. */
export function mostGenerous(all: PlanLimits[]): PlanLimits {
  if (all.length === 0) return { ...DEFAULT_PLAN_LIMITS };
  return all.reduce((a, b) => ({
    max_board_count: a.max_board_count === -1 || b.max_board_count === -1 ? -1 : Math.max(a.max_board_count, b.max_board_count),
    max_canvas_extent_w: Math.max(a.max_canvas_extent_w, b.max_canvas_extent_w),
    max_canvas_extent_h: Math.max(a.max_canvas_extent_h, b.max_canvas_extent_h),
    export_pdf_enabled: a.export_pdf_enabled || b.export_pdf_enabled,
  }));
}

const FIELDS = ['userId', 'planName', 'maxBoards', 'maxCanvasWidth', 'maxCanvasHeight', 'exportPdf', 'limitsEnabled'] as const;

/** Field by field: the stored copy comes back from jsonb with its keys reordered. */
export const sameEntitlements = (a: Entitlements | null, b: Entitlements): boolean =>
  a !== null && FIELDS.every((f) => a[f] === b[f]);
