// The `haven` process: runs the program (cli/main.ts) on the command line, flushes its output, and exits.
import { flushed } from "./context.js";
import { main } from "./main.js";

// A reader that went away (`haven … | head`) ends the output, not the command with a stack.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
});

const code = await main();
process.exitCode = code;
// process.exit drops what a pipe has not taken yet (it takes 64 KB at a time): flush first.
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
// Then exit explicitly: a handle left open (an embedded Postgres' exit hook, a pool) must not keep the CLI alive.
process.exit(code);
