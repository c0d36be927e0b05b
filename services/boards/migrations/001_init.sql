-- Owner names for owner_name / currentUser: fed by user.registered / user.updated and by the
-- name claim of every authenticated request, so a board never waits for an event to show its owner.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  name text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Projection of billing's entitlements.changed; no row = unlimited.
CREATE TABLE entitlements (
  user_id uuid PRIMARY KEY,
  max_boards integer NOT NULL,
  max_canvas_w integer,
  max_canvas_h integer,
  export_pdf boolean NOT NULL DEFAULT false,
  limits_enabled boolean NOT NULL DEFAULT true,
  -- occurredAt of the event applied, so a late redelivery of an older event cannot win.
  source_at timestamptz NOT NULL
);

CREATE TABLE folders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  parent_id uuid REFERENCES folders(id) ON DELETE CASCADE,
  color text NOT NULL DEFAULT '#3B82F6',
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX folders_owner_parent_idx ON folders (owner_id, parent_id, sort_order);
CREATE INDEX folders_parent_idx ON folders (parent_id);

CREATE TABLE boards (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL,
  title text NOT NULL,
  folder_id uuid REFERENCES folders(id) ON DELETE SET NULL,
  background text NOT NULL DEFAULT 'white' CHECK (background IN ('white', 'grid', 'dots', 'lines')),
  is_link_sharing_enabled boolean NOT NULL DEFAULT false,
  -- The share tokens themselves: the owner's dashboard shows them in links (spec: *_token_hash).
  viewer_token text UNIQUE,
  guest_token text UNIQUE,
  editor_token text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The dashboard list: one user's boards, newest first.
CREATE INDEX boards_owner_updated_idx ON boards (owner_id, updated_at DESC, id);
CREATE INDEX boards_folder_idx ON boards (folder_id, updated_at DESC);

CREATE TABLE tags (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  owner_id uuid NOT NULL,
  name text NOT NULL,
  color text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tags_owner_name_idx ON tags (owner_id, lower(name));

CREATE TABLE board_tags (
  board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  tag_id uuid NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  PRIMARY KEY (board_id, tag_id)
);
-- The tag filter starts from tags.
CREATE INDEX board_tags_tag_idx ON board_tags (tag_id, board_id);

CREATE TABLE camera_positions (
  board_id uuid NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
  user_id uuid NOT NULL,
  position_x double precision NOT NULL,
  position_y double precision NOT NULL,
  scale_x double precision NOT NULL,
  scale_y double precision NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, user_id)
);
CREATE INDEX camera_positions_user_idx ON camera_positions (user_id);

-- Substring search on titles ('доск' finds 'Доска'): a trigram index on lower(title) when pg_trgm
-- can be had; without it (no privilege on a managed server) the search still works through the
-- owner index, just without help for very large accounts.
DO $$
DECLARE trgm_schema text;
BEGIN
  BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
  EXCEPTION WHEN others THEN
    RAISE NOTICE 'pg_trgm unavailable: %', SQLERRM;
  END;
  -- Qualified: another service may have installed the extension in its own schema first.
  SELECT n.nspname INTO trgm_schema FROM pg_opclass o JOIN pg_namespace n ON n.oid = o.opcnamespace
    WHERE o.opcname = 'gin_trgm_ops' LIMIT 1;
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX boards_title_trgm_idx ON boards USING gin (lower(title) %I.gin_trgm_ops)', trgm_schema);
  END IF;
END
$$;
