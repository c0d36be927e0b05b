-- Projection of billing's entitlements.changed: only what the export needs. No row = all allowed.
CREATE TABLE entitlements (
  user_id uuid PRIMARY KEY,
  export_pdf boolean NOT NULL,
  limits_enabled boolean NOT NULL,
  -- occurredAt of the event applied, so a late redelivery of an older event cannot win.
  source_at timestamptz NOT NULL
);
