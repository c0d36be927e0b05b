/**
 * Image upload and serving (board-page.md §2 image tool, issue 10 item 6):
 * - POST /yjs/images/:boardId — raw image bytes in the body; owner and editors (Bearer access token
 *   and/or `x-share-token` of an editor link). Answers 201 {hash, url, mime, size}.
 * - GET /yjs/images/:boardId/:hash?exp=&sig= — a signed URL (signed-urls.ts hands them to anyone who
 *   may read the board); no token in the URL. Content-addressed, so cached for a year as immutable.
 * - GET /internal/boards/:boardId/images/:hash — the export service's read (internal token only).
 */
import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { MAX_IMAGE_PIXELS, MAX_IMAGE_SIDE, imageSize, imageSizeAllowed } from '@wb/board-model';
import { appError, bearerToken, parse, type TokenVerifier } from '@wb/service-kit';
import type { BoardAccessClient } from '../access.ts';
import { identityOrThrow, resolveIdentity } from '../extensions/auth.ts';
import type { Identity } from '../core/types.ts';
import { checkImageUrl } from '../domain/image-urls.ts';
import { sniffImageType } from './sniff.ts';
import { displayVariant, needsDisplayVariant } from './variants.ts';
import { IMAGE_HASH_SHAPE, imageHash, type ImageStore, type StoredImage } from './store.ts';

export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The spec has no text for a picture too large in pixels; IMAGE_TOO_LARGE's, with the limits named. */
export const IMAGE_DIMENSIONS_TEXT = `Изображение слишком большое: не больше ${MAX_IMAGE_SIDE} пикселей по стороне и ${MAX_IMAGE_PIXELS / 1_000_000} мегапикселей`;
const EDIT_ROLES = new Set(['owner', 'editor']);

export interface ImageRoutesDeps {
  images: ImageStore;
  verifier: TokenVerifier;
  boards: BoardAccessClient;
  maxBytes?: number;
  /** Signs and checks image URLs (domain/image-urls.ts). */
  urlKey: Uint8Array;
}

const BoardParams = z.object({
  boardId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[\w-]+$/),
});
const ImageParams = BoardParams.extend({ hash: z.string().regex(IMAGE_HASH_SHAPE) });
const SignedQuery = z.object({
  exp: z.coerce.number().int().min(0).max(2 ** 40).optional(),
  sig: z.string().max(64).optional(),
});

/** The URL an image object's `src` holds. */
export const imageUrl = (boardId: string, hash: string): string => `/yjs/images/${boardId}/${hash}`;

async function identify(
  deps: ImageRoutesDeps,
  req: Request,
  boardId: string,
  token?: string,
  share?: string,
): Promise<Identity> {
  if (!token && !share) throw appError('TOKEN_MISSING');
  const result = await resolveIdentity(deps, boardId, { token, share, address: req.ip });
  return identityOrThrow(result);
}

function sendImage(res: express.Response, image: StoredImage): void {
  res.set({
    'content-type': image.mime,
    // The URL names the content, so it never changes; private because reading it needs a right.
    'cache-control': 'private, max-age=31536000, immutable',
    etag: `"${image.hash}"`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'",
  });
  res.send(image.bytes);
}

export function imageRoutes(deps: ImageRoutesDeps): Router {
  const maxBytes = deps.maxBytes ?? DEFAULT_IMAGE_MAX_BYTES;
  const r = Router();
  const raw = express.raw({ type: () => true, limit: maxBytes });

  r.post(
    '/yjs/images/:boardId',
    // Refused before a byte is read when the declared length is already too much.
    (req, _res, next) =>
      next(Number(req.get('content-length') ?? 0) > maxBytes ? appError('IMAGE_TOO_LARGE') : undefined),
    async (req, _res, next) => {
      // Who first, so a stranger cannot make the server buffer 10 MB.
      try {
        const { boardId } = parse(BoardParams, req.params);
        const who = await identify(
          deps,
          req,
          boardId,
          bearerToken(req),
          req.get('x-share-token') ?? undefined,
        );
        if (!EDIT_ROLES.has(who.role)) throw appError('ACCESS_DENIED');
        next();
      } catch (err) {
        next(err);
      }
    },
    (req, res, next) =>
      raw(req, res, (err?: unknown) => {
        const e = err as { type?: string } | undefined;
        next(e?.type === 'entity.too.large' ? appError('IMAGE_TOO_LARGE') : err);
      }),
    async (req, res) => {
      const { boardId } = parse(BoardParams, req.params);
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const mime = sniffImageType(bytes);
      if (!mime) throw appError('IMAGE_TYPE_NOT_ALLOWED');
      const size = imageSize(bytes);
      // A header cut short is no picture; one that declares a huge one would be decoded by every browser.
      if (!size) throw appError('IMAGE_TYPE_NOT_ALLOWED');
      if (!imageSizeAllowed(size)) throw appError('IMAGE_TOO_LARGE', { message: IMAGE_DIMENSIONS_TEXT });
      const hash = imageHash(bytes);
      // Past 4,096 px a side a display-size variant is kept beside it (variants.ts); no decodable picture, no upload.
      const display = needsDisplayVariant(size) ? await displayVariant(bytes, mime) : null;
      if (needsDisplayVariant(size) && !display) throw appError('IMAGE_TYPE_NOT_ALLOWED');
      await deps.images.put(boardId, { hash, mime, bytes }, display);
      res.status(201).json({ hash, url: imageUrl(boardId, hash), mime, size: bytes.length });
    },
  );

  r.get('/yjs/images/:boardId/:hash', async (req, res) => {
    const { boardId, hash } = parse(ImageParams, req.params);
    // A signed URL (domain/image-urls.ts, handed out by POST /yjs/images/:boardId/urls), never a token.
    const check = checkImageUrl(deps.urlKey, boardId, hash, parse(SignedQuery, req.query), Date.now());
    if (check !== 'ok') throw appError(check === 'expired' ? 'IMAGE_URL_EXPIRED' : 'IMAGE_URL_INVALID');
    if (req.get('if-none-match') === `"${hash}"`) return void res.status(304).end();
    // The display-size variant unless `?original=1` (the original stays downloadable).
    const image = await deps.images.get(boardId, hash, { original: req.query.original === '1' });
    if (!image) throw appError('IMAGE_NOT_FOUND');
    sendImage(res, image);
  });

  r.get('/internal/boards/:boardId/images/:hash', async (req, res) => {
    const { boardId, hash } = parse(ImageParams, req.params);
    // The display-size variant unless `?original=1` (the original stays downloadable).
    const image = await deps.images.get(boardId, hash, { original: req.query.original === '1' });
    if (!image) throw appError('IMAGE_NOT_FOUND');
    sendImage(res, image);
  });

  return r;
}
