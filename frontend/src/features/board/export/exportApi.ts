/**
 * The export calls: which formats the user's plan has (GET /api/export/formats) and the export itself
 * (POST /api/export/{format}), downloaded under the name the server chose (Content-Disposition).
 */
import { baseApi } from '../../../api/baseApi.ts';
import type { ExportFormat } from './texts.ts';

export interface ExportArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

const exportApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getExportFormats: build.query<{ formats: ExportFormat[] }, void>({ query: () => '/export/formats' }),
  }),
});
export const { useGetExportFormatsQuery } = exportApi;

/** The server answered with an error status: the toast is 'Ошибка экспорта' (§8). */
export class ExportRefused extends Error {
  constructor(readonly status: number) {
    super(`export refused (${status})`);
  }
}

/** The file name of a Content-Disposition header, UTF-8 form first (RFC 6266); null if none. */
export function fileNameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      /* malformed: fall back to the plain form */
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(disposition) ?? /filename\s*=\s*([^;]+)/i.exec(disposition);
  return plain ? plain[1]!.trim() : null;
}

export async function requestExport(opts: {
  format: ExportFormat;
  boardId: string;
  area: ExportArea;
  accessToken: string | null;
  fetchImpl?: typeof fetch;
}): Promise<{ blob: Blob; fileName: string }> {
  const res = await (opts.fetchImpl ?? fetch)(`/api/export/${opts.format}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(opts.accessToken ? { Authorization: `Bearer ${opts.accessToken}` } : {}),
    },
    body: JSON.stringify({ boardId: opts.boardId, area: opts.area }),
  });
  if (!res.ok) throw new ExportRefused(res.status);
  const blob = await res.blob();
  return { blob, fileName: fileNameFrom(res.headers.get('content-disposition')) ?? `Доска.${opts.format}` };
}

/** Saves a blob through a temporary link (the browser's download). */
export function saveBlob(blob: Blob, fileName: string): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
