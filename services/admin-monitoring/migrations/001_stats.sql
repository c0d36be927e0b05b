-- The admin schema: counters, today's stats, the activity feed and the audit log, all kept from
-- domain events (outbox and processed_events come from ensureEventTables). Reading the stats is a
-- handful of primary-key lookups, never a scan of users, boards or payments.

-- One row per headline counter (spec §3 Admin stats). revenue_minor is kopecks of paid RUB payments.
CREATE TABLE counters (
  name text PRIMARY KEY,
  value bigint NOT NULL DEFAULT 0
);
INSERT INTO counters (name) VALUES ('users'), ('active_subscriptions'), ('boards'), ('revenue_minor');

-- Spec §3 Today's stats per UTC day: new_users, new_subscriptions, new_boards, payments_minor (kopecks).
CREATE TABLE daily_counters (
  day date NOT NULL,
  name text NOT NULL,
  value bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, name)
);

-- Spec §3 Activity item; the overview shows today's, newest first.
CREATE TABLE activity (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  type text NOT NULL CHECK (type IN ('user', 'subscription', 'boards', 'other')),
  at timestamptz NOT NULL,
  text text NOT NULL
);
CREATE INDEX activity_at ON activity (at DESC, id DESC);

-- Every administrator's action (who, what, before and after, when). id is the admin.action event's
-- id when it came as an event, so a redelivered event is kept once.
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  actor_id uuid NOT NULL,
  actor_name text NOT NULL,
  action text NOT NULL,
  target_type text NOT NULL,
  target_id text,
  target_label text NOT NULL,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_at ON audit_log (at DESC);

-- Projections that make the counters exact: a row's state decides whether an event moves a
-- counter, so a second delivery, a replayed publish or an out-of-order event cannot count twice.
-- A deleted user or board stays as a tombstone (deleted = true) so a late "created" is not counted.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  name text,
  email text,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE boards (
  id uuid PRIMARY KEY,
  owner_id uuid NOT NULL,
  title text,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX boards_owner_live ON boards (owner_id) WHERE NOT deleted;

-- counted: this subscription is in active_subscriptions now. changed_at orders the events of one
-- subscription (an older event arriving late changes nothing).
CREATE TABLE subscriptions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL,
  plan_name text,
  status text,
  counted boolean NOT NULL DEFAULT false,
  changed_at timestamptz NOT NULL
);
CREATE INDEX subscriptions_user ON subscriptions (user_id);

-- A payment counts once whatever number of events name it.
CREATE TABLE payments (
  id uuid PRIMARY KEY,
  status text NOT NULL,
  amount_minor bigint NOT NULL,
  currency text NOT NULL,
  at timestamptz NOT NULL
);
