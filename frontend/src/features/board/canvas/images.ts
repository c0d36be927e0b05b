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
