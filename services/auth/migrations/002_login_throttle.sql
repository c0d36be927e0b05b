-- Login throttling shared by every replica (docs: services/auth/README.md, "Brute force").
-- One row per throttled key: 'account:<lower email>', 'address:<ip>' or 'device:<sha256 hex>'.
CREATE TABLE login_throttle (
  key           text PRIMARY KEY,
  failures      integer NOT NULL,
  blocked_until timestamptz NOT NULL,
  last_failure  timestamptz NOT NULL
);
CREATE INDEX login_throttle_last_failure_idx ON login_throttle (last_failure);

-- Browsers that signed in to an account before (OWASP "device cookies"): their owner's right password
-- is not held back by throttles that an attacker elsewhere, or behind the same address, has caused.
CREATE TABLE trusted_devices (
  token_hash  bytea PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX trusted_devices_user_idx ON trusted_devices (user_id);
CREATE INDEX trusted_devices_expires_idx ON trusted_devices (expires_at);
