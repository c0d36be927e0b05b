export interface PlanVariant {
  id: string | number;
  days: number;
  price_minor: number;
  currency?: string | null;
  is_active?: boolean;
}

export interface PlanLimits {
  max_board_count?: number;
  max_canvas_extent_w?: number;
  max_canvas_extent_h?: number;
  export_pdf_enabled?: boolean;
}

export interface Plan {
  id: string | number;
  name: string;
  description?: string | null;
  is_active?: boolean;
  variants?: PlanVariant[];
  limits_json?: PlanLimits | null;
}

export interface PlansResponse {
  plans: Plan[];
  billing_enabled: boolean;
}
