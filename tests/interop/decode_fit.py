#!/usr/bin/env python3
"""Decodes a FIT file with Garmin's official FIT SDK (`garmin-fit-sdk`) and prints it as JSON.

Exists so the FIT files this project writes with rustyfit are checked by a decoder we did not write,
Garmin's own: the workout files `garmin-mcp` exports (`export_workout_fit`; the Rust test
`garmin_fit_sdk_reads_the_steps_durations_and_targets` in sidecar/garmin/tests/workout_fit.rs) and
the original activity files the fake Garmin writes (`fake_garmin::data::fit`; the Rust test
`garmin_fit_sdk_reads_the_generated_activity_files_with_their_totals` in
sidecar/fake-garmin/tests/endpoints/downloads.rs). Each test runs this script and compares what it
prints with what it wrote.

Usage: decode_fit.py FILE.fit
Prints one JSON object with the SDK's scaling, sub-field and profile names:
{"integrity": bool, "errors": [...], "counts": {"record_mesgs": n, ...},
 "unknown": ["record_mesgs.88", ...] (fields and messages the SDK's profile does not name),
 "file_id": {...}, "workout": {...}, "steps": [...], "workout_sessions": [...] (a multisport
 workout's legs), "session": {...}, "laps": [...], "records": [...]} (a kind the file lacks is {} or []). Exits 1 when the file fails the SDK's
integrity check or decodes with errors, 2 when the SDK is not installed.
"""

from __future__ import annotations

import datetime
import json
import sys


def plain(value):
    """JSON-friendly values: dates as ISO text, bytes as hex, lists and dicts walked."""
    if isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: decode_fit.py FILE.fit", file=sys.stderr)
        return 64
    try:
        from garmin_fit_sdk import Decoder, Stream
    except ImportError:
        print("garmin-fit-sdk is not installed (pip install garmin-fit-sdk)", file=sys.stderr)
        return 2

    path = sys.argv[1]
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read()
    unknown = sorted(
        {f"{kind}.{key}" for kind, rows in messages.items() for row in rows for key in row if isinstance(key, int)}
        | {str(kind) for kind in messages if not str(kind).endswith("_mesgs")}
    )

    def first(kind: str):
        return plain((messages.get(kind) or [{}])[0])

    def every(kind: str):
        return plain(messages.get(kind) or [])

    result = {
        "integrity": bool(integrity),
        "errors": [str(e) for e in errors],
        "counts": {str(k): len(v) for k, v in messages.items()},
        "unknown": unknown,
        "file_id": first("file_id_mesgs"),
        "workout": first("workout_mesgs"),
        "steps": every("workout_step_mesgs"),
        "workout_sessions": every("workout_session_mesgs"),
        "session": first("session_mesgs"),
        "laps": every("lap_mesgs"),
        "records": every("record_mesgs"),
    }
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))
    return 0 if integrity and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
