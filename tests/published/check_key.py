#!/usr/bin/env python3
"""Checks `key.toml` independently of derivcheck, with SymPy.

Every keyed line with a `check` expression: the expression (zero exactly when the line holds) is
evaluated at each combination of its `at` values (or symbolically when there are none) and must
be zero for `key = "true"` (within `tolerance` where the line rounds) and nonzero somewhere for
`key = "false"`. Lines with a `numeric` name run the named numerical check below. Prints one
line per keyed line and exits 1 on any disagreement.

    python3 tests/published/check_key.py
"""
import itertools
import pathlib
import random
import sys
import tomllib

import sympy as sp

HERE = pathlib.Path(__file__).parent

NAMES = {name: getattr(sp, name) for name in dir(sp) if not name.startswith("_")}
for letter in ["beta", "gamma", "g2", "lam", "x", "y", "n", "t", "i", "k", "x1", "x2", "x3", "g0", "g1", "s1", "s3",
               "a", "b", "z", "C", "eps", "theta"]:
    NAMES[letter] = sp.Symbol(letter)
# The polar radius is non-negative (integral-calculus.md:515).
NAMES["r"] = sp.Symbol("r", nonnegative=True)
# One fixed invertible matrix for the eigendecomposition lines.
NAMES["W"] = sp.Matrix([[1, 2], [3, 5]])


def is_zero(value, tolerance):
    if isinstance(value, sp.MatrixBase):
        return all(is_zero(v, tolerance) for v in value)
    value = sp.simplify(value.doit() if hasattr(value, "doit") else value)
    if tolerance is None:
        return value == 0
    return abs(float(sp.N(value))) <= tolerance


def random_orthogonal(n, rng):
    a = sp.Matrix(n, n, lambda i, j: sp.Rational(rng.randint(-9, 9), 7))
    q, _ = a.QRdecomposition()
    return q


def orthogonal_quadratic(rng):
    """f(x) = ½xᵀQx + cᵀx + b with Q = UᵀΛU equals ½x̄ᵀΛx̄ + c̄ᵀx̄ + b, x̄ = Ux, c̄ = Uc."""
    u = random_orthogonal(3, rng)
    lam = sp.diag(*[sp.Rational(rng.randint(1, 9)) for _ in range(3)])
    x = sp.Matrix([sp.Rational(rng.randint(-9, 9), 5) for _ in range(3)])
    c = sp.Matrix([sp.Rational(rng.randint(-9, 9), 5) for _ in range(3)])
    q = u.T * lam * u
    lhs = (x.T * q * x / 2 + c.T * x)[0]
    xb, cb = u * x, u * c
    rhs = (xb.T * lam * xb / 2 + cb.T * xb)[0]
    return sp.simplify(lhs - rhs) == 0


def x_equals_ux(rng):
    """x = Ux is false for an orthogonal U other than I (at some x)."""
    u = random_orthogonal(3, rng)
    x = sp.Matrix([1, 2, 3])
    return sp.simplify(u * x - x) == sp.zeros(3, 1)


NUMERIC = {"orthogonal_quadratic": orthogonal_quadratic, "x_equals_Ux": x_equals_ux}


def holds(entry):
    """True/False when the line holds/fails by its check; None when it has none."""
    results = []
    if "numeric" in entry:
        rng = random.Random(1)
        results.append(all(NUMERIC[entry["numeric"]](rng) for _ in range(3)))
    if "check" in entry:
        expr = eval(entry["check"], {"__builtins__": {}}, NAMES)  # noqa: S307 - the key's own text
        tolerance = entry.get("tolerance")
        at = entry.get("at", {})
        if at:
            keys = list(at)
            combos = itertools.product(*(at[k] for k in keys))
            values = []
            for combo in combos:
                sub = {NAMES[k]: sp.Rational(v) if isinstance(v, str) else v for k, v in zip(keys, combo)}
                values.append(is_zero(expr.subs(sub) if hasattr(expr, "subs") else expr, tolerance))
            results.append(all(values))
        else:
            results.append(is_zero(expr, tolerance))
    if not results:
        return None
    return all(results)


def main():
    key = tomllib.loads((HERE / "key.toml").read_text())
    failures = 0
    for entry in key["line"]:
        where = f"{entry['file']}:{entry['line']}"
        if entry["key"] not in ("true", "false"):
            print(f"  {where}: {entry['key']}")
            continue
        got = holds(entry)
        if got is None:
            status = "by hand" if "by_hand" in entry else "UNCHECKED"
            failures += status == "UNCHECKED"
        else:
            ok = got == (entry["key"] == "true")
            status = "ok" if ok else "DISAGREES"
            failures += not ok
        print(f"  {where}: {entry['key']} ({status})")
    print(f"{len(key['line'])} keyed lines, {failures} disagreements")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
