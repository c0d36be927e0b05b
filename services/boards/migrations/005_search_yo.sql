-- Title search treats 'е' and 'ё' as one letter, both ways ('ёлка' finds 'Елка', 'елка' finds 'Ёлка').
-- One immutable folding function serves the index and the query alike, so the trigram index still
-- answers substring searches: the planner matches `search_fold(title)` to the index expression.
CREATE FUNCTION search_fold(t text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT translate(lower(t), 'Ёё', 'ее')
$$;

DO $$
DECLARE trgm_schema text;
BEGIN
  SELECT n.nspname INTO trgm_schema FROM pg_opclass o JOIN pg_namespace n ON n.oid = o.opcnamespace
    WHERE o.opcname = 'gin_trgm_ops' LIMIT 1;
  IF trgm_schema IS NOT NULL THEN
    DROP INDEX IF EXISTS boards_title_trgm_idx;
    EXECUTE format('CREATE INDEX boards_title_fold_trgm_idx ON boards USING gin (search_fold(title) %I.gin_trgm_ops)', trgm_schema);
  END IF;
END
$$;
