-- Users. Email keeps the case the user typed (trimmed); uniqueness ignores case.
CREATE TABLE users (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  email           text NOT NULL,
  password_hash   text NOT NULL,
  is_admin        boolean NOT NULL DEFAULT false,
  -- Projections fed later by billing / boards events (admin user list, profile).
  plan_name       text,
  boards_count    integer NOT NULL DEFAULT 0,
  settings        jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- NULL or empty = the defaults.
  favorite_emojis jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

-- A session is one refresh-token family: one login on one device. Revoking it kills every token in it.
CREATE TABLE sessions (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  revoke_reason text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

-- Refresh tokens are stored as sha256 only; a rotated token stays (used_at set) so that its reuse is detected.
CREATE TABLE refresh_tokens (
  token_hash  bytea PRIMARY KEY,
  session_id  uuid NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id);
CREATE INDEX refresh_tokens_expires_idx ON refresh_tokens (expires_at);

-- Token signing keys shared by every replica (unless AUTH_PRIVATE_KEY_PEM is given).
CREATE TABLE signing_keys (
  kid          text PRIMARY KEY,
  private_jwk  jsonb NOT NULL,
  public_jwk   jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
