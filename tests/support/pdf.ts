// The text of a PDF an app call answers, read with pdf-parse (as the reports and invoices tests read theirs).
import { PDFParse } from "pdf-parse";
import type { TestContext } from "./context.js";

/** GET `path` with `agent` (200 expected) and the PDF's text. */
export async function pdfText(agent: ReturnType<TestContext["agent"]>, path: string): Promise<string> {
  const res = await agent
    .get(path)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on("data", (c: Buffer) => chunks.push(c));
      response.on("end", () => done(null, Buffer.concat(chunks)));
    })
    .expect(200)
    .expect("Content-Type", "application/pdf");
  const parser = new PDFParse({ data: new Uint8Array(res.body as Buffer) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}
