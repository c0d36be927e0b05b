-- The dashboard list's JSON, kept ready instead of built per read: json_build_object, to_char and a
-- tags subquery for every listed board were most of a list query's PostgreSQL CPU (11.7 of 12 ms
-- for 500 boards; 1.9 ms for a page of 50), and PostgreSQL, not Node, was what saturated the 2
-- cores under 20 concurrent dashboard loads. A read now concatenates stored text.
--
-- card: the board's own list-item fields as an unterminated JSON object ('{"id":…,"editor_token_hash":…'),
--       generated from the row, so every write path keeps it right.
-- tags_json: the board's tags as the list shows them (ordered by name, then id), kept by the
--       triggers below on board_tags and tags. Folder name and colour and the owner's name are
--       joined at read time: one rename must not rewrite thousands of boards.

-- IMMUTABLE although to_char and json are only STABLE: the format has no locale-dependent field
-- and every input is text, uuid, boolean or a UTC timestamp, so the result depends on the arguments alone.
CREATE FUNCTION board_list_card(id uuid, title text, folder_id uuid, owner_id uuid, created_at timestamptz,
                                updated_at timestamptz, background text, enabled boolean,
                                viewer text, guest text, editor text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT left(json_build_object(
    'id', id, 'title', title, 'folder_id', folder_id, 'owner_id', owner_id,
    'created_at', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updated_at', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'background', background, 'is_link_sharing_enabled', enabled,
    'link_role', board_link_role(enabled, viewer, guest, editor),
    'viewer_token_hash', viewer, 'guest_token_hash', guest, 'editor_token_hash', editor)::text, -1)
$$;

-- Room on every page, so that rewriting tags_json (no indexed column changes) is a HOT update
-- and leaves the board's indexes, the trigram index's pending list above all, untouched. Set
-- before the column is added, whose table rewrite applies it.
ALTER TABLE boards SET (fillfactor = 80);

ALTER TABLE boards ADD COLUMN card text GENERATED ALWAYS AS (board_list_card(
  id, title, folder_id, owner_id, created_at, updated_at, background, is_link_sharing_enabled,
  viewer_token, guest_token, editor_token)) STORED;

ALTER TABLE boards ADD COLUMN tags_json text NOT NULL DEFAULT '[]';

CREATE FUNCTION board_tags_json(board uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT COALESCE(json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY t.name, t.id)::text, '[]')
    FROM board_tags x JOIN tags t ON t.id = x.tag_id
   WHERE x.board_id = board
$$;

UPDATE boards b SET tags_json = board_tags_json(b.id) WHERE EXISTS (SELECT 1 FROM board_tags x WHERE x.board_id = b.id);

-- A board's tag set changed (assigned, removed, or a tag deleted: its board_tags rows go by cascade).
CREATE FUNCTION board_tags_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE boards b SET tags_json = board_tags_json(b.id) WHERE b.id IN (SELECT board_id FROM changed);
  RETURN NULL;
END $$;
CREATE TRIGGER board_tags_json_insert AFTER INSERT ON board_tags
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION board_tags_refresh();
CREATE TRIGGER board_tags_json_delete AFTER DELETE ON board_tags
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION board_tags_refresh();

-- A tag renamed or recoloured: every board that carries it shows the new name, in the new order.
CREATE FUNCTION tags_refresh_boards() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE boards b SET tags_json = board_tags_json(b.id)
   WHERE b.id IN (SELECT x.board_id FROM board_tags x JOIN changed c ON c.id = x.tag_id);
  RETURN NULL;
END $$;
CREATE TRIGGER tags_json_update AFTER UPDATE ON tags
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION tags_refresh_boards();
