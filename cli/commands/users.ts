import { type Command, Option } from "commander";
import { STAFF_ROLES } from "../../src/modules/auth/index.js";
import { printJson, withContainer } from "../context.js";

async function readPassword(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write("Password (then Enter and Ctrl-D): ");
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** "203.0.113.5 until 2026-11-01T14:05:00.000Z; new addresses wait until …", or "" when nothing holds the user back. */
function lockText(u: { lockedAddresses: string[]; lockedUntil: string | null; throttledUntil: string | null }): string {
  const parts: string[] = [];
  if (u.lockedAddresses.length) parts.push(`${u.lockedAddresses.join(", ")} until ${u.lockedUntil}`);
  if (u.throttledUntil) parts.push(`new addresses wait until ${u.throttledUntil}`);
  return parts.join("; ");
}

export function registerUsers(program: Command) {
  const users = program.command("users").description("Staff users");

  users
    .command("list")
    .description("List the staff users (never their password hashes)")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) =>
      withContainer(async (container) => {
        const users = await container.users.list();
        const locks = await container.auth.loginLocks(users.map((u) => u.email));
        const list = users.map((u) => {
          const lock = locks.get(u.email.toLowerCase());
          return {
            ...u,
            locked: Boolean(lock?.lockedAddresses.length),
            lockedAddresses: lock?.lockedAddresses ?? [],
            lockedUntil: lock?.lockedUntil ?? null,
            throttledUntil: lock?.throttledUntil ?? null,
          };
        });
        if (options.json) return printJson(list);
        if (!list.length) return console.log("No staff users yet: run `haven users create`.");
        console.table(
          list.map((u) => ({
            id: u.id,
            email: u.email,
            name: `${u.firstName} ${u.lastName}`,
            role: u.role,
            status: [
              u.disabled ? "disabled" : "active",
              ...(u.locked ? ["locked"] : []),
              ...(u.throttledUntil ? ["throttled"] : []),
            ].join(", "),
            "login lock": lockText(u),
            "last login": u.lastLoginAt ?? "never",
          })),
        );
      }),
    );

  users
    .command("create")
    .description("Create a staff user; the password is read from standard input and hashed with argon2id")
    .requiredOption("--email <email>", "company e-mail, used to log in")
    .requiredOption("--first-name <name>", "first name")
    .requiredOption("--last-name <name>", "last name")
    .addOption(
      new Option("--role <role>", "owner (everything), office or inspector (docs/decisions.md#36)")
        .choices(STAFF_ROLES)
        .default("owner"),
    )
    .addHelpText(
      "after",
      "\nExample:\n  printf '%s' \"$PASSWORD\" | haven users create --email ana@example.com --first-name Ana --last-name Diaz" +
        "\n  printf '%s' \"$PASSWORD\" | haven users create --email ben@example.com --first-name Ben --last-name Roy --role inspector",
    )
    .action(async (options: { email: string; firstName: string; lastName: string; role: string }) => {
      const password = await readPassword();
      await withContainer(async (container) => {
        const user = await container.users.create({ ...options, password });
        console.log(`Created staff user #${user.id} ${user.email}${user.role === "owner" ? "" : ` (${user.role})`}.`);
      });
    });

  users
    .command("disable")
    .description("Disable a staff user: they can no longer log in, and every session of theirs ends at once")
    .requiredOption("--email <email>", "the user's e-mail")
    .option("--json", "print the user as JSON")
    .action(async (options: { email: string; json?: boolean }) => {
      await withContainer(async (container) => {
        const user = await container.users.disable(options.email);
        if (options.json) return printJson(user);
        console.log(`Disabled staff user #${user.id} ${user.email}; their sessions are revoked.`);
      });
    });

  users
    .command("unlock")
    .description("Clear a staff user's failed-login counters: every address locked out for their e-mail may try again")
    .requiredOption("--email <email>", "the user's e-mail")
    .option("--json", "print the result as JSON")
    .action(async (options: { email: string; json?: boolean }) => {
      await withContainer(async (container) => {
        const { user, cleared } = await container.auth.unlock(options.email);
        if (options.json) return printJson({ id: user.id, email: user.email, cleared });
        console.log(
          cleared
            ? `Unlocked staff user #${user.id} ${user.email} (${cleared} login counters cleared).`
            : `Staff user #${user.id} ${user.email} has no failed logins to clear.`,
        );
      });
    });
}
