// Builds the UI into dist/ (tauri.conf.json `frontendDist`); the app embeds it at compile time, so
// there is no dev server: `npm run watch` rebuilds on change instead.
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [svelte()],
  clearScreen: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No data: URLs: the CSP allows only 'self'.
    assetsInlineLimit: 0,
  },
});
