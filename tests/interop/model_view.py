#!/usr/bin/env python3
"""What the model really reads from garmin-mcp through Claude Code and Codex.

Neither client forwards a tool result as the server sends it: Claude Code passes the model only
`structuredContent` when a result has it, and Codex turns `structuredContent` into its output
string and drops the content blocks (images included). This check runs each real client headless
against a stand-in model endpoint on loopback (Anthropic Messages for Claude Code, OpenAI Responses
for Codex) that asks for one tool call and records the next request: the tool result in it is what
a real model would read. No account, no key, no network.

It asserts, for each client:
  * `get_period_stats` (a structured answer): the summary sentence is in what the model reads;
  * `render_chart` (content only, by design): the summary and the PNG image both reach the model.

Usage: model_view.py --garmin-mcp PATH --claude PATH --codex PATH --scratch DIR
(Node 22 must be first on PATH for the clients.)
"""

import argparse
import json
import os
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SUMMARY = "No activities recorded in January 2020"
CASES = [
    ("get_period_stats", {"period": "month", "date": "2020-01-15"}, False),
    ("render_chart", {"kind": "volume"}, True),
]


class StandIn:
    """A loopback model endpoint: calls `tool` once, then records the request that answers it."""

    def __init__(self, kind, tool, args):
        self.kind, self.tool, self.args = kind, tool, args
        self.requests = []
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *_):
                pass

            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = json.loads(raw or b"{}")
                stand_in.requests.append(body)
                if stand_in.kind == "anthropic":
                    stand_in.anthropic(self, body)
                else:
                    stand_in.openai(self, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()

    @staticmethod
    def stream(handler, events):
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.end_headers()
        for name, data in events:
            handler.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
        handler.wfile.flush()

    def anthropic(self, handler, body):
        if "count_tokens" in handler.path:
            data = json.dumps({"input_tokens": 10}).encode()
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            handler.end_headers()
            handler.wfile.write(data)
            return
        last = (body.get("messages") or [{}])[-1].get("content")
        answered = isinstance(last, list) and any(
            c.get("type") == "tool_result" and c.get("tool_use_id") == "toolu_call" for c in last
        )
        names = [t.get("name") for t in body.get("tools", [])]
        wanted = f"mcp__garmin__{self.tool}"
        if answered:
            block, stop = {"type": "text", "text": "done"}, "end_turn"
        elif wanted in names:
            block, stop = {"type": "tool_use", "id": "toolu_call", "name": wanted, "input": self.args}, "tool_use"
        elif "ToolSearch" in names:  # Claude Code loads MCP tools on demand
            block = {"type": "tool_use", "id": "toolu_search", "name": "ToolSearch", "input": {"query": f"select:{wanted}"}}
            stop = "tool_use"
        else:
            block, stop = {"type": "text", "text": "no such tool"}, "end_turn"
        start = {"type": "message_start", "message": {"id": "msg", "type": "message", "role": "assistant",
                 "model": "stand-in", "content": [], "stop_reason": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}
        if block["type"] == "text":
            first = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            first = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        self.stream(handler, [
            ("message_start", start),
            ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": first}),
            ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 1}}),
            ("message_stop", {"type": "message_stop"}),
        ])

    def openai(self, handler, body):
        answered = any(i.get("type") == "function_call_output" for i in body.get("input", []) if isinstance(i, dict))
        namespace = next((t["name"] for t in body.get("tools", []) if t.get("type") == "namespace"
                          and any(x.get("name") == self.tool for x in t.get("tools", []))), None)
        if answered or not namespace:
            item = {"type": "message", "role": "assistant", "id": "msg",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
        else:
            item = {"type": "function_call", "id": "fc", "call_id": "call", "namespace": namespace,
                    "name": self.tool, "arguments": json.dumps(self.args)}
        usage = {"input_tokens": 1, "input_tokens_details": None, "output_tokens": 1,
                 "output_tokens_details": None, "total_tokens": 2}
        events = [{"type": "response.created", "response": {"id": "resp"}},
                  {"type": "response.output_item.done", "item": item},
                  {"type": "response.completed", "response": {"id": "resp", "usage": usage}}]
        self.stream(handler, [(e["type"], e) for e in events])


def claude_view(stand_in):
    """Text and image parts of the tool result Claude Code sent the model."""
    for body in stand_in.requests:
        for message in body.get("messages", []):
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "tool_result" and block.get("tool_use_id") == "toolu_call":
                    inner = block.get("content")
                    if isinstance(inner, str):
                        return inner, False
                    text = " ".join(p.get("text", "") for p in inner if p.get("type") == "text")
                    image = any(p.get("type") == "image" for p in inner)
                    return text, image
    return None, False


def codex_view(stand_in):
    """Text and image parts of the tool output Codex sent the model."""
    for body in stand_in.requests:
        for item in body.get("input", []):
            if isinstance(item, dict) and item.get("type") == "function_call_output":
                output = item.get("output")
                if isinstance(output, str):
                    return output, False
                text = " ".join(p.get("text", "") for p in output if p.get("type") == "input_text")
                image = any(p.get("type") == "input_image" for p in output)
                return text, image
    return None, False


def main():
    parser = argparse.ArgumentParser()
    for name in ("--garmin-mcp", "--claude", "--codex", "--scratch"):
        parser.add_argument(name, required=True)
    a = parser.parse_args()
    problems = []
    for client in ("claude", "codex"):
        for tool, args, wants_image in CASES:
            home = os.path.join(a.scratch, f"{client}-{tool}")
            os.makedirs(os.path.join(home, ".codex"), exist_ok=True)
            stand_in = StandIn("anthropic" if client == "claude" else "openai", tool, args)
            server_args = ["--demo", "--today", "2026-11-15", "--data-dir", os.path.join(home, "data")]
            env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, ".config"),
                       GARMIN_MCP_EXPORT_DIR=os.path.join(home, "exports"))
            if client == "claude":
                config = os.path.join(home, "mcp.json")
                with open(config, "w") as f:
                    json.dump({"mcpServers": {"garmin": {"type": "stdio", "command": a.garmin_mcp, "args": server_args,
                               "env": {"GARMIN_MCP_EXPORT_DIR": env["GARMIN_MCP_EXPORT_DIR"]}}}}, f)
                env.update(ANTHROPIC_BASE_URL=stand_in.url, ANTHROPIC_API_KEY="stand-in")
                command = [a.claude, "-p", "use the garmin tool", "--mcp-config", config,
                           "--allowedTools", f"mcp__garmin__{tool}"]
            else:
                with open(os.path.join(home, ".codex", "config.toml"), "w") as f:
                    f.write('model = "stand-in"\nmodel_provider = "standin"\napproval_policy = "never"\n'
                            f'[model_providers.standin]\nname = "standin"\nbase_url = "{stand_in.url}/v1"\n'
                            'wire_api = "responses"\nenv_key = "STANDIN_KEY"\n[mcp_servers.garmin]\n'
                            f"command = {json.dumps(a.garmin_mcp)}\nargs = {json.dumps(server_args)}\n"
                            f"env = {{ GARMIN_MCP_EXPORT_DIR = {json.dumps(env['GARMIN_MCP_EXPORT_DIR'])} }}\n")
                env.update(CODEX_HOME=os.path.join(home, ".codex"), STANDIN_KEY="stand-in")
                command = [a.codex, "exec", "--skip-git-repo-check", "use the garmin tool"]
            try:
                run = subprocess.run(command, cwd=home, env=env, capture_output=True, text=True, timeout=180,
                                     stdin=subprocess.DEVNULL)
            except subprocess.TimeoutExpired:
                problems.append(f"{client} {tool}: no answer within 180 s")
                stand_in.close()
                continue
            stand_in.close()
            text, image = (claude_view if client == "claude" else codex_view)(stand_in)
            where = f"{client} -> model, {tool}"
            if text is None:
                problems.append(f"{where}: no tool result reached the stand-in model (exit {run.returncode}: "
                                f"{(run.stderr or run.stdout)[-300:]})")
                continue
            expected = SUMMARY if tool == "get_period_stats" else "Weekly distance"
            if expected not in text:
                problems.append(f"{where}: the summary is missing from what the model reads: {text[:300]}")
            if wants_image and not image:
                problems.append(f"{where}: the chart image does not reach the model")
            print(f"model view: {where}: summary {'yes' if expected in text else 'NO'}"
                  + (f", image {'yes' if image else 'NO'}" if wants_image else ""))
    if problems:
        print("model view problems:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(1)
    print("model view: OK")


if __name__ == "__main__":
    main()
