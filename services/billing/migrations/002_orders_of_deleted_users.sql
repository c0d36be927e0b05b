-- Orders of an account deleted before its payment was confirmed: a later "paid" notification is
-- recorded (the money was taken; an administrator refunds it) but grants nothing to the deleted user.
ALTER TABLE payments ADD COLUMN user_deleted_at timestamptz;
