// The report as PDF (docs/decisions.md#20): pdfkit, from the snapshot alone. Inter is embedded (TTF,
// subset by pdfkit) so é, ’ or Ł always render; the score ring is an SVG drawn as vectors.
import { barColour } from "../inspections/index.js";
import { type ReportCategory, type ReportData, type ReportRecommendation, SUMMARY_ITEM_SCORES } from "./report-data.js";
import { addressLine } from "../../shared/address.js";
import { DEFAULT_LOCALE, type RenderLocale } from "../../i18n/locales.js";
import { type PhotoLoader, loadPdfLibraries } from "./pdf-assets.js";
import { ReportPages } from "./pdf-pages.js";
import { BAND, BOTTOM, C, CONTENT, PAGE, PRIORITY, ringSvg, scoreText } from "./pdf-style.js";
import type { PdfFormat } from "./reports.schemas.js";

export type { PhotoLoader } from "./pdf-assets.js";

class ReportPdf extends ReportPages {
  /** The dark header band: product, title, property and inspection facts. */
  private cover() {
    const { doc, data, words } = this;
    const { t } = words;
    const bandHeight = 150;
    doc.rect(0, 0, PAGE.width, bandHeight).fill(C.green900);
    doc.rect(0, bandHeight, PAGE.width, 4).fill(C.gold300);
    this.font("bold", 11, C.gold300).text("HAVEN", PAGE.margin, 36, { characterSpacing: 3 });
    this.font("bold", 24, C.cream).text(
      t(this.format === "summary" ? "report-pdf.title.summary" : "report-pdf.title.full"),
      PAGE.margin,
      54,
    );
    this.font("medium", 12, C.cream).text(addressLine(data.property), PAGE.margin, 88, { width: CONTENT });
    const facts = [
      [t("report-pdf.fact.client"), data.property.clientName ?? "—"],
      [t("report-pdf.fact.inspected"), words.date(data.inspection.inspectionDate)],
      [t("report-pdf.fact.inspector"), data.property.inspector ?? "—"],
      [
        t("report-pdf.fact.report"),
        t("report-pdf.fact.reportValue", {
          id: String(data.metadata.reportId),
          date: words.date(data.property.reportGeneratedAt),
        }),
      ],
    ];
    const colWidth = CONTENT / facts.length;
    facts.forEach(([label, value], i) => {
      const x = PAGE.margin + i * colWidth;
      this.font("semibold", 7.5, C.gold300).text(label!.toLocaleUpperCase(words.t.locale), x, 114, {
        width: colWidth - 8,
        characterSpacing: 0.6,
      });
      this.font("regular", 9.5, C.cream).text(value!, x, 125, {
        width: colWidth - 8,
        lineBreak: false,
        ellipsis: true,
      });
    });
    doc.x = PAGE.margin;
    doc.y = bandHeight + 26;
  }

  /** Score ring, label and band, and the counts of the summary panel. */
  private scoreBlock() {
    const { doc, data, words } = this;
    const { t } = words;
    const top = doc.y;
    const size = 118;
    this.svgToPdf(doc, ringSvg(data.overallScore, size), PAGE.margin, top, { width: size, height: size });
    this.font("bold", 34, C.green900).text(scoreText(data.overallScore), PAGE.margin, top + size / 2 - 22, {
      width: size,
      align: "center",
      lineBreak: false,
    });
    this.font("medium", 7.5, C.muted).text(t("report-pdf.outOf"), PAGE.margin, top + size + 6, {
      width: size,
      align: "center",
      characterSpacing: 0.6,
      lineBreak: false,
    });

    const x = PAGE.margin + size + 28;
    const width = CONTENT - size - 28;
    this.font("semibold", 9, C.muted).text(t("report-pdf.overall"), x, top + 4, { characterSpacing: 0.8 });
    // The PDF is the homeowner's document: client labels (docs/decisions.md#41).
    const label = data.overallScore === null ? t("report-pdf.notScored") : words.band(data.overallScore);
    this.font("bold", 22, data.overallScore === null ? C.muted : BAND[barColour(data.overallScore)]).text(
      label,
      x,
      top + 17,
      { width },
    );
    const s = data.summary;
    this.font("regular", 10, C.ink).text(
      t("report-pdf.summary.sentence", {
        categories: data.metadata.totalCategoriesInspected,
        items: data.metadata.totalItemsInspected,
        issues: s.totalIssues,
        high: s.highPriority,
        highLabel: words.priority("high"),
        medium: s.mediumPriority,
        mediumLabel: words.priority("medium"),
        low: s.lowPriority,
        lowLabel: words.priority("low"),
      }),
      x,
      top + 48,
      { width },
    );
    // Summary counts: items scored 10, 7, 4 and 1, named as the form names them (two lines for the long ones).
    const boxTop = top + 84;
    const boxWidth = (width - 3 * 8) / 4;
    const tint: Record<string, string> = {
      Excellent: BAND.green,
      Marginal: "#a16207",
      Defective: "#c2410c",
      Critical: BAND.red,
    };
    SUMMARY_ITEM_SCORES.forEach(({ label: name, score }, i) => {
      const bx = x + i * (boxWidth + 8);
      doc.roundedRect(bx, boxTop, boxWidth, 44, 4).fill("#f4f6f5");
      this.font("bold", 13, tint[name]!).text(String(s.itemCounts[name]), bx + 8, boxTop + 5, {
        width: boxWidth - 16,
        lineBreak: false,
      });
      this.font("medium", 7.5, C.muted).text(words.choiceWithScore(score), bx + 8, boxTop + 22, {
        width: boxWidth - 12,
        height: 20,
        lineGap: -1,
      });
    });
    this.font("regular", 8.5, C.muted).text(t("report-pdf.summary.attention"), x, boxTop + 50, { width });
    doc.x = PAGE.margin;
    doc.y = Math.max(top + size + 16, boxTop + 62) + 18;
  }

  /** One bar per category, in its band colour. */
  private categoryBars(categories: ReportCategory[], rowHeight = 19) {
    const { doc } = this;
    const nameWidth = 190;
    const barX = PAGE.margin + nameWidth + 8;
    const barWidth = CONTENT - nameWidth - 8 - 110;
    for (const category of categories) {
      this.ensure(rowHeight);
      const y = doc.y;
      this.font("medium", 9, C.ink).text(this.words.category(category.categoryName), PAGE.margin, y + 2, {
        width: nameWidth,
        height: 11,
        ellipsis: true,
      });
      doc.roundedRect(barX, y + 3, barWidth, 8, 4).fill(C.track);
      if (category.score !== null) {
        const fill = Math.max(8, (barWidth * category.score) / 100);
        doc.roundedRect(barX, y + 3, fill, 8, 4).fill(BAND[barColour(category.score)]);
      }
      this.font("bold", 9, C.ink).text(scoreText(category.score), barX + barWidth + 8, y + 2, {
        width: 26,
        align: "right",
        lineBreak: false,
      });
      this.font("regular", 8.5, C.muted).text(this.words.categoryBand(category.score), barX + barWidth + 40, y + 2, {
        width: 70,
        lineBreak: false,
      });
      doc.x = PAGE.margin;
      doc.y = y + rowHeight;
    }
  }

  private priorityPill(priority: string, x: number, y: number): number {
    const text = this.words.priority(priority);
    this.doc.font("semibold").fontSize(7.5);
    const width = this.doc.widthOfString(text, { characterSpacing: 0.4 }) + 12;
    this.doc.roundedRect(x, y, width, 14, 7).fill(PRIORITY[priority] ?? C.muted);
    this.font("semibold", 7.5, "#ffffff").text(text, x + 6, y + 3.5, { characterSpacing: 0.4, lineBreak: false });
    return width;
  }

  private async recommendations(list: ReportRecommendation[], withPhotos: boolean, limit = list.length) {
    const { doc, words } = this;
    const { t } = words;
    if (!list.length) {
      this.font("regular", 10, C.muted).text(t("report-pdf.rec.none"));
      doc.moveDown();
      return;
    }
    // The summary stays within two pages: notes are cut to two lines, and what does not fit is counted.
    const compact = this.format === "summary";
    let shown = 0;
    for (const r of list.slice(0, limit)) {
      const notes = r.notes || words.description(r);
      doc.font("regular").fontSize(9.5);
      const notesHeight = Math.min(
        doc.heightOfString(notes, { width: CONTENT - 14 }),
        compact ? 24 : Number.POSITIVE_INFINITY,
      );
      const onLastPage = doc.bufferedPageRange().count >= 2;
      if (compact && onLastPage && doc.y + 34 + notesHeight + 16 > BOTTOM) break;
      this.ensure(34 + notesHeight);
      const y = doc.y;
      doc.rect(PAGE.margin, y, 3, 26 + notesHeight).fill(PRIORITY[r.priority] ?? C.muted);
      const pill = this.priorityPill(r.priority, PAGE.margin + 14, y);
      this.font("semibold", 10.5, C.ink).text(words.item(r.subcategory), PAGE.margin + 22 + pill, y + 1, {
        width: CONTENT - 30 - pill,
        lineBreak: false,
        ellipsis: true,
        continued: false,
      });
      this.font("regular", 8.5, C.muted).text(
        r.score === null
          ? words.category(r.category)
          : t("report-pdf.rec.score", { category: words.category(r.category), score: r.score }),
        PAGE.margin + 14,
        y + 18,
        { width: CONTENT - 14 },
      );
      this.font("regular", 9.5, C.ink).text(notes, PAGE.margin + 14, doc.y + 1, {
        width: CONTENT - 14,
        ...(compact ? { height: notesHeight, ellipsis: true } : {}),
      });
      doc.x = PAGE.margin;
      doc.y = Math.max(doc.y, y + 26 + notesHeight) + 6;
      if (withPhotos) await this.photos(r.photoIds);
      doc.y += 6;
      shown += 1;
    }
    if (shown < list.length) {
      this.font("medium", 9.5, C.muted).text(
        t("report-pdf.rec.more", { count: list.length - shown }),
        PAGE.margin,
        doc.y,
      );
      doc.moveDown(0.5);
    }
  }

  /** A category of the full report: its score and band, then every item with notes and photos. */
  private async categoryDetail(category: ReportCategory) {
    const { doc, words } = this;
    const { t } = words;
    const name = words.category(category.categoryName);
    this.ensure(90);
    this.section(name, 1);
    const y = doc.y;
    this.font("bold", 13, C.green900).text(name, PAGE.margin, y, { width: CONTENT - 120 });
    const colour = category.score === null ? C.muted : BAND[barColour(category.score)];
    this.font("bold", 13, colour).text(
      category.score === null
        ? t("report-pdf.notApplicable")
        : t("report-pdf.category.score", { score: category.score }),
      PAGE.width - PAGE.margin - 110,
      y,
      { width: 110, align: "right" },
    );
    this.font("regular", 8.5, C.muted).text(
      t("report-pdf.category.line", {
        band: category.score === null ? t("report-pdf.notScored") : words.categoryBand(category.score),
        weight: category.weight,
        count: category.subcategoryCount,
        notes: words.categoryNotes(category),
      }),
      PAGE.margin,
      doc.y + 1,
      { width: CONTENT },
    );
    doc.y += 6;
    for (const item of category.subcategories) {
      doc.font("regular").fontSize(9);
      const notesHeight = item.notes ? doc.heightOfString(item.notes, { width: CONTENT - 150 }) : 0;
      this.ensure(Math.max(20, notesHeight + 14));
      const rowY = doc.y;
      doc
        .moveTo(PAGE.margin, rowY)
        .lineTo(PAGE.width - PAGE.margin, rowY)
        .lineWidth(0.4)
        .strokeColor(C.line)
        .stroke();
      const dot = item.score === null ? C.line : BAND[barColour(item.score * 10)];
      doc.circle(PAGE.margin + 4, rowY + 10, 3).fill(dot);
      this.font("medium", 9.5, C.ink).text(words.item(item.subcategoryName), PAGE.margin + 12, rowY + 5, {
        width: 138,
      });
      const nameBottom = doc.y;
      this.font("semibold", 8.5, item.score === null ? C.muted : C.ink).text(
        this.itemScore(item.score, item.urgent),
        PAGE.margin + 150,
        rowY + 5.5,
        { width: CONTENT - 150 },
      );
      if (item.notes)
        this.font("regular", 9, C.muted).text(item.notes, PAGE.margin + 150, doc.y + 1, { width: CONTENT - 150 });
      doc.x = PAGE.margin;
      doc.y = Math.max(doc.y, nameBottom) + 5;
      if (item.photoIds.length) await this.photos(item.photoIds, 5);
    }
    doc.y += 14;
  }

  /** 'Good (7)', 'N/A', with '  ·  Urgent' when the inspector marked it urgent. */
  private itemScore(score: number | null, urgent: boolean): string {
    const { t, choice, choiceWithScore, urgentFlag } = this.words;
    const text = score === null ? choice(null) : choiceWithScore(score);
    return urgent ? t("report-pdf.item.urgent", { choice: text, urgent: urgentFlag() }) : text;
  }

  async render(): Promise<Buffer> {
    const { doc, data, words } = this;
    const { t } = words;
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on("end", () => resolve(Buffer.concat(chunks)));
      doc.on("error", reject);
    });

    this.addPage();
    this.cover();
    this.section(t("report-pdf.section.summary"));
    this.scoreBlock();
    this.font("bold", 13, C.green900).text(t("report-pdf.section.categories"), PAGE.margin, doc.y);
    doc.y += 6;
    this.categoryBars(data.allCategories, this.format === "summary" ? 17 : 19);

    if (this.format === "summary") {
      doc.y += 10;
      this.ensure(80);
      this.font("bold", 13, C.green900).text(t("report-pdf.section.recommendations"), PAGE.margin, doc.y);
      doc.y += 6;
      // One or two pages: the worst items first, the rest counted.
      await this.recommendations(data.recommendations, false, 12);
    } else {
      // The contents page is written once every section knows its page.
      this.addPage();
      const contentsPage = doc.bufferedPageRange().count - 1;
      this.addPage();
      this.runningHeader();
      this.heading(
        t("report-pdf.section.recommendations"),
        t("report-pdf.section.recommendationsLead", {
          count: data.summary.totalIssues,
          high: words.priority("high"),
          medium: words.priority("medium"),
          low: words.priority("low"),
        }),
      );
      await this.preparePhotos([
        ...data.recommendations.flatMap((r) => r.photoIds),
        ...data.allCategories.flatMap((c) => c.subcategories.flatMap((s) => s.photoIds)),
      ]);
      await this.recommendations(data.recommendations, true);
      this.addPage();
      this.runningHeader();
      this.heading(t("report-pdf.section.details"), t("report-pdf.section.detailsLead"));
      for (const category of data.allCategories) await this.categoryDetail(category);
      if (data.inspection.notes) {
        this.ensure(60);
        this.font("bold", 12, C.green900).text(t("report-pdf.section.notes"), PAGE.margin, doc.y);
        this.font("regular", 9.5, C.ink).text(data.inspection.notes, { width: CONTENT });
      }
      this.contents(contentsPage);
      for (const [i, s] of this.sections.entries()) {
        doc.switchToPage(s.page);
        doc.addNamedDestination(`section-${i}`);
      }
    }
    for (const s of this.sections) {
      doc.switchToPage(s.page);
      doc.outline.addItem(s.title);
    }
    this.pageNumbers();
    doc.end();
    return done;
  }
}

/**
 * Renders the full report or its summary from a snapshot, in the customer's language (reports.service.ts
 * customerLocale); photos come through `loadPhoto`.
 */
export async function renderReportPdf(
  data: ReportData,
  format: PdfFormat,
  loadPhoto: PhotoLoader,
  locale: RenderLocale = DEFAULT_LOCALE,
): Promise<Buffer> {
  return new ReportPdf(await loadPdfLibraries(), data, format, loadPhoto, locale).render();
}
