//! The derivative spellings of the parser: differentials (`dx`, `\mathrm d\theta`, `d(uv)`),
//! derivative operators applied to what follows them, and Leibniz quotients (`\frac{df}{dx}`,
//! `\partial f/\partial x`). A child of [`super`]: it builds on the parser's tree helpers.

use super::*;

/// The style of `e` where it is the letter d alone (no accent, no label): `Some(None)` for an
/// italic d, `Some(Some(Style::Roman))` for `\mathrm d`; `None` for anything else.
fn d_letter(e: &Expr) -> Option<Option<Style>> {
    match &e.kind {
        ExprKind::Symbol(s) if s.name == "d" && s.accents.is_empty() && s.label.is_none() => Some(s.style),
        _ => None,
    }
}

/// `\mathrm{d}x`, `\mathrm d\theta`, `\mathrm{d}\mathbf x`: an upright d written right before a
/// letter is the differential of it, as `dx` is (an upright d names no letter in the notes
/// derivcheck reads: a dimension or a distance is written d in italics).
pub(super) fn roman_differentials(mut factors: Vec<(Option<BinOp>, Expr)>) -> Vec<(Option<BinOp>, Expr)> {
    let upright_d = |e: &Expr| d_letter(e) == Some(Some(Style::Roman));
    let letter = |e: &Expr| match &e.kind {
        ExprKind::Symbol(_) => true,
        ExprKind::Subscript { base, .. } => matches!(base.kind, ExprKind::Symbol(_)),
        _ => false,
    };
    let mut k = 0;
    while k + 1 < factors.len() {
        let juxtaposed = factors[k + 1].0.is_none_or(|op| op == BinOp::Implicit);
        if upright_d(&factors[k].1) && juxtaposed && letter(&factors[k + 1].1) {
            let (_, operand) = factors.remove(k + 1);
            let span = Span::new(factors[k].1.span.start, operand.span.end);
            factors[k].1 = Expr::new(ExprKind::Differential { operand: Box::new(operand) }, span);
        }
        k += 1;
    }
    factors
}

/// `\nabla` is 1, `\nabla^2` is 2; anything else `None`.
pub(super) fn nabla_power(e: &Expr) -> Option<u32> {
    let nabla = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if s.name == "nabla" && s.accents.is_empty());
    match &e.kind {
        _ if nabla(e) => Some(1),
        ExprKind::Power { base, exponent } if nabla(base) => match &exponent.kind {
            ExprKind::Number { value } if value == "2" => Some(2),
            _ => None,
        },
        _ => None,
    }
}

/// A derivative operator (`\frac{d}{dx}`, `\frac{\partial}{\partial w}`, `\nabla_w`) applies to the
/// rest of the product, like a big operator; a fraction of differentials (`\frac{\mathrm d f}{\mathrm
/// dx}`) is a derivative by itself.
pub(super) fn apply_derivative_operators(mut factors: Vec<(Option<BinOp>, Expr)>) -> Vec<(Option<BinOp>, Expr)> {
    let mut k = 0;
    while k < factors.len() {
        k += 1;
        let k = k - 1;
        let operator = match &factors[k].1.kind {
            ExprKind::Frac { num, den } => match derivative_fraction(num, den) {
                Some((kind, Some(of), wrt)) => {
                    let span = factors[k].1.span;
                    factors[k].1 = derivative(kind, of, wrt, span);
                    continue;
                }
                Some((kind, None, wrt)) => (kind, wrt),
                None => continue,
            },
            ExprKind::Subscript { base, index } if matches!(&base.kind, ExprKind::Symbol(s) if s.name == "nabla") => {
                (DerivativeKind::Gradient, (**index).clone())
            }
            // `\nabla f(\mathbf x)`, `\nabla f(\mathbf x)^\top`: the gradient of the application
            // after it (that factor only), by the argument the function is applied to.
            ExprKind::Symbol(_) | ExprKind::Power { .. }
                if nabla_power(&factors[k].1).is_some() && k + 1 < factors.len() =>
            {
                let hessian = nabla_power(&factors[k].1) == Some(2);
                // `\nabla f_i(\mathbf x)`: a subscripted head and its parenthesis are two factors.
                if let Some(gradient) = factors.get(k + 2).filter(|_| !hessian).and_then(|(op, arg)| {
                    let member = &factors[k + 1].1;
                    let subscripted = matches!(&member.kind, ExprKind::Subscript { base, .. } if matches!(base.kind, ExprKind::Symbol(_)));
                    let ExprKind::Fenced { open, inner: Some(inner), .. } = &arg.kind else { return None };
                    let juxtaposed = op.is_none_or(|op| op == BinOp::Implicit);
                    (subscripted && juxtaposed && open == "(" && inner.symbol_key().is_some()).then(|| {
                        let span = Span::new(factors[k].1.span.start, arg.span.end);
                        let applied = binary(BinOp::Implicit, member.clone(), arg.clone());
                        derivative(DerivativeKind::Gradient, applied, (**inner).clone(), span)
                    })
                }) {
                    factors[k].1 = gradient;
                    factors.drain(k + 1..k + 3);
                    continue;
                }
                let (call, transposed) = match &factors[k + 1].1.kind {
                    ExprKind::Transpose { operand } => (operand.as_ref().clone(), true),
                    _ => (factors[k + 1].1.clone(), false),
                };
                // (`\nabla \log f(x)`: a function every reader knows, of the application, by the
                // same argument.)
                let applied = |e: &Expr| match &e.kind {
                    ExprKind::Call { args, .. } => match args.as_slice() {
                        [arg] if arg.symbol_key().is_some() => Some(arg.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                let arg = match &call.kind {
                    ExprKind::Apply { func, args, .. }
                        if func.sub.is_none() && func.sup.is_none() && func.primes == 0 =>
                    {
                        match args.as_slice() {
                            [inner] => applied(inner),
                            _ => None,
                        }
                    }
                    _ => applied(&call),
                };
                let Some(arg) = arg else { continue };
                let span = Span::new(factors[k].1.span.start, factors[k + 1].1.span.end);
                let mut gradient = derivative(DerivativeKind::Gradient, call.clone(), arg.clone(), span);
                if hessian {
                    // `\nabla^2 f(\mathbf x)`: the gradient of the gradient, the Hessian.
                    gradient = derivative(DerivativeKind::Gradient, gradient, arg.clone(), span);
                }
                if transposed {
                    gradient = Expr::new(ExprKind::Transpose { operand: Box::new(gradient) }, span);
                }
                factors[k].1 = gradient;
                factors.remove(k + 1);
                continue;
            }
            // `\partial_{o_j} l`: the partial derivative by o_j.
            ExprKind::Subscript { base, index }
                if matches!(&base.kind, ExprKind::Partial { order: None, operand: None }) =>
            {
                (DerivativeKind::Partial, (**index).clone())
            }
            _ => continue,
        };
        if k + 1 == factors.len() {
            break; // an operator with nothing to apply to: left as written, refused later
        }
        let rest: Vec<(Option<BinOp>, Expr)> = factors.drain(k + 1..).collect();
        let mut rest = rest.into_iter();
        let first = rest.next().expect("checked: something follows").1;
        let of = rest.fold(first, |lhs, (op, rhs)| binary(op.unwrap_or(BinOp::Implicit), lhs, rhs));
        let span = Span::new(factors[k].1.span.start, of.span.end);
        factors[k].1 = derivative(operator.0, of, operator.1, span);
        break;
    }
    factors
}

pub(super) fn derivative(kind: DerivativeKind, of: Expr, wrt: Expr, span: Span) -> Expr {
    Expr::new(ExprKind::Derivative { kind, of: Box::new(of), wrt: Box::new(wrt) }, span)
}

/// `\partial L/\partial w`, `dL/dx`: a quotient of two differentials.
pub(super) fn derivative_quotient(lhs: &Expr, rhs: &Expr) -> Option<Expr> {
    let (kind, Some(of)) = differential_form(lhs)? else { return None };
    let (wrt_kind, Some(wrt)) = differential_form(rhs)? else { return None };
    (kind == wrt_kind).then(|| derivative(kind, of, wrt, Span::new(lhs.span.start, rhs.span.end)))
}

/// `\frac{∂f}{∂x}` -> (partial, Some(f), x); `\frac{d}{dx}` -> (total, None, x).
pub(super) fn derivative_fraction(num: &Expr, den: &Expr) -> Option<(DerivativeKind, Option<Expr>, Expr)> {
    let (den_kind, Some(wrt)) = differential_form(den)? else { return None };
    let (kind, of) = differential_form(num)?;
    (kind == den_kind).then_some((kind, of, wrt))
}

/// How an expression spells a differential: `∂f`, `∂` alone, `df`, `d` alone, `\mathrm d x`,
/// `\mathrm{d}(x^2)`.
pub(super) fn differential_form(e: &Expr) -> Option<(DerivativeKind, Option<Expr>)> {
    let is_d = |e: &Expr| matches!(d_letter(e), Some(None | Some(Style::Roman)));
    match &e.kind {
        ExprKind::Partial { order: None, operand } => Some((DerivativeKind::Partial, operand.as_deref().cloned())),
        ExprKind::Differential { operand } => Some((DerivativeKind::Total, Some((**operand).clone()))),
        _ if is_d(e) => Some((DerivativeKind::Total, None)),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } if is_d(lhs) => {
            Some((DerivativeKind::Total, Some((**rhs).clone())))
        }
        ExprKind::Call { func, args, .. } if is_d(func) && args.len() == 1 => {
            Some((DerivativeKind::Total, Some(args[0].clone())))
        }
        // `\partial \mathbf x^T \mathbf B \mathbf x`: the partial of everything after the ∂.
        ExprKind::Binary { op: BinOp::Implicit, .. } if opens_with_partial(e) => {
            Some((DerivativeKind::Partial, Some(after_differential(e)?)))
        }
        // `dF(t)`, `dPe^{rt}`: the differential of everything after the d (F(t), P e^{rt}).
        ExprKind::Binary { op: BinOp::Implicit, .. } => Some((DerivativeKind::Total, Some(after_differential(e)?))),
        _ => None,
    }
}

/// `d(uv) = u\,dv + v\,du`, `d(\sin x) = \cos x\,dx`: in a formula that writes differentials,
/// an italic `d` before one parenthesised argument is the differential of it, not a function d
/// nobody defined.
pub(super) fn differentials_of_groups(e: &mut Expr) {
    for child in e.children_mut() {
        differentials_of_groups(child);
    }
    let ExprKind::Call { func, args, postfixed: false } = &mut e.kind else { return };
    if d_letter(func) == Some(None) && args.len() == 1 {
        let operand = Box::new(args.pop().expect("one argument"));
        e.kind = ExprKind::Differential { operand };
    }
}

pub(super) fn holds_a_differential(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Differential { .. }) || e.children().any(holds_a_differential)
}

/// A product whose first factor is a partial with an operand (`\partial \mathbf x^T` then
/// `\mathbf B`, `\mathbf x`).
/// (Not `\partial x \partial y`, two partials.)
fn opens_with_partial(e: &Expr) -> bool {
    fn holds_a_partial(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Partial { .. }) || e.children().any(holds_a_partial)
    }
    match &e.kind {
        ExprKind::Partial { order: None, operand: Some(_) } => true,
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => !holds_a_partial(rhs) && opens_with_partial(lhs),
        _ => false,
    }
}

/// A product that opens with a differential (`dF` then `(t)`, `dP` then `e^{rt}`), as the
/// expression the differential is of: F(t) (a bare letter directly before a parenthesis is
/// applied), P e^{rt}; `None` for any other.
pub(super) fn after_differential(e: &Expr) -> Option<Expr> {
    match &e.kind {
        ExprKind::Differential { operand } => Some((**operand).clone()),
        ExprKind::Partial { order: None, operand: Some(operand) } => Some((**operand).clone()),
        // (Not `dx\,dy`, two differentials.)
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } if !holds_a_differential(rhs) => {
            let of = after_differential(lhs)?;
            if is_call(&of, rhs) {
                return Some(make_call(of, (**rhs).clone()));
            }
            let span = Span::new(of.span.start, rhs.span.end);
            Some(Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(of), rhs: rhs.clone() }, span))
        }
        _ => None,
    }
}
