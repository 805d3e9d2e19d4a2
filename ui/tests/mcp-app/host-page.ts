// The browser side of the MCP Apps test host (run.mjs bundles it into the host page): the official
// @modelcontextprotocol/ext-apps AppBridge and its PostMessageTransport, as a chat host uses them.
// It embeds the view in a sandboxed iframe under the CSP the resource declares, answers
// ui/initialize with a host context (theme, locale), sends the tool input and result once the view
// is initialized, and forwards the view's tools/call to the real MCP client in Node
// (`window.hostCallTool`, exposed by run.mjs), recording every tool the view asks for.
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

type Csp = { connectDomains?: string[]; resourceDomains?: string[]; frameDomains?: string[]; baseUriDomains?: string[] };

declare global {
  interface Window {
    hostCallTool(params: unknown): Promise<unknown>;
    host: {
      load(html: string, csp: Csp, context: { theme: string; locale: string }, input: unknown, result: unknown): Promise<void>;
      calls: string[];
      /** performance.now() when the result was sent, and when the view first painted its chart. */
      sentAt: number;
      paintedAt: number;
      sizes: { width?: number; height?: number }[];
    };
  }
}

/** The CSP a host derives from the resource's `_meta.ui.csp`: nothing beyond the inline page. */
function policy(csp: Csp): string {
  const list = (domains?: string[]) => (domains?.length ? ` ${domains.join(" ")}` : "");
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline'${list(csp.resourceDomains)}`,
    `style-src 'unsafe-inline'${list(csp.resourceDomains)}`,
    `img-src data:${list(csp.resourceDomains)}`,
    `font-src${list(csp.resourceDomains) || " 'none'"}`,
    `connect-src${list(csp.connectDomains) || " 'none'"}`,
    `frame-src${list(csp.frameDomains) || " 'none'"}`,
    `base-uri${list(csp.baseUriDomains) || " 'none'"}`,
  ].join("; ");
}

window.host = {
  calls: [],
  sentAt: 0,
  paintedAt: 0,
  sizes: [],
  async load(html, csp, context, input, result) {
    const frame = document.getElementById("view") as HTMLIFrameElement;
    const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(csp)}">`;
    const bridge = new AppBridge(
      null,
      { name: "garmin-mcp-test-host", version: "1.0.0" },
      { serverTools: {}, openLinks: {} },
      { hostContext: { theme: context.theme as "light" | "dark", locale: context.locale, displayMode: "inline" } },
    );
    bridge.oncalltool = async (params) => {
      window.host.calls.push(params.name);
      return (await window.hostCallTool(params)) as never;
    };
    bridge.onsizechange = (size) => {
      window.host.sizes.push(size);
    };
    bridge.oninitialized = () => {
      const view = frame.contentDocument!;
      const painted = () => {
        if (window.host.paintedAt || !view.querySelector("svg[data-panel]")) return;
        // The frame after the chart is in the DOM is the one that shows it.
        requestAnimationFrame(() => (window.host.paintedAt = performance.now()));
      };
      new MutationObserver(painted).observe(view, { childList: true, subtree: true });
      void bridge.sendToolInput({ arguments: input as Record<string, unknown> });
      window.host.sentAt = performance.now();
      void bridge.sendToolResult(result as never);
    };
    // Listening before the page loads (the frame's window stays the same object across the
    // navigation), so the view's ui/initialize, sent as its script starts, is heard.
    await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
    frame.srcdoc = html.replace("<head>", `<head>${meta}`);
  },
};
