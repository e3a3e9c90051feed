// `npm run dev`: Vite rebuilds the assets on change while tsx restarts the server on change.
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["vite", "build", "--watch", "--logLevel", "warn"], { stdio: "inherit" }),
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "src/start.ts"], { stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGINT");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
