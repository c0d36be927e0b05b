-- Verifiers in every service ask each second which sessions were revoked lately (GET /internal/sessions/revoked).
CREATE INDEX sessions_revoked_at_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
