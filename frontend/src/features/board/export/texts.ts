/**
 * Export texts. The PNG ones are copied from board-page.md §8 (page/texts.ts holds them and its test
 * checks them against the spec); SVG and PDF, which the spec marks 'в разработке', get the same
 * sentences with their own format name (decision in README.md).
 */
import { SPEC } from '../page/texts.ts';

export type ExportFormat = 'png' | 'svg' | 'pdf';
export const FORMAT_LABEL: Record<ExportFormat, string> = { png: 'PNG', svg: 'SVG', pdf: 'PDF' };

const forFormat = (pngText: string, format: ExportFormat) => pngText.replace('PNG', FORMAT_LABEL[format]);

export const exportTexts = (format: ExportFormat) => ({
  selectArea: forFormat(SPEC.selectExportArea, format),
  success: forFormat(SPEC.pngExported, format),
  failure: forFormat(SPEC.pngExportError, format),
  /** A non-OK answer from the server (§8). */
  refused: SPEC.exportError,
  overlay: `Экспорт ${FORMAT_LABEL[format]}...`,
});

export const MENU_LABEL = 'Экспорт';
