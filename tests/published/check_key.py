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


def random_joint(rng, domains):
    """A random joint table of discrete random variables: [(values by name, probability)], exact."""
    names = list(domains)
    cells = list(itertools.product(*(domains[n] for n in names)))
    weights = [sp.Rational(rng.randint(1, 20)) for _ in cells]
    total = sum(weights)
    return [(dict(zip(names, cell)), w / total) for cell, w in zip(cells, weights)]


def prob(table, event, given=None):
    """P(event | given), events as {name: value}."""
    given = given or {}
    def hit(cell, ev):
        return all(cell[k] == v for k, v in ev.items())
    condition = sum(p for cell, p in table if hit(cell, given))
    return sum(p for cell, p in table if hit(cell, given) and hit(cell, event)) / condition


def expect(table, f):
    return sum(p * f(cell) for cell, p in table)


def for_all_values(rng, domains, identity):
    """The identity at every value of the variables, on a random joint table."""
    table = random_joint(rng, domains)
    names = list(domains)
    return all(identity(table, dict(zip(names, vs))) for vs in itertools.product(*(domains[n] for n in names)))


AB = {"A": [0, 1, 2], "B": [0, 1]}
DH = {"D1": [0, 1], "H": [0, 1]}
DDH = {"D1": [0, 1], "D2": [0, 1], "H": [0, 1]}
X = {"X": [-1, 2, 5]}


def variance(table, plus):
    mean = expect(table, lambda c: c["X"])
    lhs = expect(table, lambda c: (c["X"] - mean) ** 2)
    second = expect(table, lambda c: c["X"] ** 2)
    return lhs == (second + mean**2 if plus else second - mean**2)


PROBABILITY = {
    # P(A,B) = P(B|A)P(A), P(A,B) = P(A|B)P(B), Bayes, the sum rule, at every value of A and B.
    "product_rule": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, v) == prob(t, {"B": v["B"]}, {"A": v["A"]}) * prob(t, {"A": v["A"]})),
    "product_rule_other": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, v) == prob(t, {"A": v["A"]}, {"B": v["B"]}) * prob(t, {"B": v["B"]})),
    "bayes": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, {"A": v["A"]}, {"B": v["B"]})
        == prob(t, {"B": v["B"]}, {"A": v["A"]}) * prob(t, {"A": v["A"]}) / prob(t, {"B": v["B"]})),
    "sum_rule": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, {"B": v["B"]}) == sum(prob(t, {"A": a, "B": v["B"]}) for a in AB["A"])),
    # Planted: P(A,B) = P(B|A)P(B); P(A,B) = P(A|B)P(A); Bayes over P(A).
    "product_rule_planted": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, v) == prob(t, {"B": v["B"]}, {"A": v["A"]}) * prob(t, {"B": v["B"]})),
    "product_rule_other_planted": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, v) == prob(t, {"A": v["A"]}, {"B": v["B"]}) * prob(t, {"A": v["A"]})),
    "bayes_planted": lambda rng: for_all_values(
        rng, AB, lambda t, v: prob(t, {"A": v["A"]}, {"B": v["B"]})
        == prob(t, {"B": v["B"]}, {"A": v["A"]}) * prob(t, {"A": v["A"]}) / prob(t, {"A": v["A"]})),
    # P(D1=1) = Σ_h P(D1=1, H=h) = Σ_h P(D1=1 | H=h) P(H=h), H ∈ {0, 1}; Bayes for H=1.
    "total_probability": lambda rng: for_all_values(
        rng, DH, lambda t, v: prob(t, {"D1": 1}) == prob(t, {"D1": 1, "H": 0}) + prob(t, {"D1": 1, "H": 1})),
    "total_probability_products": lambda rng: for_all_values(
        rng, DH, lambda t, v: prob(t, {"D1": 1, "H": 0}) + prob(t, {"D1": 1, "H": 1})
        == sum(prob(t, {"D1": 1}, {"H": h}) * prob(t, {"H": h}) for h in (0, 1))),
    "bayes_h": lambda rng: for_all_values(
        rng, DH, lambda t, v: prob(t, {"H": 1}, {"D1": 1})
        == prob(t, {"D1": 1}, {"H": 1}) * prob(t, {"H": 1}) / prob(t, {"D1": 1})),
    "total_probability_two": lambda rng: for_all_values(
        rng, DDH, lambda t, v: prob(t, {"D1": 1, "D2": 1})
        == prob(t, {"D1": 1, "D2": 1, "H": 0}) + prob(t, {"D1": 1, "D2": 1, "H": 1})),
    "total_probability_two_products": lambda rng: for_all_values(
        rng, DDH, lambda t, v: prob(t, {"D1": 1, "D2": 1, "H": 0}) + prob(t, {"D1": 1, "D2": 1, "H": 1})
        == sum(prob(t, {"D1": 1, "D2": 1}, {"H": h}) * prob(t, {"H": h}) for h in (0, 1))),
    "bayes_two": lambda rng: for_all_values(
        rng, DDH, lambda t, v: prob(t, {"H": 1}, {"D1": 1, "D2": 1})
        == prob(t, {"D1": 1, "D2": 1}, {"H": 1}) * prob(t, {"H": 1}) / prob(t, {"D1": 1, "D2": 1})),
    # Var[X] = E[(X - E[X])^2] = E[X^2] - E[X]^2; planted: + E[X]^2; E[X] = Σ_x P(X=x) (x dropped).
    "variance": lambda rng: variance(random_joint(rng, X), plus=False),
    "variance_planted": lambda rng: variance(random_joint(rng, X), plus=True),
    # ∫ P(X) P(X|Y) dY = P(X), read over discrete Y as a sum (planted; the chapter has P(Y)).
    "marginal_planted": lambda rng: for_all_values(
        rng, AB, lambda t, v: sum(prob(t, {"A": v["A"]}) * prob(t, {"A": v["A"]}, {"B": b}) for b in AB["B"])
        == prob(t, {"A": v["A"]})),
    "expectation_planted": lambda rng: (lambda t: expect(t, lambda c: c["X"]) == sum(prob(t, {"X": x}) for x in X["X"]))(
        random_joint(rng, X)),
}

NUMERIC = {"orthogonal_quadratic": orthogonal_quadratic, "x_equals_Ux": x_equals_ux, **PROBABILITY}


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
