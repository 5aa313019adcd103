#!/usr/bin/env python3
"""derivcheck against the same checks scripted by hand in SymPy, side by side.

Each row is one group of claims of the shipped chapter (derivations/ch15), checked the way a
user would script it: build the expressions at the same sizes, differentiate with `diff`, and
ask `simplify(lhs - rhs) == 0`. derivcheck checks the same claims (plus the Chinese file, the
spec's claims and the worked example in the whole-chapter row). Times are wall-clock seconds on
this machine; derivcheck's per-section time is the sum of its per-claim times (JSON
`elapsed_ms`), its whole-chapter time the median of several runs of the binary.

Usage (from the project root, after `cargo build --release`):

    python3 bench/compare_sympy.py            # every row
    python3 bench/compare_sympy.py --quick    # the small rows only (no attention module)
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import sympy as sp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BINARY = os.path.join(ROOT, "target", "release", "derivcheck")
CHAPTER = os.path.join(ROOT, "derivations", "ch15")


def zero(e):
    return sp.simplify(e) == 0


def check_all(cases):
    """Every (name, difference) must simplify to 0; returns the number checked."""
    for name, difference in cases:
        if not zero(difference):
            raise SystemExit(f"SymPy did not verify {name}")
    return len(cases)


# ---------------------------------------------------------------- 15.1 and 15.2: softmax


def softmax_derivatives():
    count = 0
    for n in [2, 3, 4, 5]:
        s = sp.symbols(f"s1:{n + 1}")
        c = sp.Symbol("c")
        D = sum(sp.exp(x) for x in s)
        a = [sp.exp(x) / D for x in s]
        cases = []
        for j in range(n):
            cases.append(("da_j/ds_j quotient", sp.diff(a[j], s[j]) - (sp.exp(s[j]) * D - sp.exp(2 * s[j])) / D**2))
            cases.append(("da_j/ds_j", (sp.exp(s[j]) * D - sp.exp(2 * s[j])) / D**2 - a[j] * (1 - a[j])))
            for k in range(n):
                if k != j:
                    cases.append(("da_j/ds_k", sp.diff(a[j], s[k]) + sp.exp(s[j]) * sp.exp(s[k]) / D**2))
                    cases.append(("-a_j a_k", -sp.exp(s[j]) * sp.exp(s[k]) / D**2 + a[j] * a[k]))
            shifted = sp.exp(s[j] - c) / sum(sp.exp(x - c) for x in s)
            cases.append(("shift invariance", shifted - a[j]))
        count += check_all(cases)
    return count


def cross_entropy():
    count = 0
    for n in [2, 3, 4, 5]:
        l = sp.symbols(f"l1:{n + 1}", real=True)
        total = sum(sp.exp(x) for x in l)
        cases = []
        for y in range(n):
            L = -sp.log(sp.exp(l[y]) / total)
            cases.append(("log identity", sp.expand_log(L - (-l[y] + sp.log(total)), force=True)))
            for j in range(n):
                p = sp.exp(l[j]) / total
                cases.append(("dL/dl_j", sp.diff(L, l[j]) - (p - (1 if j == y else 0))))
        count += check_all(cases)
    return count


# ---------------------------------------------------------------- 15.3: attention module


def matrix(name, rows, cols):
    return sp.Matrix(rows, cols, lambda i, j: sp.Symbol(f"{name}_{i + 1}{j + 1}"))


def gradient(L, M):
    return M.applyfunc(lambda x: sp.diff(L, x))


def attention(n=3, d=2, dk=2, N=3):
    X, WQ, WK = matrix("X", n, d), matrix("WQ", d, dk), matrix("WK", d, dk)
    WV, WO, Rb = matrix("WV", d, d), matrix("WO", d, d), matrix("Rb", n, d)
    h, U, b, lb = matrix("h", 1, d), matrix("U", d, N), matrix("b", 1, N), matrix("lb", 1, N)
    Q, K, V = X * WQ, X * WK, X * WV
    S = Q * K.T / sp.sqrt(dk)

    def softmax_causal(S):
        A = sp.zeros(n, n)
        for i in range(n):
            den = sum(sp.exp(S[i, r]) for r in range(i + 1))
            for j in range(i + 1):
                A[i, j] = sp.exp(S[i, j]) / den
        return A

    A = softmax_causal(S)
    Z = A * V
    R = X + Z * WO
    ell = h * U + b
    out = sum(Rb[k] * R[k] for k in range(n * d))
    L = out + sum(lb[k] * ell[k] for k in range(N))
    cases = []

    def same(name, M1, M2):
        for k in range(len(M1)):
            cases.append((f"{name}[{k}]", M1[k] - M2[k]))

    # The output layer.
    same("U bar", gradient(L, U), h.T * lb)
    same("h bar", gradient(L, h), lb * U.T)
    same("b bar", gradient(L, b), lb)
    # Adjoints of intermediates: the loss as a function of a stand-in, then the value put back.
    Zs, As, Ss = matrix("Zs", n, d), matrix("As", n, n), matrix("Ss", n, n)
    Qs, Ks, Vs = matrix("Qs", n, dk), matrix("Ks", n, dk), matrix("Vs", n, d)

    def adjoint(stand_in, actual, loss_of_stand_in):
        g = gradient(loss_of_stand_in, stand_in)
        return g.subs(dict(zip(list(stand_in), list(actual))))

    def loss_from(R_):
        return sum(Rb[k] * R_[k] for k in range(n * d))

    Zbar = adjoint(Zs, Z, loss_from(X + Zs * WO))
    Abar = adjoint(As, A, loss_from(X + As * V * WO))
    Vbar = adjoint(Vs, V, loss_from(X + A * Vs * WO))
    Sbar = adjoint(Ss, S, loss_from(X + softmax_causal(Ss) * V * WO))
    Qbar = adjoint(Qs, Q, loss_from(X + softmax_causal(Qs * K.T / sp.sqrt(dk)) * V * WO))
    Kbar = adjoint(Ks, K, loss_from(X + softmax_causal(Q * Ks.T / sp.sqrt(dk)) * V * WO))
    same("W_O bar", gradient(L, WO), Z.T * Rb)
    same("Z bar", Zbar, Rb * WO.T)
    same("A bar", Abar, Zbar * V.T)
    same("V bar", Vbar, A.T * Zbar)
    for i in range(n):
        for j in range(i + 1):
            inner = Abar[i, j] - sum(A[i, r] * Abar[i, r] for r in range(i + 1))
            cases.append((f"S bar {i}{j}", Sbar[i, j] - A[i, j] * inner))
    same("Q bar", Qbar, Sbar * K / sp.sqrt(dk))
    same("K bar", Kbar, Sbar.T * Q / sp.sqrt(dk))
    same("W_Q bar", gradient(L, WQ), X.T * Qbar)
    same("W_K bar", gradient(L, WK), X.T * Kbar)
    same("W_V bar", gradient(L, WV), X.T * Vbar)
    same("X bar", gradient(L, X), Rb + Qbar * WQ.T + Kbar * WK.T + Vbar * WV.T)
    return check_all(cases)


# ---------------------------------------------------------------- 15.5: LayerNorm


def layer_norm():
    count = 0
    for d in [2, 3, 4]:
        x, g, gamma = matrix("x", 1, d), matrix("g", 1, d), matrix("gamma", 1, d)
        beta, eps = matrix("beta", 1, d), sp.Symbol("epsilon", positive=True)
        mu = sum(x) / d
        v = sum((x[r] - mu) ** 2 for r in range(d)) / d
        s = sp.sqrt(v + eps)
        xhat = [(x[r] - mu) / s for r in range(d)]
        LN = [gamma[r] * xhat[r] + beta[r] for r in range(d)]
        L = sum(g[r] * LN[r] for r in range(d))
        u = [g[r] * gamma[r] for r in range(d)]
        mean_u = sum(u) / d
        mean_ux = sum(u[r] * xhat[r] for r in range(d)) / d
        cases = []
        for r in range(d):
            cases.append(("x bar", sp.diff(L, x[r]) - (u[r] - mean_u - xhat[r] * mean_ux) / s))
            cases.append(("gamma bar", sp.diff(L, gamma[r]) - g[r] * xhat[r]))
            cases.append(("beta bar", sp.diff(L, beta[r]) - g[r]))
        count += check_all(cases)
    return count


# ---------------------------------------------------------------- derivcheck's side


def derivcheck_json(notes, spec):
    out = subprocess.run(
        [BINARY, "check", notes, "--spec", spec, "--no-cache", "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "SYMBOLICA_HIDE_BANNER": "1"},
    )
    return json.loads(out.stdout)


def section_seconds(report, sections):
    return sum(
        c["elapsed_ms"] for f in report["files"] for c in f["claims"] if c["section"] in sections
    ) / 1000


def wall(args, runs=5):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([BINARY, *args], capture_output=True, env={**os.environ, "SYMBOLICA_HIDE_BANNER": "1"})
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def timed(f):
    start = time.perf_counter()
    n = f()
    return time.perf_counter() - start, n


def main():
    quick = "--quick" in sys.argv
    if not os.path.exists(BINARY):
        raise SystemExit("build first: cargo build --release")
    notes = os.path.join(CHAPTER, "notes.en.md")
    spec_text = open(os.path.join(CHAPTER, "checks.toml"), encoding="utf-8").read()
    # The attention module at the sizes SymPy can manage (the shipped spec proves n = 8, d = 16).
    small = spec_text.replace(
        "sizes = { n = [8], d = [16], d_k = [4], N = [8] }", "sizes = { n = [3], d = [2], d_k = [2], N = [3] }"
    )
    with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False, encoding="utf-8") as f:
        f.write(small)
        small_spec = f.name
    report = derivcheck_json(notes, small_spec)
    shipped = derivcheck_json(notes, os.path.join(CHAPTER, "checks.toml"))

    rows = [
        ("15.1 softmax derivatives, N = 2..5", softmax_derivatives, section_seconds(report, {"15.1"})),
        ("15.2 cross-entropy gradient, N = 2..5", cross_entropy, section_seconds(report, {"15.2"})),
        ("15.5 LayerNorm backward, d = 2, 3, 4", layer_norm, section_seconds(report, {"15.5"})),
    ]
    if not quick:
        rows.append(("15.3 attention backward, n = 3, d = 2, d_k = 2", attention, section_seconds(report, {"15.3"})))
    print(f"{'row':<52} {'claims':>6} {'SymPy s':>9} {'derivcheck s':>13} {'ratio':>8}")
    sympy_total = 0.0
    for name, f, ours in rows:
        theirs, n = timed(f)
        sympy_total += theirs
        print(f"{name:<52} {n:>6} {theirs:>9.2f} {ours:>13.4f} {theirs / ours:>7.0f}x")
    whole = wall(["check", CHAPTER, "--no-cache"])
    shipped_attention = section_seconds(shipped, {"15.3"})
    print(
        f"{'15.3 at n = 8, d = 16, d_k = 4 (derivcheck only)':<52} {'':>6} {'-':>9} {shipped_attention:>13.4f}"
    )
    print(
        f"{'whole chapter, both languages (SymPy: the rows above)':<52} {'':>6} {sympy_total:>9.2f} "
        f"{whole:>13.4f} {sympy_total / whole:>7.0f}x"
    )
    os.unlink(small_spec)


if __name__ == "__main__":
    main()
