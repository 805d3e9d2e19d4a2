// Entry of the MCP Apps chart view (ui://garmin-mcp/charts.html): mounts the view into #app.
// Built by `npm run build:mcp-app` (vite.mcp-app.config.ts) into one self-contained HTML file.
import { mount } from "svelte";
import App from "./App.svelte";
import "./style.css";

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");
export default mount(App, { target });
