//! Named distributions: `X \sim \mathrm{Bernoulli}(p)`, `X \sim \mathcal N(\mu, \sigma^2)`. A
//! statement that a random variable has a distribution of the table below gives its mean and
//! standard deviation a meaning: `\mu_X` and `\sigma_X` (so `\sigma_X^2`) are then what the
//! table says, and a later `\mu_X = p`, `\sigma_X^2 = p(1-p)` is a claim about them.
//!
//! Takes: one relation chain of a formula. Gives: the [`NamedDistribution`] it states, with the
//! mean and variance as expressions in the arguments written. Only names with one reading are in
//! the table: `U(a, b)` with two arguments (one argument is read both as {1, …, n} and as
//! [0, θ]), `\mathcal N(\mu, \sigma^2)` with a square or a number second (`\mathcal N(\mu,
//! \sigma)` is written for either the variance or the deviation), no exponential or gamma (a
//! rate or a scale). Each entry's mean and variance are checked against its probability mass
//! or density in this module's tests.

use crate::syntax::ast::{Chain, Expr, ExprKind, RelOp};

/// A distribution of the table, stated of one variable.
#[derive(Debug, Clone)]
pub struct NamedDistribution {
    /// The arguments as written (`p`, `n, p/n`).
    pub args: Vec<Expr>,
    /// The variable (`X`, `X_i`, `X^{(n)}`; `(X, Y) \sim \mathcal N(…)` is a joint
    /// distribution, not read).
    pub variable: Expr,
    /// The distribution as the table names it (`Bernoulli`).
    pub name: &'static str,
    pub mean: Expr,
    pub variance: Expr,
}

/// One row of the table: the names it is written with, its arity, and its mean and variance
/// with `A`, `B` for the arguments in order (products written with `\cdot`: `A(1-A)` would be
/// an application).
struct Row {
    name: &'static str,
    written: &'static [&'static str],
    arity: usize,
    mean: &'static str,
    variance: &'static str,
}

const TABLE: &[Row] = &[
    Row { name: "Bernoulli", written: &["Bernoulli", "Bern"], arity: 1, mean: "A", variance: "A \\cdot (1-A)" },
    Row {
        name: "Binomial",
        written: &["Binomial", "Bin", "Binom"],
        arity: 2,
        mean: "A \\cdot B",
        variance: "A \\cdot B \\cdot (1-B)",
    },
    Row { name: "Poisson", written: &["Poisson", "Pois"], arity: 1, mean: "A", variance: "A" },
    Row {
        name: "Uniform",
        written: &["U", "Uniform", "Unif"],
        arity: 2,
        mean: "\\frac{A+B}{2}",
        variance: "\\frac{(B-A)^2}{12}",
    },
    Row { name: "Normal", written: &["N", "Normal", "Gaussian"], arity: 2, mean: "A", variance: "B" },
    Row {
        name: "Beta",
        written: &["Beta"],
        arity: 2,
        mean: "\\frac{A}{A+B}",
        variance: "\\frac{A \\cdot B}{(A+B)^2 \\cdot (A+B+1)}",
    },
];

/// `U(n)` where the words say the distribution is discrete (`a discrete uniform`, `离散均匀`):
/// uniform on {1, …, n}. Without those words one argument reads as [0, θ] as often.
const DISCRETE_UNIFORM: Row = Row {
    name: "DiscreteUniform",
    written: &["U", "Uniform", "Unif"],
    arity: 1,
    mean: "\\frac{1+A}{2}",
    variance: "\\frac{A^2-1}{12}",
};

/// `X \sim \mathrm{Name}(args)` with a name of the table and its number of arguments; `words`
/// (the section's title and the words before the formula) may settle a name with two readings
/// (`U(n)` in a section on the discrete uniform).
pub fn named_distribution_in(chain: &Chain, words: &str) -> Option<NamedDistribution> {
    static DISCRETE: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(?i)\bdiscrete[\s-]+uniform|离散均匀").expect("valid regex"));
    let (Some(first), [link]) = (&chain.first, chain.links.as_slice()) else { return None };
    if link.op != RelOp::Sim {
        return None;
    }
    let (written, args) = applied(&link.rhs)?;
    let discrete = std::iter::once(&DISCRETE_UNIFORM).filter(|_| DISCRETE.is_match(words));
    let row = TABLE.iter().chain(discrete).find(|r| r.written.contains(&written.as_str()) && r.arity == args.len())?;
    // `\mathcal N(\mu, \sigma)`: the deviation or the variance? Only a square or a number says.
    if row.name == "Normal" && !matches!(args[1].kind, ExprKind::Power { .. } | ExprKind::Number { .. }) {
        return None;
    }
    if !names_a_variable(first) {
        return None;
    }
    Some(NamedDistribution {
        args: args.clone(),
        variable: first.clone(),
        name: row.name,
        mean: instantiate(row.mean, &args)?,
        variance: instantiate(row.variance, &args)?,
    })
}

impl NamedDistribution {
    /// The lone letters among the arguments (`n` and `p` of `\mathrm{Binomial}(n, p)`; not
    /// `p` of `p/n`, which may be anything the text divides).
    pub fn parameters(&self) -> Vec<String> {
        self.args.iter().filter(|a| matches!(a.kind, ExprKind::Symbol(_))).filter_map(Expr::symbol_key).collect()
    }

    /// What the statement gives a meaning: `\mu_X` the mean and `\sigma_X` the standard
    /// deviation of the variable, as (letter, value) pairs.
    pub fn moment_letters(&self) -> Vec<(Expr, Expr)> {
        let of_variable = |letter: &str| {
            let base = crate::syntax::parse_formula(letter).ok()?.chains.first()?.first.clone()?;
            let index = Box::new(self.variable.clone());
            Some(Expr::new(ExprKind::Subscript { base: Box::new(base), index }, self.variable.span))
        };
        let deviation = substitute("\\sqrt{A}", std::slice::from_ref(&self.variance));
        match (of_variable("\\mu"), of_variable("\\sigma"), deviation) {
            (Some(mu), Some(sigma), Some(deviation)) => vec![(mu, self.mean.clone()), (sigma, deviation)],
            _ => Vec::new(),
        }
    }
}

/// A name and its arguments: `\mathcal N(0, 1)` (a call), `\mathrm{Binomial}(n, p)` (an
/// operator name applied), `\textrm{Bernoulli}(p)` (text before a parenthesis).
fn applied(e: &Expr) -> Option<(String, Vec<Expr>)> {
    use crate::syntax::ast::BinOp;
    match &e.kind {
        ExprKind::Call { func, args, postfixed: false } => Some((head_name(func)?, args.clone())),
        ExprKind::Apply { func, args, parenthesized: true }
            if func.primes == 0 && func.sub.is_none() && func.sup.is_none() =>
        {
            Some((func.name.clone(), args.clone()))
        }
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            let ExprKind::Fenced { inner: Some(inner), open, .. } = &rhs.kind else { return None };
            if open != "(" {
                return None;
            }
            let name = head_name(lhs)?;
            match &inner.kind {
                ExprKind::Tuple { items, stacked: false } => Some((name, items.clone())),
                _ => Some((name, vec![(**inner).clone()])),
            }
        }
        _ => None,
    }
}

/// A capital letter, possibly with a subscript or a label (`X`, `X_i`, `X^{(n)}`).
fn names_a_variable(e: &Expr) -> bool {
    let base = match &e.kind {
        ExprKind::Subscript { base, .. } => base,
        _ => e,
    };
    matches!(&base.kind, ExprKind::Symbol(s) if s.accents.is_empty()
        && s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_uppercase()))
}

/// The name a distribution is written with: `\mathrm{Bernoulli}`, `\textrm{Poisson}`,
/// `\mathcal{N}`, `U`.
fn head_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.label.is_none() => Some(s.name.clone()),
        ExprKind::Text { text } => Some(text.trim().to_string()),
        ExprKind::Styled { operand, .. } => head_name(operand),
        _ => None,
    }
}

/// The table's formula with `A`, `B` replaced by the arguments (each in parentheses unless a
/// letter or a number).
fn instantiate(template: &str, args: &[Expr]) -> Option<Expr> {
    let fenced: Vec<Expr> = args
        .iter()
        .map(|arg| match arg.kind {
            ExprKind::Symbol(_) | ExprKind::Number { .. } | ExprKind::Subscript { .. } => arg.clone(),
            _ => Expr::parenthesized(arg.clone(), arg.span),
        })
        .collect();
    substitute(template, &fenced)
}

/// A formula written with `A`, `B` for the given expressions, in order.
fn substitute(template: &str, args: &[Expr]) -> Option<Expr> {
    let parsed = crate::syntax::parse_formula(template).ok()?.chains.first()?.first.clone()?;
    Some(super::recurrence::map(&parsed, &mut |e| {
        let slot = match e.symbol_key()?.as_str() {
            "A" => 0,
            "B" => 1,
            _ => return None,
        };
        args.get(slot).cloned()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stated(tex: &str) -> Option<NamedDistribution> {
        let statement = crate::syntax::parse_formula(tex).unwrap();
        named_distribution_in(&statement.chains[0], "")
    }

    #[test]
    fn reads_the_names_of_the_table() {
        for tex in [
            r"X \sim \textrm{Bernoulli}(p)",
            r"X \sim \mathrm{Binomial}(n, p)",
            r"X \sim \textrm{Poisson}(\lambda)",
            r"X \sim U(a, b)",
            r"X \sim \mathcal{N}(\mu, \sigma^2)",
            r"X \sim \mathcal{N}(0, 1)",
            r"X_i \sim \textrm{Bernoulli}(p/2)",
            r"X \sim \mathrm{Beta}(\alpha, \beta)",
        ] {
            assert!(stated(tex).is_some(), "{tex}");
        }
    }

    #[test]
    fn refuses_what_has_two_readings_or_is_no_table_row() {
        for tex in [
            r"X \sim U(n)",
            r"X \sim \mathcal{N}(\mu, \sigma)",
            r"X \sim \mathrm{Exp}(\lambda)",
            r"X \sim \textrm{Bernoulli}(p, q)",
            r"x \sim \textrm{Bernoulli}(p)",
            r"X^{(2)} \sim X^{(2)}_1 + X^{(2)}_2",
            r"(X, Y) \sim \mathcal{N}(0, 1)",
            r"X = \textrm{Bernoulli}(p)",
        ] {
            assert!(stated(tex).is_none(), "{tex}");
        }
    }

    /// The value of a formula the table writes (sums, products, quotients, powers of letters and
    /// numbers), at the given letters.
    fn value(e: &Expr, at: &[(&str, f64)]) -> f64 {
        use crate::syntax::ast::BinOp;
        match &e.kind {
            ExprKind::Number { value } => value.parse().unwrap(),
            ExprKind::Symbol(_) => {
                let key = e.symbol_key().unwrap();
                at.iter().find(|(name, _)| crate::syntax::canonical_key(name).unwrap() == key).unwrap().1
            }
            ExprKind::Fenced { inner: Some(inner), .. } => value(inner, at),
            ExprKind::Neg { operand } => -value(operand, at),
            ExprKind::Frac { num, den } => value(num, at) / value(den, at),
            ExprKind::Power { base, exponent } => value(base, at).powf(value(exponent, at)),
            ExprKind::Binary { op, lhs, rhs } => {
                let (l, r) = (value(lhs, at), value(rhs, at));
                match op {
                    BinOp::Add => l + r,
                    BinOp::Sub => l - r,
                    BinOp::Div => l / r,
                    _ => l * r,
                }
            }
            other => panic!("not in the table's formulas: {other:?}"),
        }
    }

    /// The table's mean and variance at the given arguments, as numbers.
    fn moments(tex: &str, at: &[(&str, f64)]) -> (f64, f64) {
        let named = stated(tex).unwrap();
        (value(&named.mean, at), value(&named.variance, at))
    }

    /// Mean and variance of a probability mass function over 0..=max.
    fn of_mass(mass: impl Fn(u64) -> f64, max: u64) -> (f64, f64) {
        let (mut m0, mut m1, mut m2) = (0.0, 0.0, 0.0);
        for k in 0..=max {
            let p = mass(k);
            m0 += p;
            m1 += p * k as f64;
            m2 += p * (k * k) as f64;
        }
        assert!((m0 - 1.0).abs() < 1e-9);
        (m1, m2 - m1 * m1)
    }

    /// Mean and variance of a density on [lo, hi], by the midpoint rule.
    fn of_density(density: impl Fn(f64) -> f64, lo: f64, hi: f64) -> (f64, f64) {
        let steps = 200_000;
        let h = (hi - lo) / steps as f64;
        let (mut m0, mut m1, mut m2) = (0.0, 0.0, 0.0);
        for i in 0..steps {
            let x = lo + (i as f64 + 0.5) * h;
            let w = density(x) * h;
            m0 += w;
            m1 += w * x;
            m2 += w * x * x;
        }
        assert!((m0 - 1.0).abs() < 1e-6, "mass {m0}");
        (m1, m2 - m1 * m1)
    }

    fn close(a: (f64, f64), b: (f64, f64)) {
        assert!((a.0 - b.0).abs() < 1e-6 && (a.1 - b.1).abs() < 1e-6, "{a:?} vs {b:?}");
    }

    fn choose(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    fn factorial(k: u64) -> f64 {
        (1..=k).map(|i| i as f64).product()
    }

    #[test]
    fn each_row_is_the_mean_and_variance_of_its_distribution() {
        let p = 0.3;
        close(moments(r"X \sim \textrm{Bernoulli}(p)", &[("p", p)]), of_mass(|k| [1.0 - p, p][k as usize], 1));
        let n = 7;
        close(
            moments(r"X \sim \textrm{Binomial}(n, p)", &[("n", n as f64), ("p", p)]),
            of_mass(|k| choose(n, k) * p.powi(k as i32) * (1.0 - p).powi((n - k) as i32), n),
        );
        let lambda = 2.5;
        close(
            moments(r"X \sim \textrm{Poisson}(\lambda)", &[("\\lambda", lambda)]),
            of_mass(|k| lambda.powi(k as i32) * (-lambda).exp() / factorial(k), 60),
        );
        let (a, b) = (-1.0, 3.0);
        close(moments(r"X \sim U(a, b)", &[("a", a), ("b", b)]), of_density(|_| 1.0 / (b - a), a, b));
        let statement = crate::syntax::parse_formula(r"X \sim U(n)").unwrap();
        let discrete = named_distribution_in(&statement.chains[0], "Discrete Uniform").unwrap();
        let at = [("n", n as f64)];
        let uniform = of_mass(|k| if k >= 1 { 1.0 / n as f64 } else { 0.0 }, n);
        close((value(&discrete.mean, &at), value(&discrete.variance, &at)), uniform);
        // Without the words, one argument has two readings: none taken.
        assert!(named_distribution_in(&statement.chains[0], "").is_none());
        let (mu, sigma) = (0.7, 1.3);
        let gauss =
            |x: f64| (-(x - mu).powi(2) / (2.0 * sigma * sigma)).exp() / (2.0 * std::f64::consts::PI).sqrt() / sigma;
        close(
            moments(r"X \sim \mathcal{N}(\mu, \sigma^2)", &[("\\mu", mu), ("\\sigma", sigma)]),
            of_density(gauss, mu - 12.0 * sigma, mu + 12.0 * sigma),
        );
        let (al, be) = (2.0, 3.0);
        // B(2, 3) = 1/12.
        close(
            moments(r"X \sim \mathrm{Beta}(\alpha, \beta)", &[("\\alpha", al), ("\\beta", be)]),
            of_density(|x| 12.0 * x * (1.0 - x).powi(2), 0.0, 1.0),
        );
    }
}

/// A discrete distribution the words give a random variable, value by value: `$X$ … takes the
/// value $a-2$ with probability $p$, $a+2$ with probability $p$ and $a$ with probability
/// $1-2p$`, `$X$以概率$p$取值$a-2$，以概率$1-p$取值$a$`.
#[derive(Debug, Clone)]
pub struct Law {
    /// The variable (`X`).
    pub variable: String,
    /// Each value with its probability, as written.
    pub outcomes: Vec<(Expr, Expr)>,
}

/// The tail of a formula's lead after the formulas before it in its sentence (`$`).
fn tail(lead: &str) -> &str {
    lead.rsplit('$').next().unwrap_or_default()
}

/// The laws the words of `sites` give (a section's formulas, in order), each with the index in
/// `sites` of the formula that ends it: claims after that may use it.
pub(super) fn laws_in(sites: &[&crate::notes::FormulaSite]) -> Vec<(usize, Law)> {
    use regex::Regex;
    use std::sync::LazyLock;
    /// How a language writes a law: the words before the first formula of a pair, those between
    /// its two formulas, those before the next pair, and whether the value comes first.
    struct Phrasing {
        opens: Regex,
        joins: Regex,
        next: Regex,
        value_first: bool,
    }
    static PHRASINGS: LazyLock<[Phrasing; 2]> = LazyLock::new(|| {
        let re = |r: &str| Regex::new(r).expect("valid regex");
        [
            // `takes the value $v$ with probability $p$, $w$ with probability $q$ and …`
            Phrasing {
                opens: re(r"(?i)\btakes?\s+(on\s+)?(the\s+)?values?\s*$"),
                joins: re(r"(?i)^\s*with\s+probability\s*$"),
                next: re(r"(?i)^\s*(,|and|or|,\s*and|,\s*or|、|，|或)\s*$"),
                value_first: true,
            },
            // `以概率$p$取值$v$，以概率$q$取值$w$`
            Phrasing {
                opens: re(r"以概率\s*$"),
                joins: re(r"^\s*取值?为?\s*$"),
                next: re(r"^\s*(，|,|、|或|和)?\s*以概率\s*$"),
                value_first: false,
            },
        ]
    });
    let parse = |tex: &str| -> Option<Expr> {
        let statement = crate::syntax::parse_formula(tex.trim().trim_end_matches(['.', ','])).ok()?;
        let [chain] = statement.chains.as_slice() else { return None };
        chain.links.is_empty().then(|| chain.first.clone()).flatten()
    };
    // The variable: the latest lone capital letter written before, in the same block.
    let variable = |at: usize| -> Option<String> {
        sites[..at].iter().rev().take_while(|s| s.block == sites[at].block).find_map(|s| {
            let e = parse(&s.tex)?;
            let key = e.symbol_key().filter(|_| matches!(e.kind, ExprKind::Symbol(_)))?;
            key.chars().next().filter(char::is_ascii_uppercase).map(|_| key.clone())
        })
    };
    let mut laws = Vec::new();
    let mut k = 0;
    while k < sites.len() {
        let same_block = |a: usize, b: usize| sites.get(b).is_some_and(|s| s.block == sites[a].block);
        let mut outcomes = Vec::new();
        let mut end = k;
        if let Some(phrasing) = PHRASINGS.iter().find(|p| p.opens.is_match(tail(&sites[k].lead))) {
            // A pair, then the words before the next pair.
            let mut j = k;
            while same_block(k, j + 1) && phrasing.joins.is_match(tail(&sites[j + 1].lead)) {
                let (Some(first), Some(second)) = (parse(&sites[j].tex), parse(&sites[j + 1].tex)) else { break };
                outcomes.push(if phrasing.value_first { (first, second) } else { (second, first) });
                end = j + 1;
                if !(same_block(k, j + 2) && phrasing.next.is_match(tail(&sites[j + 2].lead))) {
                    break;
                }
                j += 2;
            }
        }
        // (The variable is looked for only where there is a law: the look goes back over the
        // block, and a block of thousands of formulas made it quadratic.)
        match (outcomes.len() >= 2).then(|| variable(k)).flatten() {
            Some(variable) => {
                laws.push((end, Law { variable, outcomes }));
                k = end + 1;
            }
            None => k += 1,
        }
    }
    laws
}

#[cfg(test)]
mod law_tests {
    use super::*;

    fn sites(text: &str) -> Vec<crate::notes::FormulaSite> {
        crate::notes::Document::parse("t.md", format!("# T\n\n{text}\n")).formulas
    }

    #[test]
    fn a_distribution_given_value_by_value_is_read() {
        let en = sites("Take $X$ to be the random variable which takes the value $a-2$ with probability $p$, $a+2$ with probability $p$ and $a$ with probability $1-2p$.");
        let laws = laws_in(&en.iter().collect::<Vec<_>>());
        assert_eq!(laws.len(), 1, "{laws:?}");
        assert_eq!(laws[0].1.variable, "X");
        assert_eq!(laws[0].1.outcomes.len(), 3);
        let zh = sites("设随机变量$Y$以概率$q$取值$1$，以概率$1-q$取值$0$。");
        let laws = laws_in(&zh.iter().collect::<Vec<_>>());
        assert_eq!(laws.len(), 1, "{laws:?}");
        assert_eq!(laws[0].1.variable, "Y");
        // Values with probabilities in general (`x_i` with `p_i`) are no law of one variable's values.
        let general = sites("A discrete random variable $X$, which takes the values $x_i$ with probabilities $p_i$.");
        assert!(laws_in(&general.iter().collect::<Vec<_>>()).is_empty());
    }
}
