import type { BoardBackground, BoardLimits, CanvasLimits } from '@wb/contracts';

export interface Entitlement {
  max_boards: number;
  max_canvas_w: number | null;
  max_canvas_h: number | null;
  export_pdf: boolean;
  limits_enabled: boolean;
}

/** No entitlement row yet, or limits switched off by the admin: unlimited (billing may simply not have spoken yet). */
export function boardLimits(ent: Entitlement | null, current: number): BoardLimits {
  const max = ent && ent.limits_enabled && ent.max_boards >= 0 ? ent.max_boards : -1;
  return { current, max, canCreate: max === -1 || current < max };
}

export function canvasLimits(ent: Entitlement | null, background: BoardBackground): CanvasLimits {
  const bounded = ent !== null && ent.limits_enabled && ent.max_canvas_w !== null && ent.max_canvas_h !== null;
  return bounded
    ? { max_width: ent.max_canvas_w, max_height: ent.max_canvas_h, unlimited: false, background }
    : { max_width: null, max_height: null, unlimited: true, background };
}
