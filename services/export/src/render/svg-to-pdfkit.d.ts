// svg-to-pdfkit ships no types; only the call the render task makes.
declare module 'svg-to-pdfkit' {
  export default function SVGtoPDF(
    doc: PDFKit.PDFDocument,
    svg: string,
    x?: number,
    y?: number,
    options?: {
      width?: number;
      height?: number;
      assumePt?: boolean;
      fontCallback?: (family: string) => string;
    },
  ): void;
}
