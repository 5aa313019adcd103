#!/usr/bin/env python3
"""Checks the keys of `../shared/published2/` (`keys/*.toml`) independently of derivcheck, with SymPy.

Each `[[line]]` keyed "true" or "false" and each `[[plant]]` (a planted error, false by
construction) carries a `check`: a SymPy expression, zero exactly when the line holds. Its
letters are declared in `symbols` (space-separated SymPy symbols; `positive` and `integer` list
those with that assumption) and `functions` (undefined functions). It is evaluated at each
combination of its `at` values, or symbolically when there are none, within `tolerance` where
the line rounds. A line keyed "true" must give zero everywhere, a "false" line or a plant nonzero
somewhere. A line with no `check` must say `by_hand` how it was checked. A plant's `from` must
occur exactly once on its line of the published file.

    python3 tests/published2/check_key.py [keys/<source>.toml ...]

Needs `sympy`, and `../shared/published2/` beside the repository.
"""
import itertools
import pathlib
import sys
import tomllib

import sympy as sp

HERE = pathlib.Path(__file__).parent
PUBLISHED = HERE.parent.parent.parent / "shared" / "published2"
BASE = {name: getattr(sp, name) for name in dir(sp) if not name.startswith("_")}


def namespace(entry):
    names = dict(BASE)
    positive = set(entry.get("positive", "").split())
    integer = set(entry.get("integer", "").split())
    for name in entry.get("symbols", "").split() + sorted(positive | integer):
        names[name] = sp.Symbol(name, positive=True if name in positive else None,
                                integer=True if name in integer else None)
    for name in entry.get("functions", "").split():
        names[name] = sp.Function(name)
    return names


def is_zero(value, tolerance):
    if isinstance(value, sp.MatrixBase):
        return all(is_zero(v, tolerance) for v in value)
    if isinstance(value, (bool, sp.logic.boolalg.BooleanAtom)):
        return bool(value)
    value = sp.simplify(value.doit() if hasattr(value, "doit") else value)
    if tolerance is None:
        return value == 0
    return abs(complex(sp.N(value))) <= tolerance


def holds(entry):
    """True/False when the entry's check holds/fails; None when it has none."""
    if "check" not in entry:
        return None
    names = namespace(entry)
    expr = eval(entry["check"], {"__builtins__": {}}, names)  # noqa: S307 - the key's own text
    tolerance = entry.get("tolerance")
    at = entry.get("at", {})
    if not at:
        return is_zero(expr, tolerance)
    keys = list(at)
    for combo in itertools.product(*(at[k] for k in keys)):
        sub = {names[k]: sp.Rational(v) if isinstance(v, str) else v for k, v in zip(keys, combo)}
        value = expr.subs(sub) if hasattr(expr, "subs") else expr
        if not is_zero(value, tolerance):
            return False
    return True


def line_text(entry):
    lines = (PUBLISHED / entry["file"]).read_text(encoding="utf-8").split("\n")
    return lines[entry["line"] - 1]


def main():
    files = [pathlib.Path(a) for a in sys.argv[1:]] or sorted((HERE / "keys").glob("*.toml"))
    failures = 0
    total = 0
    for path in files:
        key = tomllib.loads(path.read_text(encoding="utf-8"))
        for kind in ("line", "plant"):
            for entry in key.get(kind, []):
                total += 1
                where = f"{entry['file']}:{entry['line']}"
                expected = "false" if kind == "plant" else entry["key"]
                if kind == "plant":
                    count = line_text(entry).count(entry["from"])
                    if count != 1:
                        print(f"  {where}: plant `{entry['from']}` occurs {count} times on its line")
                        failures += 1
                        continue
                if expected not in ("true", "false"):
                    print(f"  {where}: {expected}")
                    continue
                try:
                    got = holds(entry)
                except Exception as error:  # a key that does not evaluate is a key to fix
                    print(f"  {where}: {kind} check does not evaluate: {error}")
                    failures += 1
                    continue
                if got is None:
                    status = "by hand" if "by_hand" in entry else "UNCHECKED"
                    failures += status == "UNCHECKED"
                else:
                    ok = got == (expected == "true")
                    status = "ok" if ok else "DISAGREES"
                    failures += not ok
                print(f"  {where}: {kind} {expected} ({status})")
    print(f"{total} keyed lines and plants, {failures} disagreements")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
