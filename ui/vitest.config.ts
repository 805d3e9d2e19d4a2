// Unit tests of the logic the UI keeps (errors, i18n, dates, applying the workout grammar), with
// Vitest on the same Vite and Svelte set-up as the build, so `.svelte.ts` runes compile as they
// ship. `npm test` runs them once; `cargo xtask test` runs `npm test` after the UI build.
import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ["src/**/*.test.ts"],
      environment: "node",
      setupFiles: ["src/test-setup.ts"],
      // Dates are read in UTC, so no test depends on the machine's time zone.
      env: { TZ: "UTC" },
    },
  }),
);
