-- A number per owner that changes, in the same transaction, with anything the dashboard's two
-- read calls show (GET /boards and GET /folders): the owner's boards (tags_json included, so tag
-- renames and assignments count), folders (board counts included), name and entitlements. The
-- service keeps recent answers keyed by it (src/list-cache.ts): a repeated dashboard load reads
-- one row instead of building the page again, and every replica sees the same number, so a write
-- through any replica ends every replica's copy.
CREATE TABLE list_versions (
  owner_id uuid PRIMARY KEY,
  version bigint NOT NULL
);

-- The number changes at COMMIT (deferred constraint triggers), once per owner and transaction:
-- taking the owner's row lock at the end, after every other lock the transaction needs, cannot
-- deadlock with another transaction of the same owner (a folder deletion holding it while waiting
-- for a board that a board edit holds while waiting for it, as statement-time bumps could).
CREATE FUNCTION list_version_touch() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid := (to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END) ->> TG_ARGV[0])::uuid;
  done text;
BEGIN
  IF owner IS NULL THEN RETURN NULL; END IF;
  -- Bumped once per transaction, however many rows it changed (a transaction-local setting).
  done := 'wb_list_version.o' || replace(owner::text, '-', '');
  IF current_setting(done, true) = '1' THEN RETURN NULL; END IF;
  PERFORM set_config(done, '1', true);
  INSERT INTO list_versions AS v (owner_id, version) VALUES (owner, 1)
    ON CONFLICT (owner_id) DO UPDATE SET version = v.version + 1;
  RETURN NULL;
END $$;

-- TG_ARGV[0] names the owner column.
CREATE CONSTRAINT TRIGGER list_version_boards AFTER INSERT OR UPDATE OR DELETE ON boards
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_version_touch('owner_id');
CREATE CONSTRAINT TRIGGER list_version_folders AFTER INSERT OR UPDATE OR DELETE ON folders
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_version_touch('owner_id');
CREATE CONSTRAINT TRIGGER list_version_users AFTER INSERT OR UPDATE ON users
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_version_touch('id');
CREATE CONSTRAINT TRIGGER list_version_entitlements AFTER INSERT OR UPDATE OR DELETE ON entitlements
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION list_version_touch('user_id');
