-- link_role of a board list item, computed where the list is built (the dashboard's page is one JSON
-- value from PostgreSQL). Mirrors linkRole() in src/domain/roles.ts; a test checks every combination.
CREATE FUNCTION board_link_role(enabled boolean, viewer text, guest text, editor text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN NOT enabled THEN NULL
    WHEN editor IS NOT NULL THEN 'editor'
    WHEN viewer IS NOT NULL THEN 'viewer'
    WHEN guest IS NOT NULL THEN 'guest'
  END
$$;
