import type { Command } from "commander";
import { withContainer } from "../context.js";

export function registerCalendar(program: Command) {
  const calendar = program.command("calendar").description("The private staff calendar feed (ICS)");

  calendar
    .command("rotate-feed")
    .description("Issue a new secret feed URL; the previous URL stops working at once (only a hash is stored)")
    .addHelpText(
      "after",
      "\nSubscribe to the printed URL in Google Calendar, Apple Calendar or Outlook. It names PUBLIC_URL, or else the address the running site recorded.",
    )
    .action(() =>
      withContainer(
        async (container) => {
          const { url } = await container.maintenance.rotateFeed();
          console.log("New staff calendar feed (keep it private; the old URL no longer works):");
          console.log(url);
        },
        { links: true },
      ),
    );
}
