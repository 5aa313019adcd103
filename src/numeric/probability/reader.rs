//! Reading a side of a probability claim into a [`Node`] tree: events, conditionals, sums and
//! expectations over value letters, moments; what cannot be read is [`Refused`].

use super::*;
use crate::syntax::ast::{BigOpKind, BinOp, Chain, Expr, ExprKind, RelOp, Style};

use std::collections::{BTreeMap, BTreeSet};

/// Why a claim is not read.
pub(super) struct Refused;

pub(super) type Read<T> = Result<T, Refused>;

#[derive(Default, Clone)]
pub(super) struct Reader {
    pub(super) operators: usize,
    /// Value names bound by sums and expectations, innermost last.
    pub(super) bound: Vec<String>,
    /// Free value names, each with its variable.
    pub(super) free: BTreeMap<String, String>,
    /// Value letter → its variable.
    pub(super) pairs: BTreeMap<String, String>,
    pub(super) variables: BTreeSet<String>,
    /// Numbers each variable is compared with.
    pub(super) written: BTreeMap<String, Vec<f64>>,
    /// Depth of expectations around the letter being read.
    pub(super) inside: usize,
    pub(super) letters_inside: BTreeSet<String>,
    pub(super) letters_outside: BTreeSet<String>,
    pub(super) unknown: BTreeSet<String>,
    /// Variables an integral over all their values runs over (`dY`, `\int_{-\infty}^{\infty} …
    /// dy`): summed over their values.
    pub(super) integrals: BTreeSet<String>,
    /// The words name entropy or mutual information: `H(X)`, `H(Y \mid X)`, `I(X, Y)` of
    /// random variables are those.
    pub(super) information: bool,
    /// `H`, `I` where read as entropy and mutual information.
    pub(super) measures: BTreeSet<String>,
    /// The letters of the laws the words give (`a`, `p`): numbers, never functions.
    pub(super) parameters: BTreeSet<String>,
    /// A union of events was read (`P(A \cup B)`): a claim false for general events may hold
    /// for mutually exclusive ones, which the words may assume.
    pub(super) unions: bool,
    /// A value with an index was read as the value of its own variable (`x_3` of X_3, see
    /// [`indexed_value_variable`]): the text may mean values of one variable X, so a claim that
    /// fails is not refuted.
    pub(super) indexed_values: bool,
    /// A function nobody specified is summed or integrated over a variable's values (`\int
    /// q(z) \ln p(x)\,dz`): it may be a distribution of that variable (∫q = 1), which the
    /// text may mean; a claim that fails with it any function is not refuted.
    pub(super) unknown_summed: bool,
    /// The parameters each probability is written given (`P(y, z \mid \theta)`: θ), sorted, one
    /// list per probability read, in order; see [`is_parameter`].
    pub(super) given_parameters: Vec<Vec<String>>,
    /// The parameters of the probability being read.
    pub(super) current_parameters: Vec<String>,
    /// Capital letters read as constants, not random variables (`C_1` of `E(C_1 X) = C_1 E(X)`,
    /// written outside every expectation too: a coefficient, or a variable?).
    pub(super) constant_capitals: BTreeSet<String>,
}

/// `\theta`, `\hat\Theta`, `\theta^{(i)}`, `\boldsymbol\theta_k`: a Greek letter, which in a
/// probability's event list (`P(y \mid \theta)`, `P(Z=k; \Theta)`) is a parameter the
/// distribution is given, not an event: the distribution is one of a family, the same one
/// wherever the claim writes the same parameters ([`super::check`] reads only such claims, and
/// only to verify).
pub(super) fn is_parameter(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => crate::syntax::is_greek_name(&s.name),
        ExprKind::Subscript { base, .. } => is_parameter(base),
        _ => false,
    }
}

pub(super) fn is_capital(key: &str) -> bool {
    key.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

/// `\bar A`, `\bar{A}_1` of a capital (the complement of the event): the capital's key.
fn complemented(term: &Expr) -> Option<String> {
    let (s, index) = match &term.kind {
        ExprKind::Symbol(s) => (s, None),
        ExprKind::Subscript { base, index } => match &base.kind {
            ExprKind::Symbol(s) => (s, Some(index)),
            _ => return None,
        },
        _ => return None,
    };
    if s.accents != [crate::syntax::ast::Accent::Bar] || s.style.is_some_and(|st| st != Style::Italic) {
        return None;
    }
    let plain = Expr::new(ExprKind::Symbol(crate::syntax::ast::Symbol { accents: Vec::new(), ..s.clone() }), term.span);
    let event = match index {
        None => plain,
        Some(index) => Expr::new(ExprKind::Subscript { base: Box::new(plain), index: index.clone() }, term.span),
    };
    let key = event.symbol_key()?;
    is_capital(&key).then_some(key)
}

/// The events a union joins: `A \cup B` (and `A\bigcup B`, which reads as A times a `\bigcup`
/// with no bounds); one term where there is no union.
fn union_terms(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Union, lhs, rhs } => [union_terms(lhs), union_terms(rhs)].concat(),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => match &rhs.kind {
            ExprKind::BigOp { op: BigOpKind::Union, lower: None, upper: None, body: Some(body), .. } => {
                [union_terms(lhs), union_terms(body)].concat()
            }
            _ => vec![e],
        },
        _ => vec![e],
    }
}

/// `AB`, `A_1A_2`, `A\bar B`: capitals (or their complements) side by side, nothing else.
fn events_side_by_side(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => events_side_by_side(lhs) && events_side_by_side(rhs),
        _ => {
            complemented(e).is_some()
                || e.symbol_key().is_some_and(|k| is_capital(&k)) && !matches!(e.kind, ExprKind::Fenced { .. })
        }
    }
}

/// `x_3`, `c_i`, `y_{ij}`: a small letter with a plain index, and the variable of the same
/// capital and index (`X_3`, `C_i`); `None` for anything else.
pub(super) fn indexed_value_variable(key: &str) -> Option<String> {
    let (letter, index) = key.split_once('_')?;
    let index = index.strip_prefix('{').and_then(|i| i.strip_suffix('}')).unwrap_or(index);
    let plain = !index.is_empty() && index.chars().all(|c| c.is_ascii_alphanumeric());
    (single_small(letter) && plain).then(|| format!("{}_{index}", letter.to_ascii_uppercase()))
}

pub(super) fn single_small(key: &str) -> bool {
    key.len() == 1 && key.chars().all(|c| c.is_ascii_lowercase())
}

/// The operator a symbol names before a bracket: E, Var, Cov (P is read as an application).
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Op {
    Expect,
    Var,
    Cov,
}

/// Does `e` name the expectation (`E`, `\mathbb{E}`, `\mathrm{E}`) before a bracket?
pub fn is_expectation_operator(e: &Expr) -> bool {
    op_of(e) == Some(Op::Expect)
}

pub(super) fn op_of(e: &Expr) -> Option<Op> {
    match &e.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.label.is_none() => match (s.name.as_str(), s.style) {
            ("E", None | Some(Style::Blackboard | Style::Roman)) => Some(Op::Expect),
            ("Var", _) => Some(Op::Var),
            ("Cov", _) => Some(Op::Cov),
            _ => None,
        },
        ExprKind::Text { text } => match text.trim() {
            "Var" => Some(Op::Var),
            "Cov" => Some(Op::Cov),
            "E" => Some(Op::Expect),
            _ => None,
        },
        ExprKind::Styled { operand, .. } => op_of(operand),
        _ => None,
    }
}

/// Does `e` write the letter `key` anywhere (`p` in `p(x)` or `p_X`)?
pub(super) fn mentions(e: &Expr, key: &str) -> bool {
    e.symbol_key().is_some_and(|k| k == key)
        || matches!(&e.kind, ExprKind::Symbol(s) if s.name == key)
        || e.children().any(|c| mentions(c, key))
}

pub(super) fn is_prob_symbol(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.accents.is_empty() && s.label.is_none()
        && matches!(s.name.as_str(), "P" | "p") && matches!(s.style, None | Some(Style::Roman | Style::Blackboard)))
}

impl Reader {
    pub(super) fn node(&mut self, e: &Expr) -> Read<Node> {
        use ExprKind::*;
        match &e.kind {
            Number { value } => value.parse().map(Node::Number).map_err(|_| Refused),
            Symbol(_) | Subscript { .. } => {
                // `E_x` with no bracket after it (`E_x E_y \{…\}`), `p_X` not applied: an
                // operator this reading does not take, never a letter.
                let operator_base = |b: &Expr| op_of(b).is_some() || is_prob_symbol(b);
                // (`p` the parameter of a law the words give is a number.)
                let parameter = e.symbol_key().is_some_and(|k| self.parameters.contains(&k));
                if !parameter && (operator_base(e) || matches!(&e.kind, Subscript { base, .. } if operator_base(base)))
                {
                    return Err(Refused);
                }
                let key = e.symbol_key().ok_or(Refused)?;
                if self.inside > 0 {
                    self.letters_inside.insert(key.clone());
                    if is_capital(&key) && !self.bound.contains(&key) && !self.constant_capitals.contains(&key) {
                        self.variables.insert(key.clone());
                    }
                } else {
                    self.letters_outside.insert(key.clone());
                }
                Ok(Node::Letter(key))
            }
            Neg { operand } => Ok(Node::Neg(Box::new(self.node(operand)?))),
            Binary { op: BinOp::Add, lhs, rhs } => Ok(Node::Add(Box::new(self.node(lhs)?), Box::new(self.node(rhs)?))),
            Binary { op: BinOp::Sub, lhs, rhs } => Ok(Node::Sub(Box::new(self.node(lhs)?), Box::new(self.node(rhs)?))),
            Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. } => {
                let mut factors = Vec::new();
                crate::syntax::pattern::flatten_product(e, &mut factors);
                self.product(&factors)
            }
            Binary { op: BinOp::Div, lhs, rhs } => Ok(Node::Div(Box::new(self.node(lhs)?), Box::new(self.node(rhs)?))),
            Frac { num, den } => Ok(Node::Div(Box::new(self.node(num)?), Box::new(self.node(den)?))),
            Power { base, exponent } => Ok(Node::Pow(Box::new(self.node(base)?), Box::new(self.node(exponent)?))),
            Sqrt { index: None, radicand } => Ok(Node::Sqrt(Box::new(self.node(radicand)?))),
            Abs { operand } => Ok(Node::Abs(Box::new(self.node(operand)?))),
            Fenced { inner: Some(inner), open, .. } if matches!(open.as_str(), "(" | "[" | "{") => {
                if matches!(inner.kind, Tuple { .. } | Relation { .. } | Statement { .. }) {
                    return Err(Refused);
                }
                self.node(inner)
            }
            Apply { func, args, .. } if func.sub.is_none() && func.sup.is_none() && func.primes == 0 => {
                match (func.name.as_str(), args.as_slice()) {
                    ("exp", [a]) => Ok(Node::Exp(Box::new(self.node(a)?))),
                    ("ln" | "log", [a]) => Ok(Node::Ln(Box::new(self.node(a)?))),
                    ("Pr", _) => self.probability(args),
                    ("Var", [a]) => self.variance(a),
                    ("Cov", [a, b]) => self.covariance(a, b),
                    ("E", [a]) => self.expectation(a),
                    _ => Err(Refused),
                }
            }
            Call { func, args, postfixed: false } => {
                if is_prob_symbol(func) {
                    return self.probability(args);
                }
                if let Some(variables) = density_variables(func) {
                    return self.density(&variables, args);
                }
                if let Some(measure) = self.information.then(|| self.information_measure(func, args)).flatten() {
                    return measure;
                }
                match (op_of(func), args.as_slice()) {
                    (Some(Op::Expect), [a]) => return self.expectation(a),
                    (Some(Op::Var), [a]) => return self.variance(a),
                    (Some(Op::Cov), [a, b]) => return self.covariance(a, b),
                    (Some(_), _) => return Err(Refused),
                    (None, _) => {}
                }
                // `a(1-2p)` with a a parameter of a law the words give: a product.
                if let (Some(key), [arg]) = (func.symbol_key().filter(|k| self.parameters.contains(k)), args.as_slice())
                {
                    let factor =
                        self.node(&Expr::new(ExprKind::Symbol(crate::syntax::ast::Symbol::plain(&key)), func.span))?;
                    return Ok(Node::Mul(Box::new(factor), Box::new(self.node(arg)?)));
                }
                // A function nobody specified (`f(x)` inside `E_{x\sim P}[f(x)]`).
                let key = func.symbol_key().filter(|k| single_small(k) && k != "p").ok_or(Refused)?;
                self.unknown.insert(key.clone());
                // (`\int q(z)\,dz`: summed over a variable's values, it may be its distribution.)
                if args.iter().any(|a| self.bound.iter().any(|b| mentions(a, b))) {
                    self.unknown_summed = true;
                }
                let args = args.iter().map(|a| self.node(a)).collect::<Read<Vec<_>>>()?;
                Ok(Node::Unknown(key, args))
            }
            BigOp { op: BigOpKind::Sum, lower: Some(lower), upper: None, body: Some(body) } => {
                let key = lower.symbol_key().filter(|k| single_small(k) || is_capital(k)).ok_or(Refused)?;
                let name = if is_capital(&key) {
                    self.variables.insert(key.clone());
                    own(&key)
                } else {
                    key
                };
                self.bound.push(name.clone());
                let body = self.node(body);
                self.bound.pop();
                Ok(Node::Over { value: name, body: Box::new(body?) })
            }
            // `\int P(Y) P(X\mid Y)\,dY`, `\int_{-\infty}^{\infty} p_{X, Y}(x, y)\,dy`,
            // `\int_x p(x) \log p(x)\,dx`: over all of a random variable's values (no limits,
            // the whole line, or the letter itself below) — on a discrete distribution, the sum
            // over them (said in the verdict).
            BigOp { op: BigOpKind::Int, lower, upper, body: Some(body) } => {
                let (Some(integrand), variables) = crate::syntax::ast::integrand_and_variables(body) else {
                    return Err(Refused);
                };
                let [variable] = variables.as_slice() else { return Err(Refused) };
                let key = variable.symbol_key().filter(|k| is_capital(k) || single_small(k)).ok_or(Refused)?;
                let limit = |l: &Option<Box<Expr>>| l.as_deref().map(crate::syntax::ast::infinite_limit);
                let everywhere = match (lower, upper) {
                    (None, None) => true,
                    (Some(_), Some(_)) => limit(lower) == Some(Some(false)) && limit(upper) == Some(Some(true)),
                    (Some(l), None) => l.symbol_key().as_deref() == Some(key.as_str()),
                    (None, Some(_)) => false,
                };
                if !everywhere {
                    return Err(Refused);
                }
                let name = if is_capital(&key) {
                    self.variables.insert(key.clone());
                    self.integrals.insert(key.clone());
                    own(&key)
                } else {
                    let variable = key.to_ascii_uppercase();
                    self.variables.insert(variable.clone());
                    self.integrals.insert(variable.clone());
                    self.pair(&key, &variable)?;
                    key
                };
                self.bound.push(name.clone());
                let body = self.node(integrand);
                self.bound.pop();
                Ok(Node::Over { value: name, body: Box::new(body?) })
            }
            _ => Err(Refused),
        }
    }

    /// A product's factors in order; an operator followed by its bracket is one factor.
    pub(super) fn product(&mut self, factors: &[&Expr]) -> Read<Node> {
        let mut out: Option<Node> = None;
        let mut i = 0;
        while i < factors.len() {
            let f = factors[i];
            let next = factors.get(i + 1);
            let operator =
                op_of(f).map(|op| (op, None)).or_else(|| expectation_subscript(f).map(|s| (Op::Expect, Some(s))));
            let node = match (operator, next) {
                // `\mathbb E X`, `\mathbb E X_t`: the expectation of the random variable written
                // right after it, without a bracket (not `\mathbb E X^2`, which may be either).
                (Some((Op::Expect, None)), Some(arg)) if bare_variable(arg) => {
                    i += 1;
                    self.expectation(arg)?
                }
                (Some((op, sub)), Some(arg)) => {
                    i += 1;
                    let (inner, power) = bracketed(arg).ok_or(Refused)?;
                    // `E[X - E(X)]^2`: the square of an expectation that is 0 whatever X is, or
                    // (as textbooks write the variance) the expectation of the square? Not read.
                    // (`E[X]^2` stays the square of E[X].)
                    if power.is_some() && writes_an_operator(inner) {
                        return Err(Refused);
                    }
                    let applied = match (op, sub) {
                        (Op::Expect, Some(Some(values))) => self.expectation_over(&values, inner)?,
                        (Op::Expect, _) => self.expectation(inner)?,
                        (Op::Var, None) => self.variance(inner)?,
                        (Op::Cov, None) => match &inner.kind {
                            ExprKind::Tuple { items, stacked: false } if items.len() == 2 => {
                                self.covariance(&items[0], &items[1])?
                            }
                            _ => return Err(Refused),
                        },
                        _ => return Err(Refused),
                    };
                    match power {
                        Some(p) => Node::Pow(Box::new(applied), Box::new(self.node(p)?)),
                        None => applied,
                    }
                }
                (Some(_), None) => return Err(Refused),
                // `\widehat{R}_Z\left(\mathcal F\right)`: a name with an accent or an index
                // right before a parenthesis applies a function as often as it multiplies.
                (None, Some(arg)) if applies_a_name(f, arg) => return Err(Refused),
                (None, _) => self.node(f)?,
            };
            out = Some(match out {
                None => node,
                Some(prev) => Node::Mul(Box::new(prev), Box::new(node)),
            });
            i += 1;
        }
        out.ok_or(Refused)
    }

    pub(super) fn expectation(&mut self, body: &Expr) -> Read<Node> {
        // `E(2)` is more likely a function E the notes use than an expectation of a number.
        if contains_mid(body) || !has_letter(body) {
            return Err(Refused);
        }
        self.operators += 1;
        self.inside += 1;
        let body = self.node(body);
        self.inside -= 1;
        Ok(Node::Expect(Box::new(body?)))
    }

    /// `E_{x\sim P}[body]`: Σ_x body · P(X = x); `E_{(x, y)\sim P}[body]`: Σ_x Σ_y body ·
    /// P(X = x, Y = y).
    pub(super) fn expectation_over(&mut self, values: &[(String, String)], body: &Expr) -> Read<Node> {
        self.operators += 1;
        for (value, variable) in values {
            self.variables.insert(variable.clone());
            self.pair(value, variable)?;
            self.bound.push(value.clone());
        }
        let read = self.node(body);
        self.bound.truncate(self.bound.len() - values.len());
        let events = values
            .iter()
            .map(|(value, variable)| Event {
                variable: variable.clone(),
                value: Val::Named(value.clone()),
                negated: false,
            })
            .collect();
        let weight = Node::Prob { events, given: vec![] };
        let mut node = Node::Mul(Box::new(read?), Box::new(weight));
        for (value, _) in values.iter().rev() {
            node = Node::Over { value: value.clone(), body: Box::new(node) };
        }
        Ok(node)
    }

    /// `p_X(x)`, `p_{X, Y}(x, y)`, `P_X(2)`: the probability that the subscript's variables take
    /// the values in the parenthesis, in order.
    pub(super) fn density(&mut self, variables: &[String], args: &[Expr]) -> Read<Node> {
        if self.inside > 0 || variables.len() != args.len() {
            return Err(Refused);
        }
        self.operators += 1;
        let mut events = Vec::new();
        for (variable, arg) in variables.iter().zip(args) {
            self.variables.insert(variable.clone());
            let value = self.value_of(arg, variable)?;
            events.push(Event { variable: variable.clone(), value, negated: false });
        }
        Ok(Node::Prob { events, given: vec![] })
    }

    /// `H(X)`, `H(X, Y)`, `H(Y \mid X)` (entropy) and `I(X, Y)` (mutual information, H(X) +
    /// H(Y) − H(X, Y)) of random variables; `None` for other arguments (`H(p)`, `I(s_i)`).
    pub(super) fn information_measure(&mut self, func: &Expr, args: &[Expr]) -> Option<Read<Node>> {
        let (name, of, given) = crate::syntax::ast::information_measure(func, args)?;
        self.operators += 1;
        self.measures.insert(name.clone());
        self.variables.extend(of.iter().chain(&given).cloned());
        let entropy = |of: &[String], given: &[String]| Node::Entropy { of: of.to_vec(), given: given.to_vec() };
        if name == "H" {
            return Some(Ok(entropy(&of, &given)));
        }
        let ([x, y], true) = (of.as_slice(), given.is_empty()) else { return Some(Err(Refused)) };
        let marginals =
            Node::Add(Box::new(entropy(std::slice::from_ref(x), &[])), Box::new(entropy(std::slice::from_ref(y), &[])));
        Some(Ok(Node::Sub(Box::new(marginals), Box::new(entropy(&of, &[])))))
    }

    pub(super) fn variance(&mut self, body: &Expr) -> Read<Node> {
        let x = self.expectation(body)?;
        let Node::Expect(inner) = x else { return Err(Refused) };
        let centred = Node::Sub(inner.clone(), Box::new(Node::Expect(inner)));
        Ok(Node::Expect(Box::new(Node::Pow(Box::new(centred), Box::new(Node::Number(2.0))))))
    }

    pub(super) fn covariance(&mut self, a: &Expr, b: &Expr) -> Read<Node> {
        let (Node::Expect(a), Node::Expect(b)) = (self.expectation(a)?, self.expectation(b)?) else {
            return Err(Refused);
        };
        let da = Node::Sub(a.clone(), Box::new(Node::Expect(a)));
        let db = Node::Sub(b.clone(), Box::new(Node::Expect(b)));
        Ok(Node::Expect(Box::new(Node::Mul(Box::new(da), Box::new(db)))))
    }

    pub(super) fn pair(&mut self, value: &str, variable: &str) -> Read<()> {
        match self.pairs.insert(value.to_string(), variable.to_string()) {
            Some(earlier) if earlier != variable => Err(Refused),
            _ => Ok(()),
        }
    }

    pub(super) fn probability(&mut self, args: &[Expr]) -> Read<Node> {
        if self.inside > 0 {
            return Err(Refused);
        }
        self.operators += 1;
        if let [arg] = args {
            if let Some(node) = self.union_probability(arg)? {
                return Ok(node);
            }
        }
        let mut read = Events::default();
        self.current_parameters.clear();
        for arg in args {
            self.events_of(arg, &mut read)?;
        }
        if read.events.is_empty() {
            return Err(Refused);
        }
        let mut parameters = std::mem::take(&mut self.current_parameters);
        parameters.sort();
        self.given_parameters.push(parameters);
        Ok(Node::Prob { events: read.events, given: read.given })
    }

    pub(super) fn events_of(&mut self, arg: &Expr, read: &mut Events) -> Read<()> {
        match &arg.kind {
            ExprKind::Relation { chain } => self.chain_events(chain, read),
            ExprKind::Statement { statement } => statement.chains.iter().try_for_each(|c| self.chain_events(c, read)),
            ExprKind::Tuple { items, stacked: false } => items.iter().try_for_each(|i| self.events_of(i, read)),
            // `P(AB)`, `P(A\bar B)`: events written side by side happen together.
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } if events_side_by_side(arg) => {
                self.events_of(lhs, read)?;
                self.events_of(rhs, read)
            }
            // `P(A - B)`: A happens and B does not (the difference of the events).
            ExprKind::Binary { op: BinOp::Sub, lhs, rhs }
                if events_side_by_side(lhs) && rhs.symbol_key().is_some_and(|k| is_capital(&k)) =>
            {
                self.events_of(lhs, read)?;
                let key = rhs.symbol_key().ok_or(Refused)?;
                self.variables.insert(key.clone());
                self.place(Event { variable: key.clone(), value: Val::Named(own(&key)), negated: true }, read);
                Ok(())
            }
            _ if is_parameter(arg) => {
                self.note_parameter(arg);
                Ok(())
            }
            _ => {
                let event = self.event_of(arg)?;
                self.place(event, read);
                Ok(())
            }
        }
    }

    /// `P(A \cup B)`, `P(A\bigcup B\bigcup C)`, `P(A \cup B \mid C)`: the probability of a union
    /// of events, by inclusion and exclusion (P(A) + P(B) − P(AB)); `None` where the argument is
    /// no union.
    fn union_probability(&mut self, arg: &Expr) -> Read<Option<Node>> {
        let (union, given) = match &arg.kind {
            ExprKind::Relation { chain } => match (chain.first.as_ref(), chain.links.as_slice()) {
                (Some(first), [link]) if link.op == RelOp::Mid => (first, Some(&link.rhs)),
                _ => return Ok(None),
            },
            _ => (arg, None),
        };
        let terms = union_terms(union);
        if terms.len() < 2 {
            return Ok(None);
        }
        if terms.len() > 4 {
            return Err(Refused);
        }
        self.unions = true;
        let mut total: Option<Node> = None;
        for subset in 1..(1u32 << terms.len()) {
            let mut read = Events::default();
            for (_, term) in terms.iter().enumerate().filter(|(k, _)| subset & (1 << k) != 0) {
                self.events_of(term, &mut read)?;
            }
            if let Some(given) = given {
                read.after_mid = true;
                self.events_of(given, &mut read)?;
            }
            let prob = Node::Prob { events: read.events, given: read.given };
            total = Some(match (total, subset.count_ones() % 2 == 1) {
                (None, true) => prob,
                (None, false) => Node::Neg(Box::new(prob)),
                (Some(sum), true) => Node::Add(Box::new(sum), Box::new(prob)),
                (Some(sum), false) => Node::Sub(Box::new(sum), Box::new(prob)),
            });
        }
        Ok(total)
    }

    /// `A = a`, `B \mid A = a`, `D_1 = 1`: events, the ones after `\mid` given.
    pub(super) fn chain_events(&mut self, chain: &Chain, read: &mut Events) -> Read<()> {
        let first = chain.first.as_ref().ok_or(Refused)?;
        let (mut pending, mut pending_bare) = self.opening_event(first, read)?;
        for link in &chain.links {
            match link.op {
                RelOp::Eq => {
                    let event = pending.as_mut().filter(|_| pending_bare).ok_or(Refused)?;
                    event.value = self.value_of(&link.rhs, &event.variable.clone())?;
                    pending_bare = false;
                }
                RelOp::Mid if !read.after_mid => {
                    if let Some(event) = pending.take() {
                        self.place(event, read);
                    }
                    read.after_mid = true;
                    (pending, pending_bare) = self.opening_event(&link.rhs, read)?;
                }
                _ => return Err(Refused),
            }
        }
        if let Some(event) = pending {
            self.place(event, read);
        }
        Ok(())
    }

    /// The event a side of `\mid` opens with, pending (`A`, which `= a` may still give a value),
    /// and whether it is a bare variable; events side by side (`P(AB \mid C)`, `P(C \mid AB)`)
    /// are read at once, and nothing is pending.
    fn opening_event(&mut self, e: &Expr, read: &mut Events) -> Read<(Option<Event>, bool)> {
        if events_side_by_side(e) && matches!(e.kind, ExprKind::Binary { .. }) {
            self.events_of(e, read)?;
            return Ok((None, false));
        }
        if is_parameter(e) {
            self.note_parameter(e);
            return Ok((None, false));
        }
        Ok((Some(self.event_of(e)?), is_capital(&e.symbol_key().unwrap_or_default())))
    }

    /// A parameter ([`is_parameter`]) the probability being read is given.
    fn note_parameter(&mut self, e: &Expr) {
        self.current_parameters.push(crate::syntax::print::explicit_tex(e, &|_| false));
    }

    /// An event read whole: a variable left to take its own value makes that value free
    /// (unless a sum binds it).
    pub(super) fn place(&mut self, event: Event, read: &mut Events) {
        if let Val::Named(name) = &event.value {
            if name.starts_with('=') {
                self.note_value(&name.clone(), &event.variable.clone());
            }
        }
        if read.after_mid {
            read.given.push(event);
        } else {
            read.events.push(event);
        }
    }

    /// `A` (the variable takes its own value), `x` (X takes the value x), `\bar A` (A takes
    /// another value than its own: the complement).
    pub(super) fn event_of(&mut self, term: &Expr) -> Read<Event> {
        if let Some(key) = complemented(term) {
            self.variables.insert(key.clone());
            return Ok(Event { variable: key.clone(), value: Val::Named(own(&key)), negated: true });
        }
        let key = term.symbol_key().ok_or(Refused)?;
        // (`\boldsymbol x`: the value of a random vector, one variable as any other; `\mathrm d`,
        // `\mathcal X` are no events.)
        if matches!(&term.kind, ExprKind::Symbol(s) if s.style.is_some_and(|s| !matches!(s, Style::Italic | Style::Bold)))
        {
            return Err(Refused);
        }
        if is_capital(&key) {
            self.variables.insert(key.clone());
            return Ok(Event { variable: key.clone(), value: Val::Named(own(&key)), negated: false });
        }
        if single_small(&key) {
            let variable = key.to_ascii_uppercase();
            self.variables.insert(variable.clone());
            self.pair(&key, &variable)?;
            self.note_value(&key, &variable);
            return Ok(Event { variable, value: Val::Named(key), negated: false });
        }
        // `P(x_3, x_4 \mid x_1)`, `P(c_i \mid \boldsymbol x)`: a value with an index, of the
        // variable with the capital and the same index (X_3 = x_3), unless the claim made it a
        // value of another (`X = x_i`). Which one the text means (X_3, or X taking the value
        // x_3) it does not say: only a verification is kept ([`Reader::indexed_values`]).
        if let Some(variable) = indexed_value_variable(&key) {
            let variable = self.pairs.get(&key).cloned().unwrap_or(variable);
            self.indexed_values = true;
            self.variables.insert(variable.clone());
            self.pair(&key, &variable)?;
            self.note_value(&key, &variable);
            return Ok(Event { variable, value: Val::Named(key), negated: false });
        }
        Err(Refused)
    }

    pub(super) fn value_of(&mut self, e: &Expr, variable: &str) -> Read<Val> {
        let number = match &e.kind {
            ExprKind::Number { value } => value.parse::<f64>().ok(),
            ExprKind::Neg { operand } => match &operand.kind {
                ExprKind::Number { value } => value.parse::<f64>().ok().map(|v| -v),
                _ => None,
            },
            _ => None,
        };
        if let Some(n) = number {
            let list = self.written.entry(variable.to_string()).or_default();
            if !list.contains(&n) {
                list.push(n);
            }
            return Ok(Val::Number(n));
        }
        // (`X = x_i`: a value with an index names a value of X.)
        let key = e.symbol_key().filter(|k| single_small(k) || indexed_value_variable(k).is_some()).ok_or(Refused)?;
        self.pair(&key, variable)?;
        self.note_value(&key, variable);
        Ok(Val::Named(key))
    }

    pub(super) fn note_value(&mut self, name: &str, variable: &str) {
        if !self.bound.iter().any(|b| b == name) {
            self.free.insert(name.to_string(), variable.to_string());
        }
    }
}

/// `E_{x \sim P}`: Some(Some([(x, X)])); `E_{(x, y) \sim P}`: Some(Some([(x, X), (y, Y)]));
/// `E_X`: Some(None).
pub(super) fn expectation_subscript(e: &Expr) -> Option<Option<Vec<(String, String)>>> {
    let ExprKind::Subscript { base, index } = &e.kind else { return None };
    if op_of(base) != Some(Op::Expect) {
        return None;
    }
    match &index.kind {
        ExprKind::Relation { chain } => {
            let first = chain.first.as_ref()?;
            let written = match &first.kind {
                ExprKind::Fenced { inner: Some(inner), open, .. } if open == "(" || open == "\\left(" => {
                    match &inner.kind {
                        ExprKind::Tuple { items, stacked: false } => items.iter().collect(),
                        _ => return None,
                    }
                }
                _ => vec![first],
            };
            let values: Vec<(String, String)> = written
                .iter()
                .map(|v| v.symbol_key().filter(|k| single_small(k)).map(|k| (k.clone(), k.to_ascii_uppercase())))
                .collect::<Option<_>>()?;
            let [link] = chain.links.as_slice() else { return None };
            (link.op == RelOp::Sim && is_prob_symbol(&link.rhs)).then_some(Some(values))
        }
        _ => index.symbol_key().filter(|k| is_capital(k)).map(|_| None),
    }
}

/// `p_X`, `p_{X, Y}`, `P_X`: the variables a density or mass function is of (capitals; not `p_\theta`).
pub(super) fn density_variables(func: &Expr) -> Option<Vec<String>> {
    crate::syntax::ast::density_variables(func).filter(|vs| vs.iter().all(|v| !matches!(v.as_str(), "P" | "Q")))
}

/// A random variable written alone (a capital, `X`, `X_t`, `X_{t+1}`), no power after it.
fn bare_variable(e: &Expr) -> bool {
    let capital = |k: &String| is_capital(k);
    match &e.kind {
        ExprKind::Symbol(_) => e.symbol_key().is_some_and(|k| capital(&k)),
        ExprKind::Subscript { base, .. } => base.symbol_key().is_some_and(|k| capital(&k)),
        _ => false,
    }
}

/// `C_1 E(X)`, `2X E[X]`: the capital letters written as factors of a product beside an
/// expectation (a variance, a covariance) — coefficients, or random variables?
pub(super) fn coefficient_capitals(e: &Expr, out: &mut BTreeSet<String>) {
    if let ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. } = &e.kind {
        let mut factors = Vec::new();
        crate::syntax::pattern::flatten_product(e, &mut factors);
        if factors.iter().any(|f| writes_an_operator(f)) {
            let capital = |f: &&&Expr| matches!(f.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. });
            out.extend(factors.iter().filter(capital).filter_map(|f| f.symbol_key()).filter(|k| is_capital(k)));
        }
        factors.iter().for_each(|f| coefficient_capitals(f, out));
        return;
    }
    e.children().for_each(|c| coefficient_capitals(c, out));
}

/// Does `e` write an expectation, a variance or a covariance?
fn writes_an_operator(e: &Expr) -> bool {
    op_of(e).is_some() || e.children().any(writes_an_operator)
}

/// The inside of `[…]`/`(…)` after an operator, and a power written after the bracket
/// (`E[X]^2`).
pub(super) fn bracketed(e: &Expr) -> Option<(&Expr, Option<&Expr>)> {
    match &e.kind {
        ExprKind::Fenced { inner: Some(inner), open, .. } if matches!(open.as_str(), "[" | "(") => Some((inner, None)),
        ExprKind::Power { base, exponent } => {
            bracketed(base).filter(|(_, p)| p.is_none()).map(|(i, _)| (i, Some(exponent.as_ref())))
        }
        _ => None,
    }
}

pub(super) fn has_letter(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Symbol(_)) || e.children().any(has_letter)
}

pub(super) fn contains_mid(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Relation { chain } if chain.links.iter().any(|l| l.op == RelOp::Mid) => true,
        _ => e.children().any(contains_mid),
    }
}

/// Is `e` an expectation, a variance, a covariance or a probability (`E[X]`,
/// `\sqrt{\mathrm{Var}(X)}`) as [`check`] reads them?
pub fn is_moment(e: &Expr) -> bool {
    let mut reader = Reader::default();
    reader.node(e).is_ok_and(|n| has_operator(&n))
}

/// A node made of entropies and numbers only.
pub(super) fn entropies_only(n: &Node) -> bool {
    match n {
        Node::Entropy { .. } | Node::Number(_) => true,
        Node::Neg(a) | Node::Exp(a) | Node::Ln(a) | Node::Sqrt(a) | Node::Abs(a) => entropies_only(a),
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Pow(a, b) => {
            entropies_only(a) && entropies_only(b)
        }
        _ => false,
    }
}

pub(super) fn has_operator(n: &Node) -> bool {
    match n {
        Node::Prob { .. } | Node::Expect(_) | Node::Entropy { .. } => true,
        Node::Number(_) | Node::Letter(_) => false,
        Node::Neg(a) | Node::Exp(a) | Node::Ln(a) | Node::Sqrt(a) | Node::Abs(a) => has_operator(a),
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Pow(a, b) => {
            has_operator(a) || has_operator(b)
        }
        Node::Unknown(_, args) => args.iter().any(has_operator),
        Node::Over { body, .. } => has_operator(body),
    }
}

/// `\widehat{R}_Z(\mathcal F)`, `f_\theta(x)`: a letter with an accent or an index
/// written right before a parenthesis (a function applied, or a product?).
fn applies_a_name(head: &Expr, next: &Expr) -> bool {
    let decorated = match &head.kind {
        ExprKind::Subscript { base, .. } => matches!(base.kind, ExprKind::Symbol(_)),
        ExprKind::Symbol(s) => !s.accents.is_empty(),
        _ => false,
    };
    let parenthesis = matches!(&next.kind, ExprKind::Fenced { open, .. } if open == "(" || open == "\\left(");
    decorated && parenthesis && head.span.end <= next.span.start && next.span.start - head.span.end <= 1
}
