#!/usr/bin/env python3
"""The official MCP Python SDK's OAuth client (`mcp.client.auth`, mcp 2.3.0) against
`garmin-mcp --http --public-url`, reached through a TLS-terminating reverse proxy whose public URL
differs from the address garmin-mcp binds (`cargo xtask oauth` starts Caddy and the server).

Exists so CI proves that a client we did not write completes the whole connection the way a hosted
assistant does: discovery (401 -> protected-resource metadata -> authorization-server metadata) ->
registration, once by dynamic client registration and once with a client metadata document URL
served on loopback -> authorization, approved on the consent page with the pairing code from
`garmin-mcp remote pair` -> token -> tools/list and a tool call -> a refresh (the refresh token
rotates). It then runs the MCP conformance suite's authorization-server scenarios against the
same issuer, driving their consent the same way, and measures the dance and the per-request cost
of checking an OAuth token against the static token (printed, not asserted).

Usage (see tests/interop/README.md):
  python_oauth.py --public https://localhost:PORT --direct http://127.0.0.1:PORT --token-file FILE
      --ca root.crt --garmin-mcp BIN --data-dir DIR [--cimd-url https://127.0.0.1:PORT/client.json]
      [--conformance CLI --node-bin DIR]
Tokens and codes are never printed.
"""

from __future__ import annotations

import argparse
import asyncio
import html.parser
import os
import re
import ssl
import subprocess
import sys
import time
from urllib.parse import parse_qs, urlparse

import httpx2
from mcp import Client
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import AuthorizationCodeResult, OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

REDIRECT = "http://127.0.0.1:43219/callback"


class MemoryStorage:
    """The SDK's token storage, in memory."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class FormFields(html.parser.HTMLParser):
    """The consent form's hidden fields."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "input" and attributes.get("type") == "hidden":
            self.fields[attributes["name"]] = attributes.get("value", "")


class Owner:
    """The person at the computer: reads the pairing code with `garmin-mcp remote pair` and types
    it on the consent page the client's browser opened."""

    def __init__(self, args: argparse.Namespace, ssl_context: ssl.SSLContext) -> None:
        self.args = args
        self.ssl = ssl_context
        self.round_trips = 0

    def pairing_code(self) -> str:
        out = subprocess.run(
            [self.args.garmin_mcp, "--data-dir", self.args.data_dir, "remote", "pair"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        return "".join(ch for ch in out.splitlines()[0] if ch.isdigit())

    async def approve(self, authorization_url: str, write: bool = False) -> str:
        """Opens the consent page as a browser, approves with the code; returns the redirect URL."""
        async with httpx2.AsyncClient(verify=self.ssl, follow_redirects=False, timeout=30) as browser:
            page = await browser.get(authorization_url)
            self.round_trips += 1
            if page.status_code != 200:
                raise RuntimeError(f"consent page: HTTP {page.status_code}: {page.text[:300]}")
            for header in ("content-security-policy", "x-frame-options"):
                if header not in page.headers:
                    raise RuntimeError(f"the consent page has no {header}")
            form = FormFields()
            form.feed(page.text)
            data = {"request": form.fields["request"], "csrf": form.fields["csrf"], "code": self.pairing_code()}
            if write:
                data["write"] = "on"
            answer = await browser.post(f"{self.args.public}/authorize", data=data, headers={"origin": self.args.public})
            self.round_trips += 1
            if answer.status_code != 303:
                raise RuntimeError(f"consent: HTTP {answer.status_code}: {answer.text[:300]}")
            return answer.headers["location"]


class Dance:
    """One client's connection: the SDK's OAuth provider with a browser that the owner drives."""

    def __init__(self, args: argparse.Namespace, owner: Owner, cimd_url: str | None) -> None:
        self.owner = owner
        self.storage = MemoryStorage()
        self.redirect: str | None = None
        metadata = OAuthClientMetadata(
            client_name="Python SDK interop", redirect_uris=[REDIRECT], scope="garmin:read"
        )
        self.provider = OAuthClientProvider(
            server_url=f"{args.public}/mcp",
            client_metadata=metadata,
            storage=self.storage,
            redirect_handler=self.browse,
            callback_handler=self.callback,
            client_metadata_url=cimd_url,
        )

    async def browse(self, url: str) -> None:
        self.redirect = await self.owner.approve(url)

    async def callback(self) -> AuthorizationCodeResult:
        params = parse_qs(urlparse(self.redirect or "").query)
        one = lambda name: params.get(name, [None])[0]  # noqa: E731
        return AuthorizationCodeResult(code=one("code"), state=one("state"), iss=one("iss"))


class Counting(httpx2.AsyncBaseTransport):
    """Counts the HTTP round trips the SDK makes."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self.inner = inner
        self.count = 0

    async def handle_async_request(self, request):
        self.count += 1
        return await self.inner.handle_async_request(request)


async def connect(args: argparse.Namespace, ssl_context: ssl.SSLContext, label: str, cimd_url: str | None) -> list[str]:
    problems: list[str] = []
    owner = Owner(args, ssl_context)
    dance = Dance(args, owner, cimd_url)
    transport = Counting(httpx2.AsyncHTTPTransport(verify=ssl_context))
    started = time.perf_counter()
    async with httpx2.AsyncClient(auth=dance.provider, transport=transport, timeout=60) as http:
        async with Client(streamable_http_client(f"{args.public}/mcp", http_client=http), mode="legacy") as client:
            tools = {tool.name for tool in (await client.list_tools()).tools}
            dance_time = time.perf_counter() - started
            trips = transport.count + owner.round_trips
            print(f"[{label}] connected in {dance_time * 1000:.0f} ms with {trips} HTTP round trips "
                  f"({transport.count} by the SDK, {owner.round_trips} by the browser), {len(tools)} tools")
            if "get_profile" not in tools:
                problems.append(f"[{label}] tools/list has no get_profile")
            if tools & {"create_workout", "delete_workout"}:
                problems.append(f"[{label}] a read-only grant lists write tools")
            # A call whose answer never comes (its stream cut between the proxy and the server)
            # fails the check in a minute instead of hanging CI.
            try:
                result = await asyncio.wait_for(client.call_tool("get_profile", {}), 60)
            except asyncio.TimeoutError:
                problems.append(f"[{label}] get_profile through the proxy got no answer in 60 s")
                return problems
            if result.is_error:
                problems.append(f"[{label}] get_profile failed")
    client_id = dance.storage.client.client_id if dance.storage.client else ""
    if cimd_url and client_id != cimd_url:
        problems.append(f"[{label}] the client id is {client_id!r}, not the metadata document URL")
    if not cimd_url and not client_id.startswith("dcr_"):
        problems.append(f"[{label}] the client was not registered dynamically")
    # Refresh: the access token is made to look expired; the SDK refreshes and the refresh token rotates.
    first_refresh = dance.storage.tokens.refresh_token if dance.storage.tokens else None
    dance.provider.context.token_expiry_time = time.time() - 1
    async with httpx2.AsyncClient(auth=dance.provider, verify=ssl_context, timeout=60) as http:
        async with Client(streamable_http_client(f"{args.public}/mcp", http_client=http), mode="legacy") as client:
            await client.list_tools()
    second_refresh = dance.storage.tokens.refresh_token if dance.storage.tokens else None
    if not first_refresh or not second_refresh or first_refresh == second_refresh:
        problems.append(f"[{label}] the refresh token did not rotate on refresh")
    else:
        print(f"[{label}] refreshed: new access token, the refresh token rotated")
    return problems


async def token_check_cost(args: argparse.Namespace, oauth_token: str, static_token: str) -> None:
    """Per-request cost of checking an OAuth token vs the static token, straight to the server."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18"}
    samples: dict[str, list[float]] = {"static": [], "oauth": []}
    async with httpx2.AsyncClient(timeout=30) as http:
        # Interleaved, so both kinds see the same load; the first rounds warm the connection up.
        for round_ in range(520):
            for label, token in (("static", static_token), ("oauth", oauth_token)):
                start = time.perf_counter()
                response = await http.post(f"{args.direct}/mcp", json=body,
                                           headers={**headers, "authorization": f"Bearer {token}", "host": urlparse(args.public).netloc})
                elapsed = time.perf_counter() - start
                if response.status_code >= 500 or response.status_code == 401:
                    raise RuntimeError(f"{label} token refused: {response.status_code}")
                if round_ >= 20:
                    samples[label].append(elapsed)
    median = {label: sorted(values)[len(values) // 2] for label, values in samples.items()}
    base = median["static"]
    print(f"[cost] median of 500 requests each: static token {base * 1e6:.0f} µs, OAuth token {median['oauth'] * 1e6:.0f} µs "
          f"(ratio {median['oauth'] / base:.3f}; difference {(median['oauth'] - base) * 1e6:+.0f} µs)")


async def conformance(args: argparse.Namespace, ssl_context: ssl.SSLContext) -> list[str]:
    """The conformance suite's authorization-server scenarios, with their consent approved here."""
    if not args.conformance:
        return []
    port = 43221
    redirect = f"http://127.0.0.1:{port}/callback"
    async with httpx2.AsyncClient(verify=ssl_context, timeout=30) as http:
        registered = (await http.post(f"{args.public}/register",
                                      json={"client_name": "conformance", "redirect_uris": [redirect]})).json()
    env = {**os.environ, "NODE_EXTRA_CA_CERTS": args.ca, "PATH": f"{args.node_bin}{os.pathsep}{os.environ.get('PATH', '')}"}
    problems: list[str] = []
    # Every authorization-server scenario in one run: the code grant uses the metadata scenario's result.
    for scenario in ("all authorization-server scenarios",):
        command = [args.conformance, "authorization", "--url", args.public,
                   "--client-id", registered["client_id"], "--resource", f"{args.public}/mcp", "-p", str(port)]
        process = await asyncio.create_subprocess_exec(*command, env=env, stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        owner = Owner(args, ssl_context)
        output = []
        assert process.stdout is not None
        async for raw in process.stdout:
            line = raw.decode(errors="replace").rstrip()
            output.append(line)
            if line.startswith(f"{args.public}/authorize?"):
                location = await owner.approve(line)
                async with httpx2.AsyncClient(timeout=30) as browser:
                    await browser.get(location)
        code = await process.wait()
        summary = [line for line in output if re.search(r"(passed|failed|SUCCESS|FAILURE|✓|✗)", line)]
        print(f"[conformance {scenario}] exit {code}: " + " | ".join(summary[-3:]))
        if code != 0:
            problems.append(f"conformance {scenario} failed:\n" + "\n".join(output[-40:]))
    return problems


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--public", required=True)
    parser.add_argument("--direct", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--garmin-mcp", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--cimd-url")
    parser.add_argument("--conformance")
    parser.add_argument("--node-bin", default="")
    parser.add_argument("--token-file", required=True, help="the static token's file (never printed)")
    args = parser.parse_args()
    ssl_context = ssl.create_default_context(cafile=args.ca)
    problems = await connect(args, ssl_context, "dynamic registration", None)
    if args.cimd_url:
        problems += await connect(args, ssl_context, "metadata document", args.cimd_url)
    # The cost of a token check, with a fresh grant's token and the static one.
    owner = Owner(args, ssl_context)
    dance = Dance(args, owner, None)
    async with httpx2.AsyncClient(auth=dance.provider, verify=ssl_context, timeout=60) as http:
        async with Client(streamable_http_client(f"{args.public}/mcp", http_client=http), mode="legacy") as client:
            await client.list_tools()
    with open(args.token_file, encoding="utf-8") as file:
        static_token = file.read().strip()
    await token_check_cost(args, dance.storage.tokens.access_token, static_token)
    problems += await conformance(args, ssl_context)
    for problem in problems:
        print(f"PROBLEM: {problem}")
    print(f"python_oauth: {2 if args.cimd_url else 1} OAuth connections, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
