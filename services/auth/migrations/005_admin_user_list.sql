-- The admin user list (issue 34): plan name and board count kept exact although their events may come
-- twice or out of order (replicas share one durable; a failed delivery is retried after later ones).

-- The time of the entitlements.changed that set plan_name: an older one arriving later is ignored.
ALTER TABLE users ADD COLUMN plan_name_at timestamptz;

-- Each board an owner created, and a tombstone once deleted: a board.deleted that arrives before its
-- board.created leaves the tombstone, and the late board.created then counts nothing.
CREATE TABLE user_boards (
  board_id  uuid PRIMARY KEY,
  user_id   uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  deleted   boolean NOT NULL DEFAULT false
);
CREATE INDEX user_boards_user_idx ON user_boards (user_id);

-- Boards counted before user_boards existed: a board.deleted of one of them finds no row and takes one from here.
ALTER TABLE users ADD COLUMN boards_untracked integer NOT NULL DEFAULT 0;
UPDATE users SET boards_untracked = boards_count;

-- Newest first.
CREATE INDEX users_created_at_idx ON users (created_at DESC, id DESC);
