-- Boards per owner, kept by statement-level triggers: the dashboard shows 'current/max' on every
-- load, and counting an account's boards each time cost more than the rest of the page.
CREATE TABLE board_counts (
  owner_id uuid PRIMARY KEY,
  boards integer NOT NULL CHECK (boards >= 0)
);

INSERT INTO board_counts (owner_id, boards) SELECT owner_id, count(*) FROM boards GROUP BY owner_id;

CREATE FUNCTION board_counts_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO board_counts (owner_id, boards)
  SELECT owner_id, count(*) FROM inserted GROUP BY owner_id
  ON CONFLICT (owner_id) DO UPDATE SET boards = board_counts.boards + EXCLUDED.boards;
  RETURN NULL;
END $$;

CREATE FUNCTION board_counts_after_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE board_counts c SET boards = c.boards - d.n
    FROM (SELECT owner_id, count(*) AS n FROM deleted GROUP BY owner_id) d
   WHERE c.owner_id = d.owner_id;
  RETURN NULL;
END $$;

CREATE TRIGGER board_counts_insert AFTER INSERT ON boards
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION board_counts_after_insert();
CREATE TRIGGER board_counts_delete AFTER DELETE ON boards
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION board_counts_after_delete();
