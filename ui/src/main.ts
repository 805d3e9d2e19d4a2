// Entry point of the window: mounts the app shell into index.html's #app.
import { mount } from "svelte";
import App from "./App.svelte";
// The shared chart components' look (the Training view draws the MCP App's charts).
import "./charts/charts.css";

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element");
export default mount(App, { target });
