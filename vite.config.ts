import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Builds the island loader, the tiny marketing script and the stylesheet into dist/public,
// with a manifest the server reads to link the hashed files.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  publicDir: "public",
  build: {
    outDir: "dist/public",
    // Keep earlier hashed files: a server still running on the old manifest can serve them.
    emptyOutDir: false,
    manifest: true,
    sourcemap: false,
    target: "es2022",
    rollupOptions: {
      input: ["islands/main.ts", "islands/site.ts", "islands/styles/app.css"],
    },
  },
});
