#!/usr/bin/env python3
"""Interop check of `garmin-mcp --http` with the official Python MCP SDK (`mcp` 2.3.0).

Exists so CI proves that a client we did not write — the reference Python SDK, speaking both the
initialize handshake (`mode="legacy"`, protocol 2025-11-25) and the stateless 2026-07-28 lifecycle
(`mode="auto"`) — can list and call our tools, list and get our prompts and list and read our
resources over streamable HTTP with a bearer token, and that it is turned away without the token. See README.md beside this file.

Usage: GARMIN_MCP_TOKEN=... python_client.py --url http://127.0.0.1:8765/mcp [--expect-demo]
The token is read from the environment (never from the command line) and never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys

import base64

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

DEMO_LABEL = "[Demo data: a fake athlete, not your Garmin account]"


def http_client(token: str | None) -> httpx2.AsyncClient:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=300.0))


def text_of(result) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def session(url: str, token: str | None, mode: str, expect_demo: bool) -> list[str]:
    """Lists the tools and calls `login` (plus `list_activities` when offered); returns problems."""
    problems: list[str] = []
    async with http_client(token) as http:
        async with Client(streamable_http_client(url, http_client=http), mode=mode) as client:
            listed = await client.list_tools()
            tools = listed.tools
            names = {tool.name for tool in tools}
            # The list never changes during a session: 2026-07-28 clients may keep it for a day.
            newest = str(client.protocol_version) >= "2026-07-28"
            if newest and listed.ttl_ms != LIST_TTL_MS:
                problems.append(f"[{mode}] tools/list ttlMs is {listed.ttl_ms}, not a day")
            print(f"[{mode}] protocol {client.protocol_version}, {len(tools)} tools: {', '.join(sorted(names))}")
            if "login" not in names:
                problems.append(f"[{mode}] tools/list has no `login`")
                return problems
            login = await client.call_tool("login", {"open_app": False})
            state = login.structured_content or {}
            if login.is_error or state.get("signed_in") is not True:
                problems.append(f"[{mode}] login did not report a signed-in session: {text_of(login)}")
            else:
                print(f"[{mode}] login: {text_of(login).splitlines()[0]}")
            if expect_demo and not text_of(login).startswith(DEMO_LABEL):
                problems.append(f"[{mode}] the demo answer is not labelled as demo data")
            if "list_activities" in names:
                listed = await client.call_tool("list_activities", {})
                if listed.is_error or not listed.structured_content:
                    problems.append(f"[{mode}] list_activities failed: {text_of(listed)}")
                else:
                    print(f"[{mode}] list_activities: {text_of(listed).splitlines()[0][:120]}")
            if "render_chart" in names:
                problems += await chart_without_apps(client, tools, mode)
            problems += await prompts_and_resources(client, mode)
    return problems


LIST_TTL_MS = 24 * 60 * 60 * 1000
VIEW_TOOLS = {"render_chart", "get_fitness_trend", "get_activity"}


async def chart_without_apps(client: Client, tools, mode: str) -> list[str]:
    """This client does not announce MCP Apps: the chart tools still name their view in tools/list
    (the same list for everyone), but render_chart answers it exactly as before the view existed —
    a text summary, the PNG and the summary as JSON text (render_chart has no structuredContent, so
    that clients which show the model only structured content still show it the chart) — and sends
    no view data in `_meta`."""
    problems: list[str] = []
    named = {t.name for t in tools if ((t.meta or {}).get("ui") or {}).get("resourceUri")}
    if named != VIEW_TOOLS & {t.name for t in tools}:
        problems.append(f"[{mode}] tools naming the view: {sorted(named)}")
    chart = await client.call_tool("render_chart", {"kind": "activity"})
    kinds = [block.type for block in chart.content]
    texts = [block.text for block in chart.content if block.type == "text"]
    image = next((b for b in chart.content if b.type == "image"), None)
    view = (chart.meta or {}).get("dev.garminmcp/view")
    summaries = [t for t in texts if t.lstrip().startswith("{")]
    if chart.is_error or len(texts) < 2 or not summaries or image is None or image.mime_type != "image/png":
        problems.append(f"[{mode}] render_chart lacks its text, JSON summary or PNG: {kinds} {text_of(chart)[:200]}")
    elif view is not None or chart.structured_content is not None:
        problems.append(f"[{mode}] render_chart sent view data or structured content to a client without MCP Apps")
    else:
        json.loads(summaries[0])
        png = base64.b64decode(image.data)
        print(f"[{mode}] render_chart without MCP Apps: text, JSON summary and a {len(png)}-byte PNG, no view data")
    return problems


PROMPTS = {"weekly_review", "analyse_last_run", "race_readiness", "plan_next_week", "sleep_recovery_check", "explain_workout"}


async def prompts_and_resources(client: Client, mode: str) -> list[str]:
    """Lists and gets the prompts (English and Chinese) and lists and reads the resources (the recent
    activities as JSON, one activity through its template, the newest activity's chart as a PNG)."""
    problems: list[str] = []
    names = {prompt.name for prompt in (await client.list_prompts()).prompts}
    if names != PROMPTS:
        problems.append(f"[{mode}] prompts/list gave {sorted(names)}")
    for language, marker in (("en", "Answer in English"), ("zh", "请用中文回答")):
        prompt = await client.get_prompt("weekly_review", {"language": language})
        text = " ".join(getattr(m.content, "text", "") for m in prompt.messages)
        if marker not in text or "get_period_stats" not in text:
            problems.append(f"[{mode}] prompts/get weekly_review ({language}) lacks its tools or language: {text[:200]}")
    print(f"[{mode}] prompts: {len(names)}, weekly_review rendered in en and zh")

    uris = {resource.uri for resource in (await client.list_resources()).resources}
    templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
    if "garmin://activities/recent" not in {str(u) for u in uris} or "garmin://activity/{id}" not in templates:
        problems.append(f"[{mode}] resources or templates missing: {sorted(map(str, uris))} {sorted(templates)}")
        return problems
    recent = (await client.read_resource("garmin://activities/recent")).contents[0]
    activities = json.loads(recent.text).get("activities") or []
    if recent.mime_type != "application/json" or not activities:
        problems.append(f"[{mode}] garmin://activities/recent is not a JSON list of activities")
        return problems
    activity_id = activities[0]["activity_id"]
    one = json.loads((await client.read_resource(f"garmin://activity/{activity_id}")).contents[0].text)
    if not one.get("summary"):
        problems.append(f"[{mode}] garmin://activity/{activity_id} has no summary")
    chart = (await client.read_resource("garmin://chart/activity/latest")).contents[0]
    png = base64.b64decode(getattr(chart, "blob", "") or "")
    if chart.mime_type != "image/png" or not png.startswith(b"\x89PNG"):
        problems.append(f"[{mode}] garmin://chart/activity/latest is not a PNG blob ({chart.mime_type})")
    else:
        print(f"[{mode}] resources: {len(uris)} + {len(templates)} templates, activity {activity_id} read, chart {len(png)} bytes")
    return problems


async def refused(url: str, token: str | None) -> bool:
    """True when the server turns the client away (checked only when a token is in use)."""
    try:
        async with http_client(token) as http:
            async with Client(streamable_http_client(url, http_client=http), mode="legacy") as client:
                await client.list_tools()
    except BaseException as error:  # the SDK raises an ExceptionGroup from its task group
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return True
    return False


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the MCP endpoint, e.g. http://127.0.0.1:8765/mcp")
    parser.add_argument("--expect-demo", action="store_true", help="answers must carry the demo label")
    args = parser.parse_args()
    token = os.environ.get("GARMIN_MCP_TOKEN") or None

    problems: list[str] = []
    for mode in ("legacy", "auto"):
        problems += await session(args.url, token, mode, args.expect_demo)
    if token:
        if not await refused(args.url, None):
            problems.append("a client without the bearer token was served")
        if not await refused(args.url, token + "x"):
            problems.append("a client with a wrong bearer token was served")
        else:
            print("clients without the token or with a wrong one are refused")
    for problem in problems:
        print(f"FAIL: {problem}", file=sys.stderr)
    if not problems:
        print("python mcp client: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
