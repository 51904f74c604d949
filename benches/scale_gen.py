#!/usr/bin/env python3
"""Generates large rulesets for `benches/scale.sh` and `tests/scale.rs`.

    python3 benches/scale_gen.py size BYTES > big.rules
    python3 benches/scale_gen.py enum N > enum.rules

`size`: Furious Reason's definitions (the bundled `rulesets/furious_reason.rules`)
copied until the file is about BYTES long, every name the ruleset defines (enums and
their values, records, consts, rules, tables, modifier lists, interpretations and their
readings, the state's fields) renamed in each copy (`manoeuvre_k3`), each copy's state
fields gathered into the one `state`, each example named apart; and beside each copy a
big table of its own: a 1..N die-roll table of ranges and a table keyed by two enums.
It checks clean, with no errors (each copy's warnings are Furious Reason's).

`enum`: one enum of N values that nothing produces or reads (one warning).

Deterministic: the same arguments give the same bytes.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "rulesets", "furious_reason.rules")

DEFINERS = {"enum", "record", "const", "rule", "table", "modifiers", "interpretation"}
# Definitions whose body lists values by name: `{ a "A", b "B" }`.
VALUE_LISTS = {"enum", "interpretation"}


def tokens(text):
    """The source as (kind, text) tokens: ident, string, comment, space, other. A `"`
    straight after a digit is the inch mark (`16"`), not a string."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(("comment", text[i:j]))
            i = j
        elif c == '"' and not (i > 0 and text[i - 1].isdigit()):
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(("string", text[i : j + 1]))
            i = j + 1
        elif c.isalpha() or c == "_":
            m = re.compile(r"[A-Za-z_][A-Za-z0-9_]*").match(text, i)
            out.append(("ident", m.group(0)))
            i = m.end()
        elif c.isspace():
            j = i
            while j < n and text[j].isspace():
                j += 1
            out.append(("space", text[i:j]))
            i = j
        else:
            out.append(("other", c))
            i += 1
    return out


def split_items(toks):
    """Top-level items: each starts at a line's first token and runs to the next one."""
    items, cur, depth = [], [], 0
    for k, t in toks:
        at_line_start = not cur or (cur[-1][0] == "space" and "\n" in cur[-1][1])
        if depth == 0 and at_line_start and k in ("ident", "comment") and cur:
            if any(kk not in ("space",) for kk, _ in cur):
                items.append(cur)
                cur = []
        cur.append((k, t))
        if t in "{([" and k == "other":
            depth += 1
        elif t in "})]" and k == "other":
            depth -= 1
    if cur:
        items.append(cur)
    return items


def head(item):
    """The item's first word (`enum`, `rule`, `example`...), or None for a comment."""
    for k, t in item:
        if k == "ident":
            return t
        if k != "space":
            return None
    return None


def defined(items):
    """Every name the items define."""
    names = set()
    for item in items:
        h = head(item)
        solid = [(k, t) for k, t in item if k not in ("space", "comment")]
        if h in DEFINERS:
            names.add(solid[1][1])
        if h in VALUE_LISTS or h == "state":
            depth, fresh = 0, False
            for k, t in solid:
                if k == "other" and t in "{(":
                    depth += 1
                    fresh = depth == 1
                    continue
                if k == "other" and t in "})":
                    depth -= 1
                    continue
                if depth == 1 and k == "other" and t == ",":
                    fresh = True
                    continue
                if depth == 1 and fresh and k == "ident":
                    names.add(t)
                fresh = False
    return names


def renamed(item, names, suffix):
    """Every name of `names` in the item renamed, except the word `column` heading a
    table's column (`column order = good_order`), which Furious Reason also has as a
    value (`Formation.column`)."""
    out = []
    solid = [i for i, (k, _) in enumerate(item) if k not in ("space", "comment")]
    after = {a: b for a, b in zip(solid, solid[1:])}
    for i, (k, t) in enumerate(item):
        if k == "ident" and t in names:
            nxt = after.get(i)
            eq = after.get(nxt) if nxt is not None else None
            heads_column = (
                t == "column"
                and nxt is not None
                and item[nxt][0] == "ident"
                and eq is not None
                and item[eq][1] == "="
                and item[after.get(eq, eq)][1] != "="
            )
            if not heads_column:
                t = t + suffix
        out.append((k, t))
    return out


def text_of(item):
    return "".join(t for _, t in item)


def big_tables(n, rows):
    """A die-roll table of `rows` single numbers and ranges, and a table by two enums."""
    lines = [f"enum Side_k{n} {{ attacker_k{n}, defender_k{n} }}", ""]
    lines.append(
        f'table roll_table_k{n}(side: Side_k{n}, roll: Int) -> Int cite "generated, copy {n}" {{'
    )
    lines.append(f"  column side = attacker_k{n} {{")
    lines.append(f"    {rows + 1} or more => {rows + 1}")
    for r in range(rows, 0, -1):
        lines.append(f"    {r} => {r * 2 - 1}")
    lines.append("    0 or less => 0")
    lines.append("  }")
    lines.append(f"  column side = defender_k{n} {{")
    lines.append(f"    {rows + 1} or more => 0")
    for r in range(rows, 0, -2):
        lines.append(f"    {max(r - 1, 1)}..{r} => {r}")
    lines.append("    0 or less => 1")
    lines.append("  }")
    lines.append("}")
    lines.append("")
    lines.append(
        f'table terrain_grade_k{n}(terrain: Terrain_k{n}, grade: Grade_k{n}) -> Int cite "generated, copy {n}" {{'
    )
    terrains = ["light_woods", "heavy_woods", "low_hills", "steep_hills", "marsh",
                "linear_obstacle", "shallow_river", "deep_river"]
    grades = ["militia", "line", "grenadier", "guard"]
    for i, t in enumerate(terrains):
        for j, g in enumerate(grades):
            lines.append(f"  {t}_k{n} | {g}_k{n} => {i * 4 + j}")
    lines.append("}")
    lines.append("")
    lines.append(f'example "generated tables, copy {n}" {{')
    lines.append(f"  roll_table_k{n}(attacker_k{n}, 1) == 1")
    lines.append(f"  roll_table_k{n}(attacker_k{n}, {rows + 5}) == {rows + 1}")
    lines.append(f"  terrain_grade_k{n}(deep_river_k{n}, guard_k{n}) == 31")
    lines.append("}")
    lines.append("")
    return "\n".join(lines) + "\n"


def sized(target):
    with open(SOURCE, encoding="utf-8") as f:
        source = f.read()
    items = split_items(tokens(source))
    names = defined(items)
    state_fields = []
    body = []
    total = 0
    n = 0
    # The fixed part: the header line and the state's braces.
    header = 'ruleset "Generated" cite "benches/scale_gen.py"\n\n'
    total = len(header) + 20
    while True:
        suffix = f"_k{n}"
        chunk = []
        for item in items:
            h = head(item)
            if h == "ruleset":
                continue
            item = renamed(item, names, suffix)
            if h == "state":
                inner = text_of(item)
                inner = inner[inner.index("{") + 1 : inner.rindex("}")]
                state_fields.append(inner.strip().rstrip(","))
                continue
            if h == "example":
                # Each copy's examples named apart: the first string is the name.
                at = next(i for i, (k, _) in enumerate(item) if k == "string")
                item[at] = ("string", item[at][1][:-1] + f', copy {n}"')
            chunk.append(text_of(item))
        chunk.append(big_tables(n, 200))
        chunk_text = "".join(chunk)
        field_text = "  " + state_fields[-1] + ",\n"
        if n > 0 and total + len(chunk_text) + len(field_text) > target:
            state_fields.pop()
            break
        body.append(chunk_text)
        total += len(chunk_text) + len(field_text)
        n += 1
    state = "state {\n" + "".join("  " + s + ",\n" for s in state_fields) + "}\n\n"
    return header + state + "".join(body)


def enum(n):
    lines = ['ruleset "Generated" cite "benches/scale_gen.py"', "", "enum Big {"]
    lines += [f"  v{i}," for i in range(n)]
    lines += ["}", ""]
    return "\n".join(lines)


def main(argv):
    if len(argv) != 3 or argv[1] not in ("size", "enum"):
        sys.exit("usage: scale_gen.py size BYTES | enum N")
    n = int(argv[2])
    out = sized(n) if argv[1] == "size" else enum(n)
    sys.stdout.write(out)


if __name__ == "__main__":
    main(sys.argv)
