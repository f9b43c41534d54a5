/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// Node's, where this file runs (the UI's types have no Node in them).
declare const process: { env: Record<string, string | undefined> };

// The app loads the built files from the binary (tauri custom protocol): no dev
// server, no remote content, no inline scripts (the CSP forbids them).
// `__TEST_HOOKS__`: the end-to-end tests' hooks (`src/test-hooks.ts`) are built
// in for `COWRITING_TEST_HOOKS=1` (make test-e2e, make perf) and vitest only;
// everywhere else the import is dead code and the bundle leaves it out.
export default defineConfig(({ mode }) => ({
  define: {
    __TEST_HOOKS__: JSON.stringify(mode === "test" || process.env.COWRITING_TEST_HOOKS === "1"),
  },
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
}));
