/**
 * The export flow of the board page (§2, §4, §8): a menu item picks the format and starts the
 * canvas's export-area selection with 'Выделите область для экспорта PNG'; the canvas hands back the
 * area (over 10×10) through `onExportArea`; the full-screen overlay shows while the server renders;
 * the file downloads under the server's name; then 'PNG экспортирован успешно!', or
 * 'Ошибка экспорта' for a refusal and 'Ошибка при экспорте PNG' when the call itself failed.
 */
import { useCallback, useRef, useState } from 'react';
import { notify } from '../../../lib/notify.ts';
import {
  ExportRefused,
  requestExport,
  saveBlob,
  useGetExportFormatsQuery,
  type ExportArea,
} from './exportApi.ts';
import { exportTexts, type ExportFormat } from './texts.ts';

export interface BoardExportOptions {
  boardId: string;
  accessToken: string | null;
  /** Only the owner exports; others never ask the server for formats. */
  isOwner: boolean;
  /** Switches the canvas to its export-select tool. */
  startAreaSelection(): void;
}

export interface BoardExport {
  /** Formats offered in the menu (PDF only on plans that have it). */
  formats: ExportFormat[];
  /** The format being exported while the overlay shows, else null. */
  exporting: ExportFormat | null;
  choose(format: ExportFormat): void;
  /** Pass to the canvas as `onExportArea`. */
  onExportArea(area: ExportArea): Promise<void>;
}

export function useBoardExport(opts: BoardExportOptions): BoardExport {
  const formatsQ = useGetExportFormatsQuery(undefined, { skip: !opts.isOwner });
  const formats: ExportFormat[] = formatsQ.data?.formats ?? ['png', 'svg'];
  const pending = useRef<ExportFormat>('png');
  const [exporting, setExporting] = useState<ExportFormat | null>(null);
  const { boardId, accessToken, startAreaSelection } = opts;

  const choose = useCallback(
    (format: ExportFormat) => {
      pending.current = format;
      startAreaSelection();
      notify.info(exportTexts(format).selectArea);
    },
    [startAreaSelection],
  );

  const onExportArea = useCallback(
    async (area: ExportArea) => {
      const format = pending.current;
      const texts = exportTexts(format);
      setExporting(format);
      try {
        const { blob, fileName } = await requestExport({ format, boardId, area, accessToken });
        saveBlob(blob, fileName);
        notify.success(texts.success);
      } catch (err) {
        notify.error(err instanceof ExportRefused ? texts.refused : texts.failure);
      } finally {
        setExporting(null);
        pending.current = 'png';
      }
    },
    [boardId, accessToken],
  );

  return { formats, exporting, choose, onExportArea };
}
