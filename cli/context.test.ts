// The CLI reads the same .env as the web process, from whatever folder `haven` is run in.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliDotenvFile } from "./context.js";

const folder = () => mkdtempSync(path.join(tmpdir(), "haven-cli-env-"));

describe("cliDotenvFile", () => {
  it("run from another folder, reads the project's .env (its PUBLIC_URL), not none", () => {
    const project = folder();
    writeFileSync(path.join(project, ".env"), "PUBLIC_URL=https://haven.example\n");
    expect(cliDotenvFile(folder(), project)).toBe(path.join(project, ".env"));
  });

  it("a .env in the working folder comes first", () => {
    const project = folder();
    const here = folder();
    writeFileSync(path.join(project, ".env"), "PUBLIC_URL=https://haven.example\n");
    writeFileSync(path.join(here, ".env"), "PUBLIC_URL=https://staging.haven.example\n");
    expect(cliDotenvFile(here, project)).toBe(path.join(here, ".env"));
  });

  it("none anywhere: null", () => {
    expect(cliDotenvFile(folder(), folder())).toBeNull();
  });
});
