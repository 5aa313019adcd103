//! What the section's words make of a claim, as facts: the values and meanings the paragraph
//! binds ([`ClaimReading`]), and what the words make of a link other than a claim
//! ([`WordsReading`]: a condition, an update step, a new value for instance). Which reading
//! follows from them is decided in `check::readings`, not here.

use super::builder::SectionBuilder;
use super::chains::{contains, mentions_key};
use super::claim::{ClaimReading, WordsReading, WordsRole};
use super::cues::Prose;
use super::distributions::Law;
use super::forms::{applied_to, collect_keys, has_free_letter, monomial_of, self_referent, update_step};
use super::roles;

use super::scope::Definition;
use crate::notes::Mark;
use crate::syntax::ast::{Chain, Expr, ExprKind};

impl<'a> SectionBuilder<'a> {
    /// The values and meanings given earlier in the prose that reach `block`.
    pub(super) fn reading_in(&self, block: Option<usize>) -> ClaimReading {
        let mut reading = ClaimReading::default();
        let Some(block) = block else { return reading };
        for given in self.bindings.given.iter().filter(|g| g.until.is_none_or(|until| block <= until)) {
            reading.overrides.retain(|d| d.key != given.definition.key);
            reading.overrides.push(given.definition.clone());
            if !given.tex.is_empty() {
                reading.given.push(given.tex.clone());
            }
        }
        reading
    }

    /// A relation the words let be with no letter on its left to define (`令 $t = 1/p, 1-t = 1/q$`,
    /// `令 $f'(x) = 0$`: supposed), or one the section stated as a condition before, written
    /// again (`e_1 = b_{1,1}ẽ_1 + b_{2,1}ẽ_2`, `按照(3)的写法`): a condition.
    fn supposed_or_restated(&self, lhs: &Expr, rhs: &Expr, prose: &Prose, link: usize) -> bool {
        if link == 0 && roles::lets(prose.lead) && !defines_a_letter(lhs) {
            return true;
        }
        let print = crate::syntax::print::expr;
        let restated =
            |(_, a): &(usize, crate::sema::Assumption)| (print(&a.lhs), print(&a.rhs)) == (print(lhs), print(rhs));
        !self.pinned && self.bindings.stated.iter().any(restated)
    }

    /// A link the words make a condition or an equation to solve (`where $A=A^\top$`, `solve
    /// $Av=\lambda v$`), or one that sets an expression of free letters equal to a number
    /// (`2x+y=1`, `\det(A-\lambda I)=0`) without words that assert it: if it is false as an
    /// identity, it is read as a condition.
    pub(super) fn condition_reading(
        &self,
        lhs: &Expr,
        rhs: &Expr,
        prose: &Prose,
        reading: &ClaimReading,
        link: usize,
        ends_in_constant: bool,
    ) -> Option<WordsReading> {
        let condition = || Some(WordsReading { role: WordsRole::Condition, symbol: None, earlier: None });
        let bound =
            |key: &str| reading.overrides.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false));
        // A size (`n` of `\sum_{k=1}^n`) is a number too: `x_n=\frac1n` sets a letter to one.
        let size = |key: &str| self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(key));
        let fixed = |key: &str| bound(key) || size(key);
        // `[0.7, 1.3]`: an interval of numbers is as fixed as a number.
        let constant = |e: &Expr| match &e.kind {
            // (`(x_1, x_2, x_3, x_4) = (8, 2, -1, 0)`: a point of numbers, as one number is.)
            ExprKind::Fenced { inner: Some(inner), .. }
                if roles::is_interval_like(e) || matches!(inner.kind, ExprKind::Tuple { .. }) =>
            {
                inner.children().all(|c| roles::is_constant(c, &fixed))
            }
            // (`P = \begin{bmatrix}\frac{5}{\sqrt{30}} & 0 \\ …\end{bmatrix}`: a matrix of numbers, as a number.)
            ExprKind::Matrix { .. } => roles::is_number_matrix(e),
            _ => roles::is_constant(e, &fixed),
        };
        let (l, r) = (constant(lhs), constant(rhs));
        // The words govern the chain's first link (`solve $\mathbf A\mathbf v=\lambda\mathbf v$`);
        // a later link between two expressions rewrites one into the other and is a claim
        // (`0=(2-\lambda)(3-\lambda)-2=(4-\lambda)(1-\lambda)`).
        if matches!(prose.cue, roles::Cue::Condition | roles::Cue::Solve) && (link == 0 || l || r) {
            return condition();
        }
        if self.supposed_or_restated(lhs, rhs, prose, link) {
            return condition();
        }
        if self.pinned {
            return None;
        }
        let sizes: Vec<String> = self.spec.as_ref().map(|s| s.sizes.keys().cloned().collect()).unwrap_or_default();
        // `a_{11}` of `\mathbf A = (a_{ij})` is a letter of its own until A is given a value or a
        // shape.
        let has_value = |m: &str| {
            self.bindings.defs.iter().any(|d| d.key == m)
                || self.bindings.given.iter().any(|g| g.definition.key == m)
                || self.letters.declared_matrices.iter().any(|k| k == m)
        };
        let names_unknown_entries = |d: &Definition| {
            d.params.len() == 2
                && matches!(&d.body.kind, ExprKind::Subscript { base, .. }
                    if base.symbol_key().is_some_and(|m| m != d.key && !has_value(&m)))
        };
        let defined = |k: &str| self.bindings.defs.iter().any(|d| d.key == k && !names_unknown_entries(d));
        let number = |k: &str| {
            bound(k)
                || self
                    .bindings
                    .defs
                    .iter()
                    .any(|d| d.key == k && d.params.is_empty() && matches!(d.body.kind, ExprKind::Number { .. }))
        };
        let given = |k: &str| {
            defined(k)
                || self.letters.index_letters.iter().any(|i| i == k)
                || sizes.iter().any(|n| n == k)
                || matches!(k, "\\pi" | "e" | "\\mathrm{e}")
                || bound(k)
        };
        let uses_defined = |e: &Expr| {
            self.bindings
                .defs
                .iter()
                .any(|d| !matches!(d.body.kind, ExprKind::Number { .. }) && mentions_key(e, &d.key))
        };
        if !l && !r {
            // `{e_1, e_2} 也可以由 {ẽ_1, ẽ_2} 的线性组合表示出来：$e_1 = b_{1,1}ẽ_1 + b_{2,1}ẽ_2$`,
            // `x can be written as $x = \sum_i c_i v_i$`: the words say such a combination exists;
            // its coefficients, letters nothing gives that one side brings in, are whatever makes
            // it so.
            let brings_in = {
                let (mut a, mut b) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
                collect_keys(lhs, &mut a);
                collect_keys(rhs, &mut b);
                a.symmetric_difference(&b).any(|k| !given(k))
            };
            if link == 0 && brings_in && roles::expresses_as(prose.lead) {
                return condition();
            }
            // `\mathbf A\mathbf x=\mathbf b`, `\mathbf P\mathbf v=\mathbf v`, `\mathbf S_b\mathbf
            // w=\lambda\mathbf S_w\mathbf w`, `\mathbf A\mathbf B=\mathbf B\mathbf A`: products of letters on
            // both sides, an unknown on both, read as an equation to solve (a linear system, a fixed
            // point, an eigenvector, matrices that commute) unless the words assert it.
            let matrices: Vec<String> =
                self.spec.as_ref().map(|s| s.matrix.keys().cloned().collect()).unwrap_or_default();
            let matrix =
                |e: &Expr| contains(e, &|x| roles::is_bold(x) || x.symbol_key().is_some_and(|k| matrices.contains(&k)));
            let any = |_: &str| true;
            let shared_unknown = {
                let (mut a, mut b) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
                collect_keys(lhs, &mut a);
                collect_keys(rhs, &mut b);
                a.intersection(&b).any(|k| !given(k))
            };
            let products = monomial_of(lhs, &any) && monomial_of(rhs, &any);
            // `(\boldsymbol\mu_0-\boldsymbol\mu_1)(\boldsymbol\mu_0-\boldsymbol\mu_1)^\top\mathbf w=\lambda\mathbf
            // S_w\mathbf w`: both sides a matrix times one unknown vector.
            let linear = {
                let mut keys = std::collections::BTreeSet::new();
                collect_keys(lhs, &mut keys);
                keys.iter().any(|u| !given(u) && applied_to(lhs, u) && applied_to(rhs, u))
            };
            if prose.cue != roles::Cue::Assert
                && (matrix(lhs) || matrix(rhs))
                && ((products && shared_unknown) || linear)
            {
                return condition();
            }
            // `\sum_i b_{ij}=\sum_j b_{ij}=0`: a chain that ends in a number constrains its free
            // letters; its links between expressions of them alone are part of the constraint.
            // (After a number it starts with, `0=(2-\lambda)(3-\lambda)-2=(4-\lambda)(1-\lambda)`,
            // the links rewrite the equation and are claims.)
            let free_only = |e: &Expr| has_free_letter(e, &given, &number) && !uses_defined(e);
            if ends_in_constant && free_only(lhs) && free_only(rhs) {
                return condition();
            }
            return None;
        }
        if l == r {
            return None;
        }
        // `2x+y=1`, `\sum_i\alpha_i=1`, `\det(\mathbf A-\lambda\mathbf I)=0` of a defined A: a number
        // against letters nothing defines is an equation to solve in them (or a constraint),
        // whatever the words. `\sum_i\hat x_i=0` of a defined x̂ is a claim when the words assert it
        // or say nothing: sums, functions and derivatives of defined letters are identities.
        let varying = if l { rhs } else { lhs };
        let identity_like = contains(varying, &|x| {
            matches!(x.kind, ExprKind::Apply { .. } | ExprKind::BigOp { .. } | ExprKind::Derivative { .. })
                && !matches!(&x.kind, ExprKind::Apply { func, .. } if func.name == "det")
        });
        if has_free_letter(varying, &given, &number) && (!identity_like || !uses_defined(varying)) {
            return condition();
        }
        None
    }

    /// The laws the words of this section give before the paragraph `block` (or in it).
    pub(super) fn laws_before(&self, block: Option<usize>) -> Vec<Law> {
        let Some(block) = block else { return Vec::new() };
        self.words.laws.iter().filter(|(end, _)| *end <= block).map(|(_, law)| law.clone()).collect()
    }

    /// The reading other than an identity that the text leaves open for link `k` of a chain
    /// (`prev` its left side, `rhs` its right), given `alternative`, the one its first link
    /// left open: a condition, a consequence, a substitution, a new value for instance, an
    /// equation in a letter, an update step.
    pub(super) fn link_alternative(
        &self,
        at: &LinkAt,
        reading: &ClaimReading,
        alternative: &Option<WordsReading>,
    ) -> Option<WordsReading> {
        let LinkAt { chain, first, prev, rhs, k, prose, ends_in_constant } = *at;
        match (alternative, prose) {
            (_, Some(prose)) if prose.marked_claim() => None,
            // Marked a binding, yet not one derivcheck could take: never a claim.
            (_, Some(prose)) if prose.mark == Some(Mark::Binding) => {
                Some(WordsReading { role: WordsRole::Condition, symbol: None, earlier: None })
            }
            (Some(other), _) if k == 0 => Some(other.clone()),
            (_, Some(_)) if k == 0 && !self.pinned && update_step(first, rhs).is_some() => {
                Some(WordsReading { role: WordsRole::Update, symbol: update_step(first, rhs), earlier: None })
            }
            (_, Some(prose)) => self
                .condition_reading(prev, rhs, prose, reading, k, ends_in_constant)
                .or_else(|| {
                    prose.after_condition.then_some(WordsReading {
                        role: WordsRole::Consequence,
                        symbol: None,
                        earlier: None,
                    })
                })
                .or_else(|| {
                    prose.substitutes.then_some(WordsReading {
                        role: WordsRole::Substitutes,
                        symbol: None,
                        earlier: None,
                    })
                })
                .or_else(|| {
                    // `例如 $\rho_0 = [0.9, 0.05, 0.05]$` after `设 $\rho_0 = [0.15, …]$`: a
                    // value the words give for instance replaces the earlier one.
                    let literal = k == 0 && prose.cue == roles::Cue::Define && roles::is_literal(rhs);
                    let key = first.symbol_key().filter(|_| literal && !self.pinned)?;
                    let earlier =
                        self.bindings.defs.iter().find(|d| d.key == key).map(Definition::written_at).or_else(|| {
                            self.bindings
                                .given
                                .iter()
                                .find(|g| g.definition.key == key)
                                .map(|g| g.definition.written_at())
                        })?;
                    Some(WordsReading { role: WordsRole::Redefinition, symbol: Some(key), earlier: Some(earlier) })
                })
                .or_else(|| {
                    // `p_1 = p_2 = 1` after `p_1 = 4/5`, `p_2 = 3/4`: letters set to one number
                    // in a new example; a later link too may give its letter a new value.
                    let exprs: Vec<&Expr> = chain.exprs().collect();
                    let (last, letters) = exprs.split_last()?;
                    let values = letters.len() > 1
                        && letters.iter().all(|e| roles::value_target(e).is_some())
                        && roles::is_constant(last, &|_| false);
                    let key = roles::value_target(prev).filter(|_| k > 0 && values && !self.pinned)?;
                    let earlier = self
                        .bindings
                        .defs
                        .iter()
                        .find(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
                        .map(Definition::written_at)?;
                    Some(WordsReading { role: WordsRole::Redefinition, symbol: Some(key), earlier: Some(earlier) })
                })
                .or_else(|| {
                    // `x = x^c`, `y = \sum_i d_i y_i^2`, `a_j = \sum_{i\ne j} x_i a_i` of letters
                    // the notes give no meaning, with no words that assert it: a new value
                    // of the letter from its old one, an equation in it, or a new meaning.
                    let symbol = self_referent(first, rhs)
                        .filter(|_| k == 0 && !self.pinned && prose.cue != roles::Cue::Assert)
                        .filter(|_| !self.has_meaning(first))?;
                    Some(WordsReading { role: WordsRole::SelfReferent, symbol: Some(symbol), earlier: None })
                }),
            _ => None,
        }
    }
}

/// A link of a chain as [`SectionBuilder::link_alternative`] reads it.
#[derive(Clone, Copy)]
pub(super) struct LinkAt<'c> {
    pub(super) chain: &'c Chain,
    /// The chain's first side.
    pub(super) first: &'c Expr,
    /// The link's left side (the side before it) and right side.
    pub(super) prev: &'c Expr,
    pub(super) rhs: &'c Expr,
    /// The link's place in the chain, from 0.
    pub(super) k: usize,
    pub(super) prose: &'c Option<Prose<'c>>,
    /// The chain ends in a constant (a number, or a letter bound to one).
    pub(super) ends_in_constant: bool,
}

/// Could `lhs` be what a definition defines (a letter, a member of a family, a function of its
/// arguments), rather than an expression (`1-t`, `f'(x)`, `\frac{\partial L}{\partial w}`)?
fn defines_a_letter(lhs: &Expr) -> bool {
    match &lhs.kind {
        ExprKind::Apply { func, .. } => func.primes == 0,
        ExprKind::Binary { .. }
        | ExprKind::Neg { .. }
        | ExprKind::Frac { .. }
        | ExprKind::Sqrt { .. }
        | ExprKind::BigOp { .. }
        | ExprKind::Partial { .. }
        | ExprKind::Derivative { .. }
        | ExprKind::Abs { .. }
        | ExprKind::Norm { .. } => false,
        // (`\epsilon^\prime`, a letter's new name; `y'` of a function of x, its derivative.)
        ExprKind::Prime { operand } => matches!(operand.kind, ExprKind::Symbol(_)),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::sema::claim::WordsRole;
    use crate::sema::testing::claim;

    fn role(body: &str, tex: &str) -> Option<WordsRole> {
        claim(body, tex).reading.alternative.map(|words| words.role)
    }

    #[test]
    fn an_equation_the_words_do_not_assert_is_a_condition() {
        assert_eq!(role("Solve $$Ax = b + x$$", "Ax = b + x"), Some(WordsRole::Condition));
        assert_eq!(role("$$2x + y = 1$$", "2x + y = 1"), Some(WordsRole::Condition));
        // Free letters on both sides, no constant: an identity, claimed.
        assert_eq!(role("$$a(b+c) = ab + ac$$", "a(b+c) = ab + ac"), None);
    }

    #[test]
    fn the_words_before_a_derivation_may_say_it_substitutes() {
        let body = "Substituting (3.4) into the loss gives $$a(b+c) = ab + ac$$";
        assert_eq!(role(body, "a(b+c) = ab + ac"), Some(WordsRole::Substitutes));
    }

    #[test]
    fn a_letter_used_again_on_its_right_or_defined_again_is_read_so() {
        let again = claim("$$x = x^c$$", "x = x^c").reading.alternative.expect("a reading");
        assert_eq!((again.role, again.symbol.as_deref()), (WordsRole::SelfReferent, Some("x")));
        let new = claim("Let $f(x) = x^2$.\n\nWe see $$f(x) = x^3 + 1$$", "f(x) = x^3 + 1").reading.alternative;
        let new = new.expect("a reading");
        assert_eq!(
            (new.role, new.symbol.as_deref(), new.earlier.as_deref()),
            (WordsRole::Redefinition, Some("f"), Some("3:5"))
        );
    }

    #[test]
    fn a_value_the_paragraph_binds_reaches_the_claim_after_it() {
        let bound = claim("For $x = 2$, we get $x^2 = 4$.", "x^2 = 4");
        assert_eq!(bound.reading.given, ["x=2"]);
        assert!(bound.reading.overrides.iter().any(|d| d.key == "x"));
        assert_eq!(bound.reading.alternative, None);
    }
}
