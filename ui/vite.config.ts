/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// The app loads the built files from the binary (tauri custom protocol): no dev
// server, no remote content, no inline scripts (the CSP forbids them).
export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2021",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    modulePreload: { polyfill: false },
  },
  test: {
    environment: "jsdom",
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
  },
});
