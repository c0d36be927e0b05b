/** The board page's export pieces; see README.md for how the page mounts them. */
export { ExportMenu, type ExportMenuProps } from './ExportMenu.tsx';
export { ExportOverlay } from './ExportOverlay.tsx';
export { useBoardExport, type BoardExport, type BoardExportOptions } from './useBoardExport.ts';
export { fileNameFrom, requestExport, ExportRefused, type ExportArea } from './exportApi.ts';
export { exportTexts, type ExportFormat } from './texts.ts';
