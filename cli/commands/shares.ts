import { type Command, InvalidArgumentError } from "commander";
import { z } from "zod";
import { printJson, withContainer } from "../context.js";

const positiveId = (value: string): number => {
  const id = Number(value);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647)
    throw new InvalidArgumentError("must be a positive whole number");
  return id;
};
const emailOrFlag = (value: string): string => {
  const parsed = z.string().trim().email().safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError("must be an e-mail address");
  return parsed.data;
};

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

export function registerShares(program: Command) {
  const shares = program.command("shares").description("One-time client report links (share tokens)");

  shares
    .command("list")
    .description(
      "List report links, newest first: e-mail, created, opened, expires, status (tokens are never shown: only their hash is stored)",
    )
    .option("--json", "print JSON")
    .option("--report <id>", "only this report's links", positiveId)
    .option("--limit <n>", "at most this many (default 100, at most 500)", positiveId)
    .action((options: { json?: boolean; report?: number; limit?: number }) =>
      withContainer(async (container) => {
        const { rows, total } = await container.sharing.list({
          limit: Math.min(options.limit ?? 100, 500),
          offset: 0,
          reportId: options.report,
        });
        if (options.json) return printJson(rows);
        if (!rows.length) return console.log("No report links yet.");
        console.table(
          rows.map((s) => ({
            id: s.id,
            report: s.reportId,
            email: s.clientEmail,
            property: s.propertyAddress,
            created: day(s.createdAt),
            opened: day(s.openedAt),
            expires: day(s.expiresAt),
            status: s.status,
          })),
        );
        if (total > rows.length) console.log(`Showing ${rows.length} of ${total}.`);
      }),
    );

  shares
    .command("rotate")
    .description(
      "Revoke a report's live links and issue a new one; --email sends it (to the given address, else the last recipient)",
    )
    .requiredOption("--report <id>", "the report", positiveId)
    .option(
      "--email [address]",
      "e-mail the new link (with the summary PDF) to this address, or to the last recipient",
      emailOrFlag,
    )
    .addHelpText(
      "after",
      "\nExamples:\n  haven shares rotate --report 12\n  haven shares rotate --report 12 --email\n  haven shares rotate --report 12 --email client@example.com",
    )
    .action((options: { report: number; email?: string | true }) =>
      withContainer(
        async (container) => {
          // The site's address (withContainer's links): PUBLIC_URL here, else the one the running site recorded.
          const result = await container.sharing.rotate(options.report, container.env.PUBLIC_URL, options.email);
          console.log(`Revoked ${result.revoked} live link(s) of report #${options.report}.`);
          console.log(`New link (valid until ${day(result.share.expiresAt)}): ${result.reportLink}`);
          console.log(
            result.emailedTo ? `E-mail queued to ${result.emailedTo}.` : "Not e-mailed (add --email to send it).",
          );
        },
        { links: true },
      ),
    );
}
