import { useCallback, type RefObject } from 'react';
import type { Point } from '@wb/board-model';
import type { CanvasEngine } from './engine/CanvasEngine.ts';
import { naturalSize } from './engine/render/images.ts';
import { ImageUploadError, dataUrlUpload, fetchExternalImage, isImageFile } from './images.ts';
import { LABELS } from './texts.ts';
import type { BoardCanvasProps } from './types.ts';

/** Inserting an image file (upload, then the insert command), or one from another page's address. */
export function useImageInsert(engine: CanvasEngine | null, latest: RefObject<BoardCanvasProps>) {
  const insertImageFile = useCallback(
    async (file: File, at?: Point) => {
      if (!engine) return;
      const say = (t: string) => latest.current.onMessage?.(t, 'error');
      if (!isImageFile(file)) return say(LABELS.imageNotImage);
      let src: string;
      try {
        src = await (latest.current.uploadImage ?? dataUrlUpload)(file);
      } catch (err) {
        if (err instanceof ImageUploadError) return say(err.message);
        return say(err instanceof RangeError ? LABELS.imageTooLarge : LABELS.imageUploadFailed);
      }
      engine.commands.insertImage(src, await naturalSize(src), at);
    },
    [engine, latest],
  );

  /** An image from another page (pasted HTML, a dropped link): fetched here and uploaded like a file. */
  const insertExternalImage = useCallback(
    async (url: string, at?: Point) => {
      let file: File;
      try {
        file = await fetchExternalImage(url);
      } catch {
        return latest.current.onMessage?.(LABELS.imageFetchFailed, 'error');
      }
      await insertImageFile(file, at);
    },
    [insertImageFile, latest],
  );

  return { insertImageFile, insertExternalImage };
}
