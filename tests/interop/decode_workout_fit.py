#!/usr/bin/env python3
"""Decodes a FIT workout file with Garmin's official FIT SDK (`garmin-fit-sdk`) and prints it as JSON.

Exists so the FIT workout files `garmin-mcp` writes (`export_workout_fit`, encoded with rustyfit) are
checked by a decoder we did not write: Garmin's own. The Rust test
`garmin_fit_sdk_reads_the_steps_durations_and_targets` (sidecar/garmin/tests/workout_fit.rs) runs
this script and compares what it prints with what the workout says.

Usage: decode_workout_fit.py FILE.fit
Prints one JSON object: {"integrity": bool, "errors": [...], "file_id": {...}, "workout": {...},
"steps": [...]}, with the SDK's scaling and sub-field names (`duration_time` in s,
`custom_target_speed_low` in m/s, `repeat_steps`…) and enums as their profile names. Exits 1 when the
file fails the SDK's integrity check or decodes with errors, 2 when the SDK is not installed.
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
        print("usage: decode_workout_fit.py FILE.fit", file=sys.stderr)
        return 64
    try:
        from garmin_fit_sdk import Decoder, Stream
    except ImportError:
        print("garmin-fit-sdk is not installed (pip install garmin-fit-sdk)", file=sys.stderr)
        return 2

    path = sys.argv[1]
    integrity = Decoder(Stream.from_file(path)).check_integrity()
    messages, errors = Decoder(Stream.from_file(path)).read()
    result = {
        "integrity": bool(integrity),
        "errors": [str(e) for e in errors],
        "file_id": plain((messages.get("file_id_mesgs") or [{}])[0]),
        "workout": plain((messages.get("workout_mesgs") or [{}])[0]),
        "steps": plain(messages.get("workout_step_mesgs") or []),
    }
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))
    return 0 if integrity and not errors else 1


if __name__ == "__main__":
    sys.exit(main())
