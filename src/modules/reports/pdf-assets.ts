// What the report PDF embeds (reports/pdf.ts draws the pages): the Inter fonts, parsed once per process,
// and small JPEG print copies of the photos, kept for recent photos.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * pdfkit, svg-to-pdfkit and sharp, loaded on the first PDF: together about half a second of start-up that
 * the web server and every `haven` command would otherwise pay before doing anything.
 */
export type SvgToPdf = (
  doc: PDFKit.PDFDocument,
  svg: string,
  x: number,
  y: number,
  options?: { width?: number; height?: number },
) => void;
let pdfLibraries: Promise<{ PDFDocument: typeof import("pdfkit"); svgToPdf: SvgToPdf }> | null = null;
export const loadPdfLibraries = () =>
  (pdfLibraries ??= import("pdfkit").then((pdfkit) => ({
    PDFDocument: pdfkit.default,
    svgToPdf: require("svg-to-pdfkit") as SvgToPdf,
  })));
const loadSharp = () => import("sharp").then((m) => m.default);
export const FONTS = {
  regular: require.resolve("@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf"),
  medium: require.resolve("@expo-google-fonts/inter/500Medium/Inter_500Medium.ttf"),
  semibold: require.resolve("@expo-google-fonts/inter/600SemiBold/Inter_600SemiBold.ttf"),
  bold: require.resolve("@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf"),
};

/**
 * pdfkit parses each TTF again for every document, and shapes every word again: most of a PDF's time.
 * The parsed fonts and their word layouts are kept for the process (pdfkit has no option for it, so
 * its per-document font table is filled in by hand), and each document still embeds its own subset.
 */
type Internals = {
  _fontFamilies: Record<
    string,
    { font: unknown; layoutCache: unknown; constructor: new (doc: unknown, font: unknown, id: string) => unknown }
  >;
  _fontCount: number;
};
const parsedFonts = new Map<
  string,
  { font: unknown; layoutCache: unknown; EmbeddedFont: new (doc: unknown, font: unknown, id: string) => unknown }
>();

export function attachCachedFonts(doc: PDFKit.PDFDocument) {
  const internals = doc as unknown as Internals;
  for (const [name, file] of Object.entries(FONTS)) {
    doc.registerFont(name, file);
    const cached = parsedFonts.get(name);
    if (cached) {
      const embedded = new cached.EmbeddedFont(doc, cached.font, `F${++internals._fontCount}`) as {
        layoutCache: unknown;
      };
      embedded.layoutCache = cached.layoutCache;
      internals._fontFamilies[name] = embedded as Internals["_fontFamilies"][string];
    } else {
      doc.font(name);
      const embedded = internals._fontFamilies[name]!;
      parsedFonts.set(name, {
        font: embedded.font,
        layoutCache: embedded.layoutCache,
        EmbeddedFont: embedded.constructor,
      });
    }
  }
}

/**
 * Photos are stored at up to 2048 px; a PDF cell is at most 125 pt (1.7 in) wide. A 480 px JPEG print copy
 * is about 280 dpi there, keeps a 60-photo report far below its 8 MB budget, and decodes a stored JPEG at
 * a quarter of its size (shrink-on-load), which is most of the speed. Photos never change under their id,
 * so the print copies of recent photos are kept for the process.
 */
const PRINT_EDGE = 480;
export const PHOTO_CONCURRENCY = 4;
const PRINT_CACHE_SIZE = 400;
const printCopies = new Map<number, Promise<Buffer>>();

/** A print copy already made, so its photo need not be loaded again. */
export const cachedPrintCopy = (photoId: number): Promise<Buffer> | undefined => printCopies.get(photoId);

export function printCopy(photoId: number, bytes: Buffer): Promise<Buffer> {
  const cached = printCopies.get(photoId);
  if (cached) {
    // Most recently used last.
    printCopies.delete(photoId);
    printCopies.set(photoId, cached);
    return cached;
  }
  const copy = loadSharp().then((sharp) =>
    sharp(bytes, { failOn: "error" })
      .rotate()
      .resize({ width: PRINT_EDGE, height: PRINT_EDGE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 75 })
      .toBuffer(),
  );
  copy.catch(() => printCopies.delete(photoId));
  printCopies.set(photoId, copy);
  if (printCopies.size > PRINT_CACHE_SIZE) printCopies.delete(printCopies.keys().next().value as number);
  return copy;
}

export type PhotoLoader = (photoId: number) => Promise<{ mimeType: string; bytes: Buffer } | null>;
