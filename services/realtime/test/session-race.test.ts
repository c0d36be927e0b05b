/**
 * A session revoked while its socket is being admitted (token already verified, boards still being
 * asked): the revocation's listener runs before the socket has an identity, so closing "the session's
 * sockets" cannot see it. The admission itself must refuse it (4401) once boards has answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, startPostgres } from '@wb/testkit';
import { createBoardAccessClient, type BoardAccessClient } from '../src/access.ts';
import { createPostgresStore, REALTIME_SCHEMA } from '../src/store/postgres.ts';
import { createPool, type EmbeddedPostgresHandle, type Pool } from '@wb/db';
import { eventually, nextCloseCode, provider, startPlatform, startRealtime, synced, type Platform, type RunningRealtime } from './helpers.ts';

let pg: EmbeddedPostgresHandle;
let pool: Pool;
let platform: Platform;
let rt: RunningRealtime;
/** Runs once, inside the first access look-up of the board it names. */
let during: { boardId: string; run: () => Promise<void> } | undefined;

beforeAll(async () => {
  pg = await startPostgres();
  platform = await startPlatform(pg.url);
  pool = createPool({ url: await createDatabase(pg.url), schema: REALTIME_SCHEMA });
  const real = createBoardAccessClient(platform.boardsBase, undefined, { internalToken: platform.internalToken });
  // The real boards answer, delivered after the test's action: the window between verify and admission.
  const boards: BoardAccessClient = {
    async access(boardId, who) {
      const answer = await real.access(boardId, who);
      const hook = during?.boardId === boardId ? during : undefined;
      if (hook) {
        during = undefined;
        await hook.run();
      }
      return answer;
    },
  };
  rt = await startRealtime({ platform, store: createPostgresStore(pool), boards });
}, 60_000);

afterAll(async () => {
  await rt?.stop();
  await pool?.end();
  await platform?.stop();
  await pg?.stop();
});

describe('a session revoked during its socket\'s admission', () => {
  it('is refused with 4401 instead of joining the board', async () => {
    const owner = await platform.user('Ольга');
    const { id } = await platform.board(owner);
    // Asked about through another board: look-ups of the same board and credential are coalesced with the held one.
    const other = await platform.board(owner);
    during = {
      boardId: id,
      run: async () => {
        expect((await platform.api('POST', '/api/auth/logout', { base: platform.authBase, token: owner.token })).status).toBe(204);
        // Realtime's verifier has learnt it (its HTTP routes refuse the token) before boards answers.
        await eventually(async () => (await platform.api('GET', `/api/boards/${other.id}/debug/snapshots`, { base: rt.httpBase, token: owner.token })).status === 401);
      },
    };
    const p = provider(rt.wsUrl, id, owner.token);
    try {
      const outcome = await Promise.race([nextCloseCode(p).then((code) => `closed ${code}`), synced(p).then(() => 'joined the board')]);
      expect(outcome).toBe('closed 4401');
    } finally {
      p.destroy();
    }
  });
});
