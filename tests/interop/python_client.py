#!/usr/bin/env python3
"""Interop check of `garmin-mcp --http` with the official Python MCP SDK (`mcp` 2.3.0).

Exists so CI proves that a client we did not write — the reference Python SDK, speaking both the
initialize handshake (`mode="legacy"`, protocol 2025-11-25) and the stateless 2026-07-28 lifecycle
(`mode="auto"`) — can list and call our tools over streamable HTTP with a bearer token, and that it
is turned away without the token. See README.md beside this file.

Usage: GARMIN_MCP_TOKEN=... python_client.py --url http://127.0.0.1:8765/mcp [--expect-demo]
The token is read from the environment (never from the command line) and never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

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
            tools = (await client.list_tools()).tools
            names = {tool.name for tool in tools}
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
