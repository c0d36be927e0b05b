-- Plans and their variants (spec §3 Plan, Plan variant). limits_json is the plan's limits as the SPA reads them.
CREATE TABLE plans (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  is_active boolean NOT NULL DEFAULT true,
  limits_json jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX plans_name_key ON plans (lower(name));

CREATE TABLE plan_variants (
  id uuid PRIMARY KEY,
  plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
  days integer NOT NULL CHECK (days >= 1),
  price_minor integer NOT NULL CHECK (price_minor >= 0),
  currency text NOT NULL CHECK (currency IN ('RUB', 'USD', 'EUR')),
  is_active boolean NOT NULL DEFAULT true,
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX plan_variants_plan ON plan_variants (plan_id, position);

-- Names and emails for the admin lists, kept from auth's user events.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One subscription per user: buying again extends or replaces it (README, "Subscriptions").
CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL UNIQUE,
  plan_id uuid NOT NULL REFERENCES plans (id),
  status text NOT NULL CHECK (status IN ('active', 'grace', 'expired')),
  expires_at timestamptz NOT NULL,
  auto_renew boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_due ON subscriptions (expires_at) WHERE status <> 'expired';

-- An order is a payment row from checkout on: pending until the provider settles it as paid or failed.
-- Amount, days and names are copied so later plan edits do not rewrite history.
CREATE TABLE payments (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  user_name text,
  plan_id uuid NOT NULL REFERENCES plans (id),
  plan_name text NOT NULL,
  variant_id uuid NOT NULL,
  days integer NOT NULL CHECK (days >= 1),
  amount_minor integer NOT NULL CHECK (amount_minor >= 0),
  currency text NOT NULL CHECK (currency IN ('RUB', 'USD', 'EUR')),
  provider text NOT NULL,
  provider_payment_id text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed')),
  checkout_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  settled_at timestamptz
);
CREATE INDEX payments_user ON payments (user_id, created_at DESC);
CREATE INDEX payments_settled ON payments (created_at DESC) WHERE status <> 'pending';
CREATE UNIQUE INDEX payments_provider_id ON payments (provider, provider_payment_id) WHERE provider_payment_id IS NOT NULL;

-- The last entitlements published per user, so only real changes become events.
CREATE TABLE entitlements (
  user_id uuid PRIMARY KEY,
  payload jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE system_config (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  billing_enabled boolean NOT NULL DEFAULT true,
  limits_enabled boolean NOT NULL DEFAULT true,
  grace_days integer NOT NULL DEFAULT 3 CHECK (grace_days BETWEEN 0 AND 365),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO system_config (id) VALUES (true);

-- Free and Pro on first start. Migrations run under an advisory lock, once per database, so
-- several replicas starting together seed exactly once.
INSERT INTO plans (id, name, description, limits_json) VALUES
  ('00000000-0000-4000-8000-000000000001', 'Free', 'Для знакомства и личных задач',
   '{"max_board_count": 3, "max_canvas_extent_w": 8000, "max_canvas_extent_h": 8000, "export_pdf_enabled": false}'),
  ('00000000-0000-4000-8000-000000000002', 'Pro', 'Для команд и больших проектов',
   '{"max_board_count": -1, "max_canvas_extent_w": 50000, "max_canvas_extent_h": 50000, "export_pdf_enabled": true}');
INSERT INTO plan_variants (id, plan_id, days, price_minor, currency, position) VALUES
  ('00000000-0000-4000-8000-000000000011', '00000000-0000-4000-8000-000000000001', 30, 0, 'RUB', 0),
  ('00000000-0000-4000-8000-000000000021', '00000000-0000-4000-8000-000000000002', 30, 49900, 'RUB', 0),
  ('00000000-0000-4000-8000-000000000022', '00000000-0000-4000-8000-000000000002', 365, 499000, 'RUB', 1);
