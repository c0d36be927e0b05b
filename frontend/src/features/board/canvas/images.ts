/** Images from the file picker and the clipboard: only image types (§5), stored through the page's upload call. */
import { IMAGE_DATA_URL_MAX } from '@wb/board-model';

export const isImageFile = (file: Blob): boolean => file.type.startsWith('image/');

/** The clipboard's image files, in order; other items (text, HTML) are ignored. */
export function clipboardImages(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files: File[] = [];
  for (const item of data.items) {
    if (item.kind !== 'file' || !item.type.startsWith('image/')) continue;
    const file = item.getAsFile();
    if (file) files.push(file);
  }
  return files;
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** Without an image store the image is kept in the document, as long as it fits the server's data URL limit. */
export async function dataUrlUpload(file: File): Promise<string> {
  const url = await readAsDataUrl(file);
  if (url.length > IMAGE_DATA_URL_MAX) throw new RangeError('image too large');
  return url;
}

/** The server's refusal (type, size, role), with its Russian text. */
export class ImageUploadError extends Error {}

/**
 * The image store's upload call (POST /yjs/images/:boardId, raw bytes; owner and editors). Answers
 * the image's URL for the object's `src`. For the page: `uploadImage={(f) => uploadBoardImage(id, f, auth)}`.
 */
export async function uploadBoardImage(
  boardId: string,
  file: Blob,
  auth: { accessToken?: string | null; shareToken?: string | null },
): Promise<string> {
  const headers: Record<string, string> = { 'Content-Type': file.type || 'application/octet-stream' };
  if (auth.accessToken) headers.Authorization = `Bearer ${auth.accessToken}`;
  if (auth.shareToken) headers['x-share-token'] = auth.shareToken;
  const res = await fetch(`/yjs/images/${encodeURIComponent(boardId)}`, { method: 'POST', headers, body: file });
  const body = (await res.json().catch(() => null)) as { url?: string; error?: string } | null;
  if (!res.ok || !body?.url) throw new ImageUploadError(body?.error ?? `HTTP ${res.status}`);
  return body.url;
}

/** The hash of a stored image of `boardId` (`/yjs/images/<board>/<hash>`), or null for any other src. */
function storedHash(src: string, boardId: string): string | null {
  const prefix = `/yjs/images/${boardId}/`;
  if (!src.startsWith(prefix)) return null;
  const hash = src.slice(prefix.length);
  return /^[0-9a-f]{64}$/.test(hash) ? hash : null;
}

/** Asked for again this long before a signed URL expires (a board opened for hours keeps loading). */
const RESIGN_MARGIN_MS = 60_000;

/**
 * Stored images are read with short-lived signed URLs (issue 32 item 9), never with the access or
 * share token in the URL: the credential goes in a header of one call per batch
 * (POST /yjs/images/:boardId/urls), and the <img> loads a URL that names one image until an expiry.
 * The hashes asked for in one turn go in one call. Data URLs load as they are; any other src (an
 * outside address, another board's image) is not loaded at all (the grey placeholder).
 * For the page: `resolveImageSrc={createImageUrlSigner(boardId, auth)}`.
 */
export function createImageUrlSigner(
  boardId: string,
  auth: { accessToken?: string | null; shareToken?: string | null },
): (src: string) => Promise<string> {
  const signed = new Map<string, { url: string; until: number }>();
  let batch: Map<string, Array<{ resolve(url: string): void; reject(err: unknown): void }>> | null = null;

  async function flush(wanted: NonNullable<typeof batch>): Promise<void> {
    try {
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (auth.accessToken) headers.Authorization = `Bearer ${auth.accessToken}`;
      if (auth.shareToken) headers['x-share-token'] = auth.shareToken;
      const res = await fetch(`/yjs/images/${encodeURIComponent(boardId)}/urls`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ hashes: [...wanted.keys()] }),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { urls: Record<string, string>; expiresAt: number };
      for (const [hash, waiters] of wanted) {
        const url = body.urls[hash];
        if (url) signed.set(hash, { url, until: body.expiresAt - RESIGN_MARGIN_MS });
        for (const w of waiters) {
          if (url) w.resolve(url);
          else w.reject(new Error('not signed'));
        }
      }
    } catch (err) {
      for (const waiters of wanted.values()) for (const w of waiters) w.reject(err);
    }
  }

  return (src) => {
    if (src.startsWith('data:')) return Promise.resolve(src);
    const hash = storedHash(src, boardId);
    if (!hash) return Promise.reject(new Error('not an image of this board'));
    const known = signed.get(hash);
    if (known && known.until > Date.now()) return Promise.resolve(known.url);
    return new Promise((resolve, reject) => {
      if (!batch) {
        const current = (batch = new Map());
        setTimeout(() => {
          batch = null;
          void flush(current);
        }, 0);
      }
      const waiters = batch.get(hash) ?? [];
      waiters.push({ resolve, reject });
      batch.set(hash, waiters);
    });
  };
}

/** An image dragged or pasted from another page: the address of its first <img>, or a dropped link. */
export function externalImageUrl(data: DataTransfer | null): string | null {
  if (!data) return null;
  const html = data.getData('text/html');
  if (html) {
    const img = new DOMParser().parseFromString(html, 'text/html').querySelector('img[src]');
    const src = img?.getAttribute('src') ?? '';
    if (/^https?:\/\//i.test(src)) return src;
  }
  const uri = data
    .getData('text/uri-list')
    .split(/\r?\n/)
    .find((l) => l && !l.startsWith('#'));
  return uri && /^https?:\/\//i.test(uri) ? uri : null;
}

/**
 * Fetches an outside image so it can be uploaded to the board: the board never points at another
 * site (every viewer's browser would fetch it). No cookies and no referrer go with the request; a
 * site that does not allow it (CORS) or answers with something that is not an image throws.
 */
export async function fetchExternalImage(url: string): Promise<File> {
  const res = await fetch(url, { mode: 'cors', credentials: 'omit', referrerPolicy: 'no-referrer' });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const blob = await res.blob();
  if (!isImageFile(blob)) throw new TypeError('not an image');
  const name = new URL(url).pathname.split('/').pop() || 'image';
  return new File([blob], name, { type: blob.type });
}
