import type { CameraPosition } from '@wb/contracts';
import type { Queryable } from '@wb/db';

export async function getCamera(db: Queryable, boardId: string, userId: string): Promise<CameraPosition | null> {
  const { rows } = await db.query<CameraPosition>(
    'SELECT position_x, position_y, scale_x, scale_y FROM camera_positions WHERE board_id = $1 AND user_id = $2',
    [boardId, userId],
  );
  return rows[0] ?? null;
}

export async function saveCamera(db: Queryable, boardId: string, userId: string, c: CameraPosition) {
  await db.query(
    `INSERT INTO camera_positions (board_id, user_id, position_x, position_y, scale_x, scale_y) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (board_id, user_id) DO UPDATE SET position_x = EXCLUDED.position_x, position_y = EXCLUDED.position_y,
       scale_x = EXCLUDED.scale_x, scale_y = EXCLUDED.scale_y, updated_at = now()`,
    [boardId, userId, c.position_x, c.position_y, c.scale_x, c.scale_y],
  );
}
