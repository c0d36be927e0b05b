-- Board documents for the embedded mode: the same shape as the MongoDB collections.
CREATE TABLE board_updates (
  id bigserial PRIMARY KEY,
  board_id text NOT NULL,
  update bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX board_updates_board ON board_updates (board_id, id);

CREATE TABLE board_documents (
  board_id text PRIMARY KEY,
  state bytea NOT NULL,
  version integer NOT NULL,
  hash text NOT NULL,
  objects_count integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE board_snapshots (
  id uuid PRIMARY KEY,
  board_id text NOT NULL,
  version integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  blob_size integer NOT NULL,
  objects_count integer NOT NULL DEFAULT 0,
  status text NOT NULL CHECK (status IN ('empty', 'small', 'normal'))
);
CREATE INDEX board_snapshots_board ON board_snapshots (board_id, version DESC);

CREATE TABLE processed_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
