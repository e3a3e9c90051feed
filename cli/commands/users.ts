import type { Command } from "commander";
import { withContainer } from "../context.js";

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("Password (then Enter and Ctrl-D): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

export function registerUsers(program: Command) {
  const users = program.command("users").description("Staff users");

  users
    .command("create")
    .description("Create a staff user; the password is read from standard input and hashed with argon2id")
    .requiredOption("--email <email>", "company e-mail, used to log in")
    .requiredOption("--first-name <name>", "first name")
    .requiredOption("--last-name <name>", "last name")
    .addHelpText("after", "\nExample:\n  printf '%s' \"$PASSWORD\" | haven users create --email ana@example.com --first-name Ana --last-name Diaz")
    .action(async (options: { email: string; firstName: string; lastName: string }) => {
      const password = await readPassword();
      await withContainer(async (container) => {
        const user = await container.users.create({ ...options, password });
        console.log(`Created staff user #${user.id} ${user.email}.`);
      });
    });
}
