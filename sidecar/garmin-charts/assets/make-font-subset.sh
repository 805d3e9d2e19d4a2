#!/usr/bin/env bash
# Rebuilds the font the charts ship (`NotoSansSC-ChartSubset.otf`) and its licence file: a subset of
# Noto Sans CJK SC Regular from Debian's `fonts-noto-cjk` package, made with fontTools' pyftsubset.
# Charts are drawn with no system fonts at run time, so every character a chart can show must be in
# here: Latin (with Latin-1 and Latin Extended-A for names), digits, punctuation and the symbols the
# charts draw (× · ′ ″ – … ° ≈ ≤ ≥ ↑ ↓), CJK punctuation and full-width forms, and the 3,755 common
# Chinese characters of GB 2312 level 1. Other characters fall back to the font's empty glyph.
#
# Needs: `apt-get install fonts-noto-cjk` and Python 3 (fontTools is installed into a throw-away
# venv, not the repository). Run from anywhere: `bash sidecar/garmin-charts/assets/make-font-subset.sh`.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
source_ttc="${NOTO_CJK_TTC:-/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc}"
# Index of "Noto Sans CJK SC" inside the collection (JP, KR, SC, TC, HK, then the Mono faces).
font_number=2
fonttools_version="4.68.0"
out="$here/NotoSansSC-ChartSubset.otf"

if [ ! -f "$source_ttc" ]; then
    echo "missing $source_ttc: run 'apt-get install fonts-noto-cjk' (or set NOTO_CJK_TTC)" >&2
    exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet "fonttools==$fonttools_version"

# The code points: fixed ranges plus GB 2312 level 1 (rows 16-55, decoded by Python's gb2312 codec).
"$work/venv/bin/python" - "$work/unicodes.txt" <<'PY'
import sys

ranges = [
    (0x0020, 0x007E),  # Basic Latin
    (0x00A0, 0x00FF),  # Latin-1 supplement: ° · × é ü …
    (0x0100, 0x017F),  # Latin Extended-A (names)
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),  # per mille, prime ′, double prime ″, angle quotes
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),  # minus sign
    (0x2248, 0x2248),  # almost equal
    (0x2264, 0x2265),  # less/greater or equal
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0xFF01, 0xFF5E),  # full-width forms
]
points = set()
for lo, hi in ranges:
    points.update(range(lo, hi + 1))
for row in range(0xB0, 0xD8):  # GB 2312 level 1: 0xB0A1-0xD7F9
    for cell in range(0xA1, 0xFF):
        try:
            points.add(ord(bytes([row, cell]).decode("gb2312")))
        except UnicodeDecodeError:
            pass  # the unassigned tail of row 0xD7
with open(sys.argv[1], "w") as f:
    f.write(",".join(f"U+{p:04X}" for p in sorted(points)))
print(f"{len(points)} code points", file=sys.stderr)
PY

"$work/venv/bin/pyftsubset" "$source_ttc" \
    --font-number="$font_number" \
    --unicodes-file="$work/unicodes.txt" \
    --layout-features='' \
    --no-hinting \
    --name-IDs='*' \
    --name-languages=0x0409 \
    --drop-tables+=VORG,vhea,vmtx,BASE \
    --output-file="$out"

# The licence: the font's copyright line (name ID 0) and the OFL text from Debian's copyright file.
{
    "$work/venv/bin/python" - "$out" <<'PY'
import sys
from fontTools.ttLib import TTFont
names = TTFont(sys.argv[1])["name"]
print(names.getDebugName(0))
print(f"{names.getDebugName(4)}, {names.getDebugName(5)}")
PY
    echo
    # The stand-alone `License: SIL-1.1` paragraph (after a blank line), up to the next paragraph.
    awk 'prev == "" && $0 == "License: SIL-1.1" { on = 1; prev = $0; next }
         on && /^[^ ]/ { on = 0 }
         on { sub(/^ /, ""); if ($0 == ".") $0 = ""; print }
         { prev = $0 }' /usr/share/doc/fonts-noto-cjk/copyright
} > "$here/OFL.txt"

echo "wrote $out ($(stat -c %s "$out") bytes) and $here/OFL.txt"
