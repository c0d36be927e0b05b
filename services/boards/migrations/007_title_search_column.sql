-- The folded title (search_fold, migration 005) is stored instead of computed per row and query:
-- lower() of Cyrillic text on every board of a seq or owner-index scan was most of a search's time
-- (131 ms of 132 for a rare pattern over 12,000 boards on a loaded 2-core machine). The trigram
-- index moves to the stored column.
ALTER TABLE boards ADD COLUMN title_search text GENERATED ALWAYS AS (search_fold(title)) STORED;

DO $$
DECLARE trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_opclass o JOIN pg_namespace n ON n.oid = o.opcnamespace
    WHERE o.opcname = 'gin_trgm_ops' LIMIT 1;
  DROP INDEX IF EXISTS boards_title_fold_trgm_idx;
  IF trgm_schema IS NOT NULL THEN
    EXECUTE format('CREATE INDEX boards_title_search_trgm_idx ON boards USING gin (title_search %I.gin_trgm_ops)', trgm_schema);
  END IF;
END
$$;
