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

CREATE FUNCTION bump_list_versions(owners uuid[]) RETURNS void LANGUAGE sql AS $$
  -- Ordered, so two transactions that touch the same owners lock their rows in the same order.
  INSERT INTO list_versions AS v (owner_id, version)
  SELECT o, 1 FROM (SELECT DISTINCT o FROM unnest(owners) o WHERE o IS NOT NULL) d ORDER BY o
  ON CONFLICT (owner_id) DO UPDATE SET version = v.version + 1
$$;

-- TG_ARGV[0] names the owner column of the changed rows (transition table "changed").
CREATE FUNCTION list_version_after_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('SELECT bump_list_versions(array_agg(%I)) FROM changed', TG_ARGV[0]);
  RETURN NULL;
END $$;

CREATE TRIGGER list_version_boards_insert AFTER INSERT ON boards
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');
CREATE TRIGGER list_version_boards_update AFTER UPDATE ON boards
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');
CREATE TRIGGER list_version_boards_delete AFTER DELETE ON boards
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');

CREATE TRIGGER list_version_folders_insert AFTER INSERT ON folders
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');
CREATE TRIGGER list_version_folders_update AFTER UPDATE ON folders
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');
CREATE TRIGGER list_version_folders_delete AFTER DELETE ON folders
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('owner_id');

CREATE TRIGGER list_version_users_insert AFTER INSERT ON users
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('id');
CREATE TRIGGER list_version_users_update AFTER UPDATE ON users
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('id');

CREATE TRIGGER list_version_entitlements_insert AFTER INSERT ON entitlements
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('user_id');
CREATE TRIGGER list_version_entitlements_update AFTER UPDATE ON entitlements
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('user_id');
CREATE TRIGGER list_version_entitlements_delete AFTER DELETE ON entitlements
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION list_version_after_change('user_id');
