import type { CameraDevice, CameraPosition } from '@wb/contracts';
import type { Queryable } from '@wb/db';

interface Row {
  position_x: number;
  position_y: number;
  scale_x: number;
  scale_y: number;
  device: string;
}

/**
 * The device's own camera, else the user's old-format one (answered without `device`, so the page
 * converts it). Without a device only the old-format row is read, as before devices existed.
 */
export async function getCamera(db: Queryable, boardId: string, userId: string, device?: CameraDevice): Promise<CameraPosition | null> {
  const { rows } = await db.query<Row>(
    `SELECT position_x, position_y, scale_x, scale_y, device FROM camera_positions
      WHERE board_id = $1 AND user_id = $2 AND device IN ('', $3) ORDER BY device = '' LIMIT 1`,
    [boardId, userId, device ?? ''],
  );
  const row = rows[0];
  if (!row) return null;
  const { device: d, ...position } = row;
  return d ? { ...position, device: d as CameraDevice } : position;
}

export async function saveCamera(db: Queryable, boardId: string, userId: string, c: CameraPosition) {
  await db.query(
    `INSERT INTO camera_positions (board_id, user_id, device, position_x, position_y, scale_x, scale_y) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (board_id, user_id, device) DO UPDATE SET position_x = EXCLUDED.position_x, position_y = EXCLUDED.position_y,
       scale_x = EXCLUDED.scale_x, scale_y = EXCLUDED.scale_y, updated_at = now()`,
    [boardId, userId, c.device ?? '', c.position_x, c.position_y, c.scale_x, c.scale_y],
  );
}
