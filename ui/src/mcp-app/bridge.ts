// The view's side of the MCP Apps host bridge: JSON-RPC 2.0 over postMessage with the parent frame
// (ui/initialize, then the host's ui/notifications/tool-result; tools/call for the read-only tools
// the view asks for more data). Written here rather than taken from @modelcontextprotocol/ext-apps'
// `App`, whose bundle with its dependencies is about 540 KB against this view's few tens.

import type { ToolResult } from "../charts/types";

/** What the host tells the view about itself (only the parts the view reads). */
export interface HostContext {
  theme?: "light" | "dark";
  locale?: string;
}

export interface BridgeEvents {
  toolResult(result: ToolResult): void;
  hostContext(context: HostContext): void;
}

/** The read-only tools the view may call; it never calls any other (and no write tool). */
export const READ_ONLY_TOOLS = ["get_activity", "list_activities"] as const;

type Waiter = { resolve(value: unknown): void; reject(error: Error): void };

export class HostBridge {
  private nextId = 1;
  private pending = new Map<number, Waiter>();

  constructor(private events: BridgeEvents) {
    window.addEventListener("message", (event) => this.receive(event));
  }

  /** Says hello to the host; resolves with its context. */
  async initialize(): Promise<HostContext | undefined> {
    const init = (await this.request("ui/initialize", {
      protocolVersion: "2026-01-26",
      appInfo: { name: "garmin-mcp-charts", version: "1" },
      appCapabilities: {},
    })) as { hostContext?: HostContext } | undefined;
    this.notify("ui/notifications/initialized", {});
    return init?.hostContext;
  }

  /** Calls one of [`READ_ONLY_TOOLS`] through the host. */
  callTool(name: (typeof READ_ONLY_TOOLS)[number], args: Record<string, unknown>): Promise<ToolResult> {
    if (!READ_ONLY_TOOLS.includes(name)) return Promise.reject(new Error(`${name} is not a read-only tool`));
    return this.request("tools/call", { name, arguments: args }) as Promise<ToolResult>;
  }

  /** Tells the host how much room the view needs. */
  reportSize() {
    this.notify("ui/notifications/size-changed", {
      width: document.body.scrollWidth,
      height: document.documentElement.scrollHeight,
    });
  }

  private post(message: Record<string, unknown>) {
    window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.post({ id, method, params });
    });
  }

  private notify(method: string, params: unknown) {
    this.post({ method, params });
  }

  private receive(event: MessageEvent) {
    if (event.source !== window.parent) return;
    const m = event.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.id != null && !m.method) {
      const waiter = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.error) waiter?.reject(new Error(m.error.message || "error"));
      else waiter?.resolve(m.result);
      return;
    }
    if (m.method === "ui/notifications/tool-result") this.events.toolResult(m.params);
    else if (m.method === "ui/notifications/host-context-changed") this.events.hostContext(m.params);
    // ping and ui/resource-teardown: nothing to keep, an empty answer.
    else if (m.id != null) this.post({ id: m.id, result: {} });
  }
}
