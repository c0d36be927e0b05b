/**
 * POST /yjs/images/:boardId/urls {hashes} → {urls: {hash: url}, expiresAt}: signed read URLs
 * (domain/image-urls.ts) for anyone who may read the board, with the same credentials as the
 * socket (Bearer access token and/or `x-share-token`) sent as headers, never in a URL. The board
 * page asks for the images it is about to draw; the <img> then loads with no token at all.
 */
import { Router } from 'express';
import { z } from 'zod';
import { appError, bearerToken, parse, type TokenVerifier } from '@wb/service-kit';
import type { BoardAccessClient } from '../access.ts';
import { identityOrThrow, resolveIdentity } from '../extensions/auth.ts';
import { imageUrlExpiry, signedImageUrl } from '../domain/image-urls.ts';
import { IMAGE_HASH_SHAPE } from './store.ts';

/** A board page asks for what it draws; 200 hashes of 64 characters fit the 16 KB body limit. */
const MAX_HASHES = 200;

const Params = z.object({ boardId: z.string().regex(/^[\w-]{1,64}$/, { message: 'Не указана доска' }) });
const Body = z.object({
  hashes: z.array(z.string().regex(IMAGE_HASH_SHAPE, { message: 'Некорректный идентификатор изображения' })).max(MAX_HASHES),
});

export function signedUrlRoutes(deps: { verifier: TokenVerifier; boards: BoardAccessClient; urlKey: Uint8Array }): Router {
  const r = Router();
  r.post('/yjs/images/:boardId/urls', async (req, res) => {
    const { boardId } = parse(Params, req.params);
    const { hashes } = parse(Body, req.body ?? {});
    const token = bearerToken(req);
    const share = req.get('x-share-token') ?? undefined;
    if (!token && !share) throw appError('TOKEN_MISSING');
    identityOrThrow(await resolveIdentity(deps, boardId, { token, share, address: req.ip }));
    const exp = imageUrlExpiry(Date.now());
    const urls: Record<string, string> = {};
    for (const hash of hashes) urls[hash] = signedImageUrl(deps.urlKey, boardId, hash, exp);
    // A URL is a read right for its lifetime: not for shared caches.
    res.set('cache-control', 'no-store').json({ urls, expiresAt: exp * 1000 });
  });
  return r;
}
