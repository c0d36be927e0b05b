/** The download's name (board-page.md §7): date-time and the sanitised title, 'Доска' by default. */
export const DEFAULT_TITLE = 'Доска';
const MAX_TITLE = 80;

/** Keeps letters, digits, spaces and - _ . ( ); anything a file system or a header could choke on goes. */
export function sanitizeTitle(title: string | null | undefined): string {
  const clean = (title ?? '')
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} _.()-]+/gu, ' ')
    .replace(/\.{2,}/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, MAX_TITLE)
    .trim();
  return clean || DEFAULT_TITLE;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** e.g. `2026-11-23_18-40-05_План спринта.png`, in UTC so every replica names alike. */
export function exportFileName(
  title: string | null | undefined,
  ext: 'png' | 'svg' | 'pdf',
  at = new Date(),
): string {
  const stamp = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}_${pad(at.getUTCHours())}-${pad(at.getUTCMinutes())}-${pad(at.getUTCSeconds())}`;
  return `${stamp}_${sanitizeTitle(title).replace(/ /g, '_')}.${ext}`;
}

/** RFC 6266: an ASCII fallback plus the UTF-8 name, which browsers prefer. */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
