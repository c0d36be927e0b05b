/** product.md §2: PNG and SVG on every plan, PDF only with export_pdf_enabled. */
export interface PdfEntitlement {
  exportPdf: boolean;
  limitsEnabled: boolean;
}

/** No entitlement known yet, or billing off (limits disabled): everything is allowed. */
export function pdfAllowed(e: PdfEntitlement | null): boolean {
  if (!e || !e.limitsEnabled) return true;
  return e.exportPdf;
}
