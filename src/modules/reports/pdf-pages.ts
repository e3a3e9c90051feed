// The pages of the report's PDF (pdf.ts draws the sections on them): the document, its fonts, page breaks and
// running header, headings, photos, the contents page and page numbers (docs/decisions.md#20).
import type { ReportData } from "./report-data.js";
import {
  type FONTS,
  PHOTO_CONCURRENCY,
  type PhotoLoader,
  type SvgToPdf,
  attachCachedFonts,
  cachedPrintCopy,
  type loadPdfLibraries,
  printCopy,
} from "./pdf-assets.js";
import { BOTTOM, C, CONTENT, PAGE } from "./pdf-style.js";
import { type PdfWords, pdfWords } from "./pdf-words.js";
import type { RenderLocale } from "../../i18n/locales.js";
import type { PdfFormat } from "./reports.schemas.js";

/** pdfkit's opened image (not in its type definitions): embedded once, drawn as often as needed. */
type PdfImage = { width: number; height: number };

export class ReportPages {
  readonly doc: PDFKit.PDFDocument;
  protected readonly svgToPdf: SvgToPdf;
  private readonly images = new Map<number, Promise<PdfImage | null>>();
  /** Section title → its page index (for the contents and the outline). */
  readonly sections: { title: string; page: number; level: number }[] = [];
  /** The customer's language: every word the document prints (pdf-words.ts). */
  protected readonly words: PdfWords;

  constructor(
    libraries: Awaited<ReturnType<typeof loadPdfLibraries>>,
    readonly data: ReportData,
    readonly format: PdfFormat,
    private readonly loadPhoto: PhotoLoader,
    locale: RenderLocale,
  ) {
    this.words = pdfWords(locale);
    const { t } = this.words;
    this.svgToPdf = libraries.svgToPdf;
    this.doc = new libraries.PDFDocument({
      size: "LETTER",
      margins: { top: PAGE.margin, bottom: PAGE.margin, left: PAGE.margin, right: PAGE.margin },
      bufferPages: true,
      autoFirstPage: false,
      info: {
        Title: t("report-pdf.info.title", { address: data.property.address }),
        Author: "Haven",
        Subject: t("report-pdf.info.subject", { format }),
      },
      pdfVersion: "1.7",
    });
    attachCachedFonts(this.doc);
  }

  protected font(name: keyof typeof FONTS, size: number, colour: string = C.ink) {
    return this.doc.font(name).fontSize(size).fillColor(colour);
  }

  protected addPage() {
    this.doc.addPage();
    this.doc.x = PAGE.margin;
    this.doc.y = PAGE.margin;
  }

  /** Starts a new page when less than `height` points are left. */
  protected ensure(height: number) {
    if (this.doc.y + height > BOTTOM) {
      this.addPage();
      this.runningHeader();
    }
  }

  protected runningHeader() {
    const { doc } = this;
    this.font("semibold", 8.5, C.muted).text(
      this.words.t("report-pdf.runningHeader", { address: this.data.property.address.toUpperCase() }),
      PAGE.margin,
      26,
      { width: CONTENT, characterSpacing: 0.4, lineBreak: false },
    );
    doc
      .moveTo(PAGE.margin, 40)
      .lineTo(PAGE.width - PAGE.margin, 40)
      .lineWidth(0.5)
      .strokeColor(C.line)
      .stroke();
    doc.x = PAGE.margin;
    doc.y = PAGE.margin + 4;
  }

  protected section(title: string, level = 0) {
    this.sections.push({
      title,
      page: this.doc.bufferedPageRange().start + this.doc.bufferedPageRange().count - 1,
      level,
    });
  }

  protected heading(title: string, subtitle?: string) {
    this.ensure(60);
    this.section(title);
    this.font("bold", 17, C.green900).text(title, PAGE.margin, this.doc.y);
    if (subtitle) this.font("regular", 10, C.muted).text(subtitle);
    const y = this.doc.y + 7;
    this.doc
      .moveTo(PAGE.margin, y)
      .lineTo(PAGE.margin + 56, y)
      .lineWidth(2)
      .strokeColor(C.gold500)
      .stroke();
    this.doc.y = y + 12;
  }

  protected image(photoId: number): Promise<PdfImage | null> {
    let pending = this.images.get(photoId);
    if (!pending) {
      const cached = cachedPrintCopy(photoId);
      const bytes = cached
        ? cached.then((b) => b as Buffer | null)
        : this.loadPhoto(photoId).then((photo) => (photo ? printCopy(photoId, photo.bytes) : null));
      pending = bytes.then(async (copy) => {
        if (!copy) return null;
        try {
          return (this.doc as unknown as { openImage(src: Buffer): PdfImage }).openImage(copy);
        } catch {
          return null; // an image that cannot be read is left out, never a failed PDF
        }
      });
      this.images.set(photoId, pending);
    }
    return pending;
  }

  /** Loads and shrinks every photo of the document a few at a time, before the pages are laid out. */
  async preparePhotos(ids: number[]) {
    const queue = [...new Set(ids)];
    const worker = async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await this.image(id);
    };
    await Promise.all(Array.from({ length: PHOTO_CONCURRENCY }, worker));
  }

  /** A row of photos, fitted into equal cells; wraps onto new rows and pages. */
  protected async photos(ids: number[], perRow = 4) {
    if (!ids.length) return;
    const gap = 8;
    const cell = (CONTENT - 14 - gap * (perRow - 1)) / perRow;
    const height = cell * 0.75;
    for (let start = 0; start < ids.length; start += perRow) {
      const row = await Promise.all(ids.slice(start, start + perRow).map((id) => this.image(id)));
      const shown = row.filter((i): i is PdfImage => i !== null);
      if (!shown.length) continue;
      this.ensure(height + gap);
      const y = this.doc.y;
      shown.forEach((img, i) => {
        const x = PAGE.margin + 14 + i * (cell + gap);
        this.doc.save().roundedRect(x, y, cell, height, 3).clip();
        this.doc.image(img as unknown as Buffer, x, y, { cover: [cell, height], align: "center", valign: "center" });
        this.doc.restore();
        this.doc.roundedRect(x, y, cell, height, 3).lineWidth(0.5).strokeColor(C.line).stroke();
      });
      this.doc.x = PAGE.margin;
      this.doc.y = y + height + gap;
    }
  }

  protected contents(pageIndex: number) {
    const { doc } = this;
    doc.switchToPage(pageIndex);
    doc.y = PAGE.margin + 4;
    this.font("bold", 17, C.green900).text(this.words.t("report-pdf.section.contents"), PAGE.margin, doc.y);
    const y = doc.y + 4;
    doc
      .moveTo(PAGE.margin, y)
      .lineTo(PAGE.margin + 56, y)
      .lineWidth(2)
      .strokeColor(C.gold500)
      .stroke();
    doc.y = y + 14;
    for (const s of this.sections) {
      const indent = s.level * 16;
      const rowY = doc.y;
      this.font(s.level ? "regular" : "semibold", s.level ? 10 : 11, s.level ? C.ink : C.green900).text(
        s.title,
        PAGE.margin + indent,
        rowY,
        { width: CONTENT - indent - 40, lineBreak: false, goTo: `section-${this.sections.indexOf(s)}` },
      );
      this.font("regular", 10, C.muted).text(String(s.page + 1), PAGE.width - PAGE.margin - 40, rowY, {
        width: 40,
        align: "right",
        lineBreak: false,
      });
      doc.y = rowY + (s.level ? 16 : 20);
    }
  }

  protected pageNumbers() {
    const { doc } = this;
    const range = doc.bufferedPageRange();
    const { t } = this.words;
    for (let i = range.start; i < range.start + range.count; i++) {
      doc.switchToPage(i);
      // Writing below the bottom margin must not add a page.
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      this.font("regular", 8, C.muted).text(
        t("report-pdf.page.number", { page: i + 1, count: range.count }),
        PAGE.margin,
        PAGE.height - 30,
        { width: CONTENT, align: "right", lineBreak: false },
      );
      this.font("regular", 8, C.muted).text(
        t("report-pdf.page.report", { id: String(this.data.metadata.reportId) }),
        PAGE.margin,
        PAGE.height - 30,
        { width: CONTENT, align: "left", lineBreak: false },
      );
      doc.page.margins.bottom = bottom;
    }
  }
}
