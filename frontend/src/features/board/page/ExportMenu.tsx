/**
 * Export dropdown (§2): PNG enabled, SVG and PDF disabled and marked 'в разработке'. Stands in until
 * the export feature (frontend/src/features/board/export) ships its own pieces.
 */
import { DownloadIcon } from 'lucide-react';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/index.ts';
import { notify } from '../../../lib/notify.ts';
import { OWN, SPEC } from './texts.ts';
import styles from './boardPage.module.css';

export function ExportMenu({ onPng }: { onPng(): void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className={styles.headerButton} data-testid="export-trigger" aria-label={OWN.exportMenu} title={OWN.exportMenu}>
        <DownloadIcon size={16} aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem onSelect={onPng} data-testid="export-png">
          {OWN.exportPng}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => notify.info(SPEC.svgSoon)} aria-disabled="true" data-testid="export-svg">
          {OWN.exportSvg} <span className={styles.muted}>({SPEC.inDevelopment})</span>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => notify.info(SPEC.pdfSoon)} aria-disabled="true" data-testid="export-pdf">
          {OWN.exportPdf} <span className={styles.muted}>({SPEC.inDevelopment})</span>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** POST /api/export/png (§7): the image downloads as '<date-time>_<title>.png' (default title 'Доска'). */
export async function exportPng(opts: {
  boardId: string;
  title: string;
  area: { x: number; y: number; width: number; height: number };
  accessToken: string | null;
}): Promise<void> {
  const res = await fetch('/api/export/png', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(opts.accessToken ? { Authorization: `Bearer ${opts.accessToken}` } : {}) },
    body: JSON.stringify({ boardId: opts.boardId, area: opts.area }),
  });
  if (!res.ok) throw new Error(SPEC.exportError);
  const blob = await res.blob();
  const safeTitle = (opts.title.replace(/[\\/:*?"<>|\s]+/g, '_').slice(0, 80) || SPEC.defaultTitle).replace(/^_+|_+$/g, '') || SPEC.defaultTitle;
  const stamp = new Date().toISOString().slice(0, 19).replace(/[T:]/g, '-');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${stamp}_${safeTitle}.png`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
