-- Board images (src/images): bytes once per content hash, and which boards may serve them.
CREATE TABLE IF NOT EXISTS images (
  hash text PRIMARY KEY,
  mime text NOT NULL,
  size integer NOT NULL,
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS board_images (
  board_id text NOT NULL,
  hash text NOT NULL REFERENCES images(hash),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, hash)
);
CREATE INDEX IF NOT EXISTS board_images_hash ON board_images(hash);
