import { defineConfig } from "vite";

// The site is served by the API at / (apps/api), so every asset path is absolute from the root. JSX is
// Preact's automatic runtime (tsconfig.json: jsxImportSource), compiled by Vite's own transformer.
export default defineConfig({
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, target: "es2022" },
});
