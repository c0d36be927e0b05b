-- The board list is paged by (updated_at DESC, id DESC): both directions must match the keyset
-- condition (updated_at, id) < (cursor) for an index-only walk.
DROP INDEX IF EXISTS boards_owner_updated_idx;
CREATE INDEX boards_owner_updated_idx ON boards (owner_id, updated_at DESC, id DESC);
CREATE INDEX boards_owner_folder_updated_idx ON boards (owner_id, folder_id, updated_at DESC, id DESC);
