#!/usr/bin/env python3
"""Generates the exercise catalogue compiled into the `garmin` crate (src/exercises/data.rs).

Why this exists: Garmin silently blanks an exercise name it does not know, so workouts are checked
against Garmin's own exercise lists before they are sent. Those lists are Garmin's public web data
files; this script turns them into a compact Rust table (keys, English display names, our Chinese
names, primary/secondary muscles, equipment, which of Garmin's lists hold the exercise).

Inputs, all in one directory (`--from DIR`), named as Garmin serves them:
  Exercises.json, Yoga.json, Pilates.json, Mobility.json  (https://connect.garmin.com/web-data/exercises/)
  exerciseToEquipments.json                                (same folder)
  exercise_types.properties   (https://connect.garmin.com/web-translations/exercise_types/exercise_types.properties)
  exercise_equipments.properties (optional; equipment display names)
`--fetch DIR` downloads them from Garmin into DIR first (needs internet access to connect.garmin.com).
Our own Chinese names come from data/exercises/zh-CN.txt. See data/exercises/PROVENANCE.md for where
the committed table's inputs came from, their SHA-256 and the licence position.

Run (from the repository root):
  python3 sidecar/garmin/scripts/exercise_catalogue.py --from /path/to/garmin-files
The output is deterministic: the same inputs give the same file, byte for byte.
Only the Python standard library is used.
"""

import argparse
import hashlib
import json
import os
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.dirname(HERE)
OUTPUT = os.path.join(CRATE, "src", "exercises", "data.rs")
ZH_FILE = os.path.join(CRATE, "data", "exercises", "zh-CN.txt")

# Garmin's lists, in the bit order the Rust side uses (`List`).
LISTS = [("Exercises.json", "strength"), ("Yoga.json", "yoga"), ("Pilates.json", "pilates"), ("Mobility.json", "mobility")]
EQUIPMENT_FILE = "exerciseToEquipments.json"
NAMES_FILE = "exercise_types.properties"
EQUIPMENT_NAMES_FILE = "exercise_equipments.properties"
URLS = {
    **{name: "https://connect.garmin.com/web-data/exercises/" + name for name, _ in LISTS},
    EQUIPMENT_FILE: "https://connect.garmin.com/web-data/exercises/" + EQUIPMENT_FILE,
    NAMES_FILE: "https://connect.garmin.com/web-translations/exercise_types/exercise_types.properties",
}
# Spelling slips in Garmin's muscle lists, mapped to the muscle meant.
MUSCLE_FIXES = {"ADDDUCTORS": "ADDUCTORS"}


def fetch(directory):
    os.makedirs(directory, exist_ok=True)
    for name, url in URLS.items():
        with urllib.request.urlopen(url, timeout=60) as answer:
            data = answer.read()
        with open(os.path.join(directory, name), "wb") as out:
            out.write(data)


def properties(path):
    table = {}
    if not os.path.exists(path):
        return table
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.rstrip("\n")
            if "=" in line and not line.lstrip().startswith(("#", "!")):
                key, value = line.split("=", 1)
                table[key.strip()] = value.strip()
    return table


def zh_names(path):
    categories, muscles, equipment, exercises = {}, {}, {}, {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, name = line.partition("=")
            if not name:
                sys.exit(f"{path}:{number}: expected KEY=名称")
            kind, _, rest = key.partition(":")
            table = {"category": categories, "muscle": muscles, "equipment": equipment}.get(kind) if rest else None
            if rest and table is None:
                sys.exit(f"{path}:{number}: unknown kind {kind!r}")
            (table if rest else exercises)[rest or key] = name
    return categories, muscles, equipment, exercises


def sha256(path):
    with open(path, "rb") as data:
        return hashlib.sha256(data.read()).hexdigest()


def title(key):
    return " ".join(word.capitalize() for word in key.strip("_").split("_"))


def rust(text):
    return json.dumps(text, ensure_ascii=False)


def muscles_of(values, muscle_bits, where):
    bits = 0
    for raw in values or []:
        muscle = MUSCLE_FIXES.get(raw, raw)
        if not muscle:
            continue
        if muscle not in muscle_bits:
            sys.exit(f"{where}: unknown muscle {raw!r}")
        bits |= 1 << muscle_bits[muscle]
    return bits


def build(source):
    inputs = [name for name, _ in LISTS] + [EQUIPMENT_FILE, NAMES_FILE]
    for name in inputs:
        if not os.path.exists(os.path.join(source, name)):
            sys.exit(f"missing {name} in {source}")
    names = properties(os.path.join(source, NAMES_FILE))
    equipment_names = properties(os.path.join(source, EQUIPMENT_NAMES_FILE))
    zh_categories, zh_muscles, zh_equipment, zh_exercises = zh_names(ZH_FILE)
    lists = [(json.load(open(os.path.join(source, name), encoding="utf-8"))["categories"], label) for name, label in LISTS]

    muscle_keys = sorted({k[len("muscle_type_"):] for k in names if k.startswith("muscle_type_")})
    if len(muscle_keys) > 32:
        sys.exit("more than 32 muscles: widen the Rust bit set")
    muscle_bits = {m: i for i, m in enumerate(muscle_keys)}

    equipment_rows = json.load(open(os.path.join(source, EQUIPMENT_FILE), encoding="utf-8"))
    equipment_of = {}
    for row in equipment_rows:
        for item in row["exercisesInCategory"]:
            equipment_of[(row["exerciseCategoryKey"], item["exerciseKey"])] = item.get("equipmentKeys") or []
    equipment_keys = sorted({k for keys in equipment_of.values() for k in keys})
    if len(equipment_keys) > 32:
        sys.exit("more than 32 kinds of equipment: widen the Rust bit set")
    equipment_bits = {e: i for i, e in enumerate(equipment_keys)}

    category_keys = sorted({c for categories, _ in lists for c in categories})
    category_index = {c: i for i, c in enumerate(category_keys)}

    exercises = {}
    for bit, (categories, label) in enumerate(lists):
        for category, body in categories.items():
            for key, detail in body.get("exercises", {}).items():
                entry = exercises.setdefault((category, key), {"lists": 0, "detail": None})
                entry["lists"] |= 1 << bit
                # Exercises.json (bit 0) describes muscles first; the others fill in what it lacks.
                if entry["detail"] is None or not (entry["detail"].get("primaryMuscles") or entry["detail"].get("secondaryMuscles")):
                    entry["detail"] = detail
    unknown_zh = sorted(k for k in zh_exercises if tuple(k.split("/", 1)) not in exercises)
    if unknown_zh:
        sys.exit(f"zh-CN.txt names exercises Garmin does not list: {', '.join(unknown_zh)}")

    out = []
    out.append("// GENERATED by sidecar/garmin/scripts/exercise_catalogue.py from Garmin's public exercise files")
    out.append("// and data/exercises/zh-CN.txt; do not edit (see data/exercises/PROVENANCE.md). Inputs (SHA-256):")
    for name in inputs + ([EQUIPMENT_NAMES_FILE] if os.path.exists(os.path.join(source, EQUIPMENT_NAMES_FILE)) else []):
        out.append(f"// {name} {sha256(os.path.join(source, name))}")
    out.append(f"// zh-CN.txt {sha256(ZH_FILE)}")
    out.append("")
    out.append("use super::{Category, Exercise, Named};")
    out.append("")
    out.append("/// Muscles, in bit order (bit i of a muscle set is `MUSCLES[i]`).")
    out.append(f"pub(super) static MUSCLES: [Named; {len(muscle_keys)}] = [")
    for m in muscle_keys:
        out.append(f"    Named {{ key: {rust(m)}, name: {rust(names.get('muscle_type_' + m, title(m)))}, zh: {rust(zh_muscles.get(m, ''))} }},")
    out.append("];")
    out.append("")
    out.append("/// Equipment, in bit order.")
    out.append(f"pub(super) static EQUIPMENT: [Named; {len(equipment_keys)}] = [")
    for e in equipment_keys:
        display = equipment_names.get("exercise_equipment_" + e, title(e))
        out.append(f"    Named {{ key: {rust(e)}, name: {rust(display)}, zh: {rust(zh_equipment.get(e, ''))} }},")
    out.append("];")
    out.append("")
    out.append("/// Exercise categories, sorted by key (an exercise's `category` is an index here).")
    out.append(f"pub(super) static CATEGORIES: [Category; {len(category_keys)}] = [")
    for c in category_keys:
        display = names.get("category_type_" + c, title(c))
        out.append(f"    Category {{ key: {rust(c)}, name: {rust(display)}, zh: {rust(zh_categories.get(c, ''))} }},")
    out.append("];")
    out.append("")
    out.append("/// Every exercise of Garmin's lists, sorted by category, then key.")
    out.append(f"pub(super) static EXERCISES: [Exercise; {len(exercises)}] = [")
    for (category, key) in sorted(exercises, key=lambda ck: (category_index[ck[0]], ck[1])):
        entry = exercises[(category, key)]
        detail = entry["detail"] or {}
        where = f"{category}/{key}"
        # Garmin's per-category name (`PLANK_PLANK=Plank`) before the older per-exercise one
        # (`exercise_type_PLANK=Plank Pose`, the yoga pose's), then the key in words.
        display = names.get(category + "_" + key) or names.get("exercise_type_" + key) or title(key)
        primary = muscles_of(detail.get("primaryMuscles"), muscle_bits, where)
        secondary = muscles_of(detail.get("secondaryMuscles"), muscle_bits, where) & ~primary
        kit = 0
        for e in equipment_of.get((category, key), []):
            kit |= 1 << equipment_bits[e]
        bodyweight = "true" if detail.get("isBodyWeight") else "false"
        out.append(
            f"    Exercise {{ category: {category_index[category]}, key: {rust(key)}, name: {rust(display)}, "
            f"zh: {rust(zh_exercises.get(where, ''))}, primary: {primary:#x}, secondary: {secondary:#x}, "
            f"equipment: {kit:#x}, lists: {entry['lists']}, bodyweight: {bodyweight} }},"
        )
    out.append("];")
    return "\n".join(out) + "\n", len(exercises), len(category_keys)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from", dest="source", required=True, help="directory holding Garmin's files")
    parser.add_argument("--fetch", action="store_true", help="download Garmin's files into --from first")
    parser.add_argument("--output", default=OUTPUT, help="where to write the Rust table")
    args = parser.parse_args()
    if args.fetch:
        fetch(args.source)
    text, count, categories = build(args.source)
    with open(args.output, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    print(f"{args.output}: {count} exercises in {categories} categories")


if __name__ == "__main__":
    main()
