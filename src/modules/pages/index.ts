// The pages module's interface (docs/architecture.md "Modules and layers"). The public pages are the top
// layer: no module imports them; src/app.ts mounts the router. The marketing copy is exported for the CLI and tests.
export * from "./pages.content.js";
