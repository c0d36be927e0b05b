-- An activity line that names a person the users projection did not know yet (their user.registered
-- is handled by another durable, or by another replica, and may land a moment later): the text is
-- kept without the name, person_at is where it goes, and reading inserts it from the projection.
ALTER TABLE activity ADD COLUMN person_id uuid, ADD COLUMN person_at integer;
