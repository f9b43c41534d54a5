/// <reference types="vitest/config" />
import { defineConfig } from "vite";

// `npm run bench`: measurements, not tests (never run by `npm test`).
export default defineConfig({
  test: {
    root: ".",
    environment: "jsdom",
    include: ["bench/**/*.bench.ts"],
    setupFiles: ["test/setup.ts"],
    fileParallelism: false,
  },
});
