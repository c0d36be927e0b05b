/** Images from the file picker and the clipboard: only image types (§5), stored through the page's upload call. */
import { OBJECT_LIMITS } from '@wb/board-model';

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

/** Without an image store the image is kept in the document, as long as it fits the schema's limit. */
export async function dataUrlUpload(file: File): Promise<string> {
  const url = await readAsDataUrl(file);
  if (url.length > OBJECT_LIMITS.imageSrcLength) throw new RangeError('image too large');
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

/**
 * Stored images are read with the viewer's credential in the query (an <img> sends no headers).
 * For the page: `resolveImageSrc={(src) => imageSrcWithToken(src, token)}`.
 */
export function imageSrcWithToken(src: string, token: string | null | undefined): string {
  if (!token || !src.startsWith('/yjs/images/')) return src;
  return `${src}${src.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`;
}
