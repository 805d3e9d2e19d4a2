// Builds the MCP Apps chart view (src/mcp-app/) into ONE self-contained HTML file, the one
// garmin-mcp embeds with include_str!: sidecar/garmin-mcp/assets/chart-view.html. Hosts load the
// view in a sandboxed iframe whose CSP allows no network, so the script and the styles are written
// into the page (the small `inlineIntoPage` step below; no plugin dependency for ~30 lines) and
// nothing else is emitted. The file is committed, so `cargo build` and `cargo install` need no
// Node.js; `cargo xtask test` rebuilds it and fails when the committed copy is stale.
import { svelte } from "@sveltejs/vite-plugin-svelte";
import { defineConfig, type Plugin } from "vite";

const OUTPUT = "chart-view.html";

/** Replaces the page's script and stylesheet references by their contents and drops the files. */
function inlineIntoPage(): Plugin {
  return {
    name: "garmin-mcp:inline-into-page",
    enforce: "post",
    generateBundle(_options, bundle) {
      const page = Object.values(bundle).find((file) => file.fileName.endsWith(".html"));
      if (!page || page.type !== "asset") throw new Error("the view's build produced no page");
      let html = String(page.source);
      for (const [name, file] of Object.entries(bundle)) {
        if (file === page) continue;
        const ref = new RegExp(`<(script|link)[^>]*(src|href)="[^"]*${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}"[^>]*>(</script>)?`);
        if (!ref.test(html)) throw new Error(`the page does not reference ${name}; cannot inline it`);
        // `</script` inside the code would end the inline element early; Svelte's error messages
        // link its documentation, kept without the scheme so the page names no fetchable URL.
        const body =
          file.type === "chunk"
            ? file.code.replace(/<\/script/gi, "<\\/script").replaceAll("https://svelte.dev/e/", "svelte.dev/e/")
            : String(file.source);
        const inline = file.type === "chunk" ? `<script type="module">${body}</script>` : `<style>${body}</style>`;
        html = html.replace(ref, () => inline);
        delete bundle[name];
      }
      // The only URLs left may be XML namespace names (identifiers, never fetched).
      const external = html.match(/https?:\/\/(?!www\.w3\.org\/)[^\s"'`)]*/);
      if (external) throw new Error(`the view names an external URL: ${external[0]}`);
      page.fileName = OUTPUT;
      page.source = html;
    },
  };
}

export default defineConfig({
  // Relative to ui/, where the npm scripts run.
  root: "src/mcp-app",
  base: "./",
  plugins: [svelte(), inlineIntoPage()],
  clearScreen: false,
  build: {
    outDir: "../../../sidecar/garmin-mcp/assets",
    emptyOutDir: false,
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    modulePreload: false,
    rollupOptions: { output: { inlineDynamicImports: true } },
  },
});
