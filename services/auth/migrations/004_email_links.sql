-- Password reset and e-mail verification by links sent by e-mail (issue 32, item 11; README "E-mail links").

-- NULL: the current address was never proven (a new account, or the address changed since).
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;

-- One row per link sent. Only a sha256 of the link's token is kept: a database leak reveals no usable link.
-- `email` is the address the link went to: a verification counts only while it is still the user's address.
CREATE TABLE email_links (
  token_hash  bytea PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  purpose     text NOT NULL CHECK (purpose IN ('password_reset', 'email_verification')),
  email       text NOT NULL,
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX email_links_user_idx ON email_links (user_id, purpose);
CREATE INDEX email_links_expires_idx ON email_links (expires_at);

-- How many mails a key ('reset-email:<lower address>', 'reset-ip:<ip>', 'verify-user:<id>') caused in its
-- current window (a fixed window per key, shared by every replica).
CREATE TABLE mail_throttle (
  key          text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count        integer NOT NULL
);
CREATE INDEX mail_throttle_window_idx ON mail_throttle (window_start);
