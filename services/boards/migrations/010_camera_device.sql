-- Cameras remembered per device class (issue 35 item 6): '' is the old row of a user (a stage
-- offset in screen pixels), 'phone' / 'tablet' / 'desktop' rows hold a view in board coordinates
-- (the board point at the viewport's centre and the zoom). The old row stays so a device without
-- its own view starts from it (converted by the page) until it saves one.
ALTER TABLE camera_positions ADD COLUMN device text NOT NULL DEFAULT '';
ALTER TABLE camera_positions DROP CONSTRAINT camera_positions_pkey;
ALTER TABLE camera_positions ADD PRIMARY KEY (board_id, user_id, device);
