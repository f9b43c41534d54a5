import { defineConfig } from "vite";

// The bare CodeMirror page of `make perf` (served by src-tauri's bare_window example).
export default defineConfig({
  root: "perf", // run from ui/: `vite build --config perf/vite.config.ts`
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2021",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    modulePreload: { polyfill: false },
  },
});
