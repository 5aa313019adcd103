//! Bindings: every meaning the text gives a letter (definitions, bindings to values, example
//! definitions, recurrences, distributions) and the tests of whether a target can be defined.

use super::builder::{Given, Reach, SectionBuilder};
use super::chains::{mentions_key, writes_key};
use super::claim::{Origin, SpecProblem, WordsReading};
use super::cues::Prose;
use super::declarations;
use super::declarations::{entries_letter, own_entries_shape, vector_cells};
use super::distributions;
use super::forms::{names_a_builtin, value_is_number};
use super::recurrence;
use super::roles;

use super::scope::{Definition, FunctionKind};
use crate::notes::Mark;
use crate::spec::Spec;
use crate::syntax::ast::{Accent, BinOp, Chain, Expr, ExprKind, RelOp};
use crate::syntax::print;
use std::collections::BTreeSet;

impl<'a> SectionBuilder<'a> {
    /// `target \leftarrow body` or `target = body` read as a recurrence (see [`recurrence`]),
    /// recorded from here on.
    /// `replace`: an update rule (`\leftarrow`) always takes effect; an equation does not
    /// replace a recurrence of this section (it restates it, and is a claim).
    pub(super) fn add_recurrence(&mut self, target: &Expr, body: &Expr, line: usize, replace: bool) -> bool {
        let written = format!(
            "`{} \\leftarrow {}` ({}:{line})",
            print::explicit_tex(target, &|_| false),
            print::explicit_tex(body, &|_| false),
            self.chapter.doc.path,
        );
        let Some(mut found) = recurrence::read(target, body, written) else { return false };
        if !replace && self.bindings.recurrences.iter().any(|o| o.key == found.key && o.section == self.number) {
            return false;
        }
        // `\alpha_t = \alpha_0 + s_t` earlier in the section: the sequence has its meaning, and
        // `\alpha_{t+1} = \alpha_t + y_{t+1}` says something about it (a claim), as an equation
        // restating a recurrence does.
        let term_key = format!("{}_{}", found.key, found.step);
        let defined_here = |key: &str| key == found.key || key == term_key;
        let has_meaning = self.bindings.defs.iter().any(|d| !d.inherited && defined_here(&d.key))
            || self.bindings.given.iter().any(|g| defined_here(&g.definition.key));
        if !replace && has_meaning {
            return false;
        }
        found.section = self.number.clone();
        self.bindings.recurrences.retain(|r| r.key != found.key);
        self.bindings.recurrences.push(found);
        self.bindings.definitions_made += 1;
        true
    }

    /// `X \sim \mathrm{Bernoulli}(p)`: `\mu_X` and `\sigma_X` mean X's mean and standard
    /// deviation from here to the end of the section (a later statement about X replaces them;
    /// the sections after do not inherit them), so `\sigma_X^2 = p(1-p)` is a claim about them.
    /// Not where a spec entry pins the section's letters.
    pub(super) fn add_distribution(&mut self, named: &distributions::NamedDistribution, origin: &str) {
        if self.pinned {
            return;
        }
        let plain = |e: &Expr| print::explicit_tex(e, &|_| false);
        let mut keys = Vec::new();
        let mut meanings = Vec::new();
        for (letter, value) in named.moment_letters() {
            let Some(key) = letter.symbol_key() else { continue };
            self.bindings.defs.retain(|d| d.key != key);
            meanings.push(format!("{} = {}", plain(&letter), plain(&value)));
            self.record(notes_definition(key.clone(), Vec::new(), &value, origin, false, true));
            self.bindings.moments_given.insert(key.clone());
            keys.push(key);
        }
        // `p(x)` of an earlier section is not this section's parameter p.
        let parameters = named.parameters();
        self.bindings.defs.retain(|d| !(d.inherited && parameters.contains(&d.key)));
        self.letters.parameters.extend(parameters);
        if keys.is_empty() {
            return;
        }
        self.bindings.distributions.retain(|(earlier, _)| !earlier.iter().any(|k| keys.contains(k)));
        let args: Vec<String> = named.args.iter().map(plain).collect();
        let tex = format!(
            "{} \\sim \\mathrm{{{}}}({}):\\ {}",
            plain(&named.variable),
            named.name,
            args.join(", "),
            meanings.join(",\\ ")
        );
        self.bindings.distributions.push((keys, tex));
    }

    /// `x=10`, `\mathbf v_0=\mathbf s_0=0`, `d=28^2=784`: letters given a value (a number, or
    /// arithmetic of numbers) by the first links of the chain. A letter new to the section is
    /// defined by it, as before; one that already has a meaning gets the value for this block and
    /// the next (a binding). Gives how many links it took; `None` when the chain is no binding
    /// (the words ask to solve, a letter is an entry of something known, or it already has a
    /// value of its own: `c=5` then `c=6` is a claim).
    pub(super) fn binding(&mut self, chain: &Chain, prose: &Prose, origin: &str) -> Option<usize> {
        let solve = prose.cue == roles::Cue::Solve && prose.mark != Some(Mark::Binding);
        // `if and only if $x = 0$`, `当且仅当 $x = 0$ 时`: a condition, never a value.
        let iff = roles::is_if_and_only_if(prose.lead) && prose.mark != Some(Mark::Binding);
        if solve || iff || chain.links.iter().any(|l| !matches!(l.op, RelOp::Eq | RelOp::Define)) {
            return None;
        }
        let exprs: Vec<&Expr> = chain.exprs().collect();
        // A letter with a number in force (a binding, or a section definition by a number) is
        // itself a number: after `\epsilon = 10^{-7}`, `\epsilon^2 = 10^{-13}` is a claim.
        let bound = |key: &str| {
            self.bound_at(key, prose.block)
                || self.bindings.defs.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
        };
        // (Words that choose the value, `取自由变量为$x_3=1$`, `let $c=6$`, set it anew: the letter
        // is given it whatever it held before, and an entry of a known matrix is set for the
        // example at hand, never claimed.)
        let chosen = prose.chooses() && chain.links.len() == 1;
        let at = match exprs.iter().position(|e| roles::is_constant(e, &bound))? {
            0 if chosen && roles::is_constant(exprs[1], &|_| false) => 1,
            0 => return None,
            at => at,
        };
        let mut targets = Vec::new();
        for e in &exprs[..at] {
            let key = roles::value_target(e)?;
            // (Euler's number is given no value: see `try_define`.)
            if self.euler_number(&key, exprs[at]) {
                return None;
            }
            // `x_k=1` with k an index: one member of a family set (a condition), not every one.
            if self.definable(e).is_some_and(|(_, params)| !params.is_empty()) {
                return None;
            }
            // An entry of a declared or defined matrix (`x_j=5`, `Z_1=7`) is a claim about it.
            let plain = matches!(e.kind, ExprKind::Power { .. }) || self.definable(e).is_some();
            let own_value = self.bindings.defs.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false));
            if self.letters.index_letters.contains(&key) {
                return None;
            }
            // (A chosen value of an entry of a known matrix: no claim, and no value given, the
            // example's other entries being unknown. A letter with a value of its own is given
            // the chosen one.)
            if !plain && chosen && value_is_number(exprs[at]) {
                continue;
            }
            if !plain || (own_value && !chosen) {
                return None;
            }
            targets.push((key, *e));
        }
        let value = exprs[at];
        for (key, target) in targets {
            // `\mathbf w \in \mathbb R^d`, then `w = 2`: a number is no value of a vector, and
            // a binding never changes a declared shape; the letter stays general.
            if self.declared_not_scalar(&key) && value_is_number(value) {
                continue;
            }
            let written =
                format!("{}={}", print::explicit_tex(target, &|_| false), print::explicit_tex(value, &|_| false));
            let definition = notes_definition(key.clone(), Vec::new(), value, origin, false, true);
            let new = !self.letters.known.contains(&key) && !self.bindings.defs.iter().any(|d| d.key == key);
            // A value given under a condition (`if $x = 10$`) holds where the words say, not for
            // the whole section.
            if new && at == 1 && !prose.conditional() && !prose.point && !matches!(target.kind, ExprKind::Power { .. })
            {
                self.record(definition);
            } else if !matches!(target.kind, ExprKind::Power { .. }) {
                self.bindings.given.push(Given {
                    definition,
                    until: Some(prose.given_until()),
                    tex: written,
                    example: false,
                });
            }
        }
        Some(at)
    }

    /// Does the spec or this section's words declare `key` a vector or matrix? (Another
    /// section's `\mathbf x \in \mathbb R^d` speaks of its own x.)
    pub(super) fn declared_not_scalar(&self, key: &str) -> bool {
        let not_scalar = |rows: &str, cols: &str| !(rows == "1" && cols == "1");
        // (The section's spec holds shapes other sections' words declare too: only an entry
        // the spec file gives this section is its own.)
        let by_spec = self.pinned
            && self.spec.as_ref().is_some_and(|spec| {
                spec.matrix
                    .get(key)
                    .or_else(|| spec.family.get(key))
                    .is_some_and(|s| not_scalar(&s.get_ref().rows, &s.get_ref().cols))
            });
        by_spec
            || self
                .letters
                .notes_shapes
                .iter()
                .any(|(k, [rows, cols], section)| k == key && *section == self.number && not_scalar(rows, cols))
    }

    /// A definition under words of condition (`for $f(x)=\frac12x^2$ we have …`, `对于$f(x)=…$`,
    /// `if $g(x)=x^3$, then …`), or a letter's value at a point the words name (`attained at
    /// $x=\mu$`): under a condition it holds for its sentence and the next paragraph only (at a
    /// point, for its own paragraph only), like a binding, and neither defines the letter for the
    /// section nor is checked against an earlier meaning. Not where a spec entry pins the section's letters.
    pub(super) fn conditional_definition(&mut self, target: &Expr, body: &Expr, prose: &Prose, origin: &str) -> bool {
        if !(prose.conditional() || prose.point) || self.pinned {
            return false;
        }
        let (key, params, function) = match self.function_target(target) {
            // (`look at $f(x) = x^2$`: a function is no point.)
            Some(_) if !prose.conditional() => return false,
            Some((key, params)) => (key, params, true),
            // `if $x_k=1$`: one member of the family, not a definition of all of them.
            None => match self.definable(target) {
                Some((key, params)) if params.is_empty() && !self.euler_number(&key, body) => (key, params, false),
                _ => return false,
            },
        };
        let declared = self.letters.known.contains(&key) && !self.bindings.defs.iter().any(|d| d.key == key);
        if declared || mentions_key(body, &key) || self.letters.index_letters.contains(&key) {
            return false;
        }
        let tex = format!(
            "{}={}",
            print::explicit_tex(target, &|k| function && k == key),
            print::explicit_tex(body, &|_| false)
        );
        let definition = notes_definition(key, params, body, origin, function, true);
        self.bindings.given.push(Given { definition, until: Some(prose.given_until()), tex, example: false });
        true
    }

    /// `we set … $\gamma$ to 0.9`: a lone letter the words after it give a number is bound to it
    /// for this paragraph and the next, as `$\gamma=0.9$` would be.
    pub(super) fn binding_in_words(&mut self, chain: &Chain, site: &crate::notes::FormulaSite) -> bool {
        let Some(target) = &chain.first else { return false };
        let (Some(key), Some(value)) = (roles::value_target(target), roles::value_in_words(&site.trail)) else {
            return false;
        };
        let plain = self.definable(target).is_some() && !matches!(target.kind, ExprKind::Power { .. });
        if !plain || self.letters.index_letters.contains(&key) || (self.pinned && self.letters.known.contains(&key)) {
            return false;
        }
        let body = Expr::new(ExprKind::Number { value: value.clone() }, target.span);
        let tex = format!("{}={value}", print::explicit_tex(target, &|_| false));
        let origin = format!("{}:{}:{}", self.chapter.doc.path, site.line, site.col);
        let definition = notes_definition(key, Vec::new(), &body, &origin, false, true);
        self.bindings.given.push(Given { definition, until: Some(site.block + 1), tex, example: false });
        true
    }

    /// Is `key` given a number here (a binding in force in `block`)?
    pub(super) fn bound_at(&self, key: &str, block: usize) -> bool {
        self.bindings.given.iter().any(|g| {
            g.definition.key == key
                && (g.until.is_some_and(|until| block <= until) || g.open_example())
                && roles::is_constant(&g.definition.body, &|_| false)
        })
    }

    /// Does the formula written at `origin` (`path:line:col`) open an enumerated item of the
    /// notes: only an enumerator before it on its line ([`roles::opens_item`])?
    fn opens_item(&self, origin: &str) -> bool {
        let Some((line, col)) = super::scope::position_in(origin) else { return false };
        let source = &self.chapter.doc.source;
        self.chapter.doc.formulas.iter().find(|s| s.line == line && s.col == col).is_some_and(|site| {
            let before = source.get(..site.tex_range.start).unwrap_or_default();
            let line_start = before.rfind('\n').map_or(0, |at| at + 1);
            roles::opens_item(before[line_start..].trim_end_matches('$'))
        })
    }

    /// A definition of a letter that already has a meaning (`f(x)=\exp(x)` after another f,
    /// `\mathbf A=\begin{bmatrix}…` after another A). With a value written out, or words that
    /// define (`the function`, `take`, `设`), it is an example: the letter means this from here
    /// on (`Ok`). Otherwise the claim about the old meaning stands, with this reading as its
    /// alternative (`Err`). `None`: not definition-shaped, or the letter is new.
    pub(super) fn example_definition(
        &mut self,
        target: &Expr,
        body: &Expr,
        prose: &Prose,
        origin: &str,
    ) -> Option<Result<(), WordsReading>> {
        let (key, params, function) = match self.function_target(target) {
            Some((key, params)) => (key, params, true),
            None => {
                let (key, params) = self.definable(target)?;
                (key, params, false)
            }
        };
        let example_given = self.bindings.given.iter().filter(|g| g.open_example()).map(|g| &g.definition);
        let Some(earlier) = self.bindings.defs.iter().chain(example_given).find(|d| d.key == key) else {
            // `A=\begin{bmatrix}5&4\\5&5\end{bmatrix}` of an A the notes only declared (`A \in
            // \mathbb R^{m\times n}`): a general matrix is equal to no matrix of numbers, so the
            // numbers are an example's value for it, not a claim.
            let declared = self.letters.notes_shapes.iter().any(|(k, _, _)| *k == key);
            if !(declared && roles::is_number_matrix(body) && params.is_empty() && !function && !self.pinned) {
                return None;
            }
            let definition = notes_definition(key, params, body, origin, false, false);
            self.bindings.given.retain(|g| g.definition.key != definition.key);
            self.bindings.given.push(Given { definition, until: None, tex: String::new(), example: false });
            return Some(Ok(()));
        };
        let earlier_at = earlier.written_at();
        // `(1) $y=c$ … (2) $y=x^\alpha$ ${y}'=…$`: items of one list, each defining the letter
        // afresh, are parallel cases.
        let parallel_items = self.opens_item(origin) && self.opens_item(&earlier.origin);
        // `\mu_X = 2\mu` after `X \sim \mathcal N(\mu, \sigma^2)`: the distribution settles
        // what the letter means; it is a claim about it.
        let by_distribution = self.bindings.distributions.iter().any(|(keys, _)| keys.contains(&key));
        if mentions_key(body, &key) || by_distribution {
            return None;
        }
        // A spec entry for the section pins what its letters mean: only a value written out
        // gives one a new meaning there.
        // `g(z)=0.5` (when z = 0) of a function whose body depends on z: its value at a point,
        // a claim or a condition, unless the words define or the items run parallel.
        let defines = (prose.cue == roles::Cue::Define || parallel_items) && !self.pinned;
        if function && varies_with_its_arguments(earlier) && roles::is_constant(body, &|_| false) && !defines {
            return None;
        }
        if roles::is_literal(body) || defines {
            let definition = notes_definition(key, params, body, origin, function, false);
            self.bindings.given.retain(|g| g.definition.key != definition.key);
            self.bindings.given.push(Given { definition, until: None, tex: String::new(), example: false });
            return Some(Ok(()));
        }
        if self.pinned {
            return None;
        }
        Some(Err(WordsReading {
            role: super::claim::WordsRole::Redefinition,
            symbol: Some(key),
            earlier: Some(earlier_at),
        }))
    }

    /// The letter of `e` (or of its family, `m` of `m_t`) is defined, declared or updated by a
    /// recurrence in the section.
    pub(super) fn has_meaning(&self, e: &Expr) -> bool {
        // (A shape read off use, or declared in another section, is no meaning this section
        // gives.)
        let shaped =
            |k: &String| self.letters.notes_shapes.iter().any(|(key, _, section)| key == k && *section == self.number);
        self.has_value(e) || keys_of_letter(e).iter().any(shaped)
    }

    /// Does `e` (a letter, or a member of one) have a value here: a definition, a recurrence, a
    /// declared function? A shape alone is none.
    pub(super) fn has_value(&self, e: &Expr) -> bool {
        keys_of_letter(e).iter().any(|k| {
            self.letters.declared_functions.iter().any(|(key, _)| key == k)
                || self.bindings.defs.iter().any(|d| d.key == *k)
                || self.bindings.recurrences.iter().any(|r| r.key == *k)
        })
    }

    /// `H(X)`, `I(X, Y)` in notes that speak of entropy (the entropy or mutual information of
    /// random variables), `p_X(x)` (the mass function of X): the notes do not define them.
    pub(super) fn not_definable(&self, target: &Expr) -> bool {
        (self.chapter.information && crate::syntax::ast::names_information_measure(target))
            || crate::syntax::ast::names_density(target)
    }

    /// The key of the name `target` introduces, where it is a letter (`\mu_X`, `\tilde\theta`) or
    /// a letter or named operator applied (`\textrm{MSE}(…)`, `\pi_1(h_1)`) that no formula of the
    /// section wrote before and nothing gives a meaning; `None` otherwise.
    pub(super) fn fresh_name(&self, target: &Expr) -> Option<String> {
        let key = match &target.kind {
            ExprKind::Symbol(_) | ExprKind::Subscript { .. } => target.symbol_key()?,
            ExprKind::Apply { func, .. } if crate::syntax::ast::PROBABILITY_OPERATORS.contains(&func.name.as_str()) => {
                return None
            }
            _ if names_a_builtin(target) || self.not_definable(target) => return None,
            _ => crate::syntax::ast::applied_function(target)?.0,
        };
        let letters = NEVER_NEW;
        // (`\bar U = h^\top \bar\ell`: a bar is an adjoint, or a mean, whose equation is a claim.)
        let barred = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if s.accents.contains(&Accent::Bar));
        let taken = self.pinned
            || barred(target)
            || matches!(&target.kind, ExprKind::Subscript { base, .. } if barred(base))
            || self.letters.written.contains(&key)
            || self.letters.known.contains(&key)
            || self.has_meaning(target)
            || self.letters.index_letters.contains(&key)
            || letters.contains(&key.as_str());
        (!taken).then_some(key)
    }

    /// Does `body` write `key`, itself or through the definitions of the plain letters it writes
    /// (not families, whose members may be a recursion's earlier steps)?
    fn reaches_through_definitions(&self, body: &Expr, key: &str) -> bool {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut todo: Vec<&Expr> = vec![body];
        while let Some(e) = todo.pop() {
            if mentions_key(e, key) {
                return true;
            }
            for d in self.bindings.defs.iter().filter(|d| d.params.is_empty() && !d.function) {
                if !seen.contains(&d.key) && mentions_key(e, &d.key) {
                    seen.insert(d.key.clone());
                    todo.push(&d.body);
                }
            }
        }
        false
    }

    /// Is `key` Euler's number set equal to `value`, in notes that write `e^x`
    /// ([`super::cues::writes_euler_powers`])? Only where the value is a number (no letter but
    /// bound ones: `\lim_{n\to\infty}(1+\frac1n)^n`, `2.71828`); `e = y - \hat y` names a letter.
    pub(super) fn euler_number(&self, key: &str, value: &Expr) -> bool {
        self.chapter.euler && matches!(key, "e" | "\\mathrm{e}") && !has_free_letter(value, &mut Vec::new())
    }

    /// Does the worked example open here give `key` a meaning?
    pub(super) fn example_gives(&self, key: &str) -> bool {
        self.bindings.given.iter().any(|g| g.open_example() && g.definition.key == key)
    }

    /// `\mathbf A = \begin{bmatrix} a_{11} & \cdots \\ \vdots & \ddots \end{bmatrix}`: a_{ij} is entry
    /// (i, j) of A, where the letter a has no meaning yet.
    pub(super) fn define_pictured_entries(&mut self, target: &Expr, body: &Expr, origin: &str) {
        let Some((_, _, (letter, params, index))) = declarations::picture_entries(target, body) else { return };
        // (`\mathbf a_i^\top` beside `a_{ij}`: the rows are another object by the same letter,
        // which one reading of `a` cannot serve.)
        if self.bindings.defs.iter().any(|d| d.key == letter)
            || self.letters.known.contains(&letter)
            || self.words.vector_families.contains(&letter)
        {
            return;
        }
        let entry =
            Expr::new(ExprKind::Subscript { base: Box::new(target.clone()), index: Box::new(index) }, body.span);
        self.record(notes_definition(letter, params, &entry, origin, false, false));
    }

    /// Records `target = body` as a definition if the target is a new symbol of this section
    /// (or a function `σ(z)`), and the body does not use it (`x = x + 1` is a claim).
    pub(super) fn try_define(&mut self, target: &Expr, body: &Expr, origin: &str, from_notes: bool) -> bool {
        // `p(x) = \begin{cases} 1 & x \in [0,1] \\ 0 & \textrm{otherwise} \end{cases}` in notes about
        // random variables: the density of one example; later sections speak of other ones.
        let probabilistic = self.chapter.probabilistic;
        let example_density = |key: &str, function: bool| function && matches!(key, "p" | "P") && probabilistic;
        let new = |key: String, params: Vec<String>, function: bool| Definition {
            section_only: example_density(&key, function),
            key,
            params,
            body: body.clone(),
            origin: origin.to_string(),
            from_notes,
            function,
            inherited: false,
        };
        // `\mathbf A = (a_{ij})`: a_{ij} is entry (i, j) of A, whatever A turns out to be.
        if let Some((letter, params, index)) = entries_letter(target, body) {
            if self.bindings.defs.iter().any(|d| d.key == letter) || self.letters.known.contains(&letter) {
                return false;
            }
            let entry =
                Expr::new(ExprKind::Subscript { base: Box::new(target.clone()), index: Box::new(index) }, body.span);
            self.record(Definition { body: entry, ..new(letter, params, false) });
            return true;
        }
        if let Some((key, params)) = self.function_target(target) {
            let declared = self.letters.declared_functions.iter().find(|(k, _)| *k == key).map(|(_, kind)| *kind);
            let taken = self.bindings.defs.iter().any(|d| d.key == key)
                || self.example_gives(&key)
                || (self.letters.known.contains(&key) && declared.is_none());
            // `p(x)=0`, `\textrm{Var}(X)=0`: a constant that uses no argument is an equation (a
            // root, a case), not the definition of a constant function.
            let constant = from_notes && roles::is_constant(body, &|_| false);
            // `\sigma(X)=\frac{1}{1+e^{-x}}`: a body that never uses the argument but writes it in
            // the other case is no function of what it is applied to as written; which letter is
            // meant is the author's to say, so the formula defines nothing.
            let other_case = from_notes
                && params.iter().all(|p| {
                    !mentions_key(body, p) && other_case_letter(p).is_some_and(|other| mentions_key(body, &other))
                });
            if taken || constant || other_case || mentions_key(body, &key) {
                return false;
            }
            if declared == Some(FunctionKind::Rotation) {
                self.inconsistent_function(&key);
            }
            self.record(new(key, params, true));
            return true;
        }
        let Some((key, params)) = self.definable(target) else { return false };
        // `e = \lim_{n\to\infty}(1+\frac1n)^n`, `e \approx 2.71828` in notes that write `e^x`: a
        // claim about Euler's number, not a letter given a value.
        if params.is_empty() && self.euler_number(&key, body) {
            return false;
        }
        // (A family the words give no index range is the section's: the next one may write
        // y for something else.)
        let (key, params, family) = match self.family_by_free_index(target, body) {
            Some((key, letters)) if params.is_empty() && from_notes => (key, letters, true),
            _ => (key, params, false),
        };
        // `A = (a_{ij})` with a_{ij} read as A's entries: A named with its entries, no value.
        if declarations::names_own_entries(&key, body) {
            return true;
        }
        // A family `R_i = …` may share its letter with a declared function `R(θ)`.
        let shares_function = !params.is_empty() && self.letters.declared_functions.iter().any(|(k, _)| *k == key);
        let taken = self.bindings.defs.iter().any(|d| d.key == key)
            || self.example_gives(&key)
            || (self.letters.known.contains(&key) && !shares_function);
        let own_entries = own_entries_shape(target, body).is_some();
        // (`o=\frac{p}{1-p}`, then `p=\frac{o}{1+o}`: a body that reaches its own letter through
        // what is defined is no definition, but a claim relating them.)
        let circular = mentions_key(body, &key) || (params.is_empty() && self.reaches_through_definitions(body, &key));
        if taken || own_entries || (!shares_function && circular) {
            return false;
        }
        let definition = new(key, params, false);
        self.record(Definition { section_only: definition.section_only || family, ..definition });
        true
    }

    /// `y_i = \frac{1}{1+e^{-x_i}}`, `z_j = \sum_k w_{jk} x_k + b_j`, `a_n = 2n + 1`: a letter
    /// subscripted by letters that mean nothing here, with a body that uses those letters too,
    /// defines every member of the family (y_1, y_j, y_{i-1}), as a spec's index would: the key
    /// of the letter, and the index letters its parameters. Not `x_k = 1` (one member set to a
    /// value), nor a letter that already has a meaning (an entry of something known, a
    /// recurrence `a_i = a_{i-1} + d`).
    fn family_by_free_index(&self, target: &Expr, body: &Expr) -> Option<(String, Vec<String>)> {
        // Every use of `letter` in `e` indexes something (`x_i`, `\sum_{j \neq i}`): a letter
        // the body uses as a quantity (`z_x = 6x + y`, a partial derivative's name) is no index.
        fn only_as_index(e: &Expr, letter: &str, within: bool) -> bool {
            match &e.kind {
                ExprKind::Symbol(_) if e.symbol_key().is_some_and(|k| k == letter) => within,
                ExprKind::Subscript { base, index } => {
                    only_as_index(base, letter, within) && only_as_index(index, letter, true)
                }
                ExprKind::BigOp { lower, upper, body, .. } => {
                    lower.iter().chain(upper.iter()).all(|b| only_as_index(b, letter, true))
                        && body.iter().all(|b| only_as_index(b, letter, within))
                }
                _ => e.children().all(|c| only_as_index(c, letter, within)),
            }
        }
        let ExprKind::Subscript { base, index } = &target.kind else { return None };
        let ExprKind::Symbol(s) = &base.kind else { return None };
        let letters = crate::syntax::ast::index_letters(index)?;
        let means_nothing =
            |l: &String| self.small_letter_unused(l) && writes_key(body, l) && only_as_index(body, l, false);
        let key = s.key();
        let has_meaning = self.letters.known.contains(&key) || self.bindings.defs.iter().any(|d| d.key == key);
        let distinct = letters.iter().collect::<BTreeSet<_>>().len() == letters.len();
        (!letters.is_empty()
            && distinct
            && letters.iter().all(means_nothing)
            && !has_meaning
            && !writes_key(body, &key))
        .then_some((key, letters))
    }

    /// A single small Latin letter the section gives no meaning (neither knows nor defines it).
    pub(super) fn small_letter_unused(&self, letter: &str) -> bool {
        letter.chars().count() == 1
            && letter.chars().all(|c| c.is_ascii_lowercase())
            && !self.letters.known.iter().any(|k| k == letter)
            && !self.bindings.defs.iter().any(|d| d.key == letter)
    }

    /// `[\eta_1; \eta_2] = [a; b]`: each entry written on the left is defined by the value in
    /// the same cell on the right.
    pub(super) fn define_entries(&mut self, entries: &Expr, values: &Expr, origin: &str) {
        let matrices = [entries, values].iter().all(|e| matches!(e.kind, ExprKind::Matrix { .. }));
        let (Some((entries, _)), Some((values, _)), true) = (vector_cells(entries), vector_cells(values), matrices)
        else {
            return;
        };
        if entries.len() != values.len() {
            return;
        }
        for (entry, value) in entries.into_iter().zip(values) {
            if !matches!(entry.kind, ExprKind::Ellipsis) {
                self.try_define(entry, value, origin, true);
            }
        }
    }

    pub(super) fn record(&mut self, definition: Definition) {
        // `Y = aX + b` here after an earlier section's `X = Y^2`: the earlier meaning would make
        // this one circular, so the earlier section's letter is a fresh one here.
        let circular: Vec<String> = self
            .bindings
            .defs
            .iter()
            .filter(|d| d.inherited && mentions_key(&definition.body, &d.key))
            .filter(|d| self.reaches(&d.body, &definition.key, &mut BTreeSet::new()))
            .map(|d| d.key.clone())
            .collect();
        for key in &circular {
            self.bindings.defs.retain(|d| !(d.inherited && d.key == *key));
            if let Some(at) = self.letters.known.iter().position(|k| k == key) {
                self.letters.known.remove(at);
            }
        }
        self.bindings.definitions_made += 1;
        // A new meaning of a letter the section approximated ends the approximation.
        self.words.approximated.retain(|(key, _)| *key != definition.key);
        // A definition inside a worked example, or offered in passing, holds from here to the
        // example's (or the paragraph's) end: the claims before it and after it do not see it.
        let until = match self.current.reach {
            Reach::Section => None,
            Reach::Example | Reach::Boxed => Some(None),
            Reach::Paragraph(block) => Some(Some(block)),
        };
        let scoped = definition.from_notes
            && !definition.inherited
            && self.current.reach.keeps_local(definition.function, &definition.body);
        if let Some(until) = until.filter(|_| scoped) {
            let target = if definition.function {
                format!("{}({})", definition.key, definition.params.join(", "))
            } else {
                definition.key.clone()
            };
            let tex = format!("{target}={}", print::explicit_tex(&definition.body, &|_| false));
            self.bindings.given.retain(|g| g.definition.key != definition.key);
            self.bindings.given.push(Given { definition, until, tex, example: true });
            return;
        }
        self.letters.known.push(definition.key.clone());
        self.bindings.defs.push(definition);
    }

    /// Does `e` use `key`, itself or through the definitions of the letters it uses?
    pub(super) fn reaches(&self, e: &Expr, key: &str, seen: &mut BTreeSet<String>) -> bool {
        if mentions_key(e, key) {
            return true;
        }
        let used: Vec<&Definition> =
            self.bindings.defs.iter().filter(|d| !seen.contains(&d.key) && mentions_key(e, &d.key)).collect();
        used.into_iter().any(|d| {
            seen.insert(d.key.clone());
            self.reaches(&d.body, key, seen)
        })
    }

    /// The notes define a function the spec declares as something else: the spec is wrong.
    pub(super) fn inconsistent_function(&mut self, key: &str) {
        let Some(spec) = &self.spec else { return };
        let entry = spec.functions.iter().find(|(k, _)| crate::syntax::canonical_key(k).ok().as_deref() == Some(key));
        if let Some((name, kind)) = entry {
            let (line, col) = Spec::position(self.chapter.spec_text, kind.span().start);
            let kind = crate::spec::SpecErrorKind::FunctionDefinedInNotes {
                section: self.number.clone(),
                name: name.clone(),
                kind: *kind.get_ref(),
            };
            self.out.spec_problems.push(SpecProblem { line, col, kind });
        }
    }

    /// `1`, `j`, `i1`, `(i,j)`: numbers and index letters, the subscript of an entry.
    pub(super) fn entry_subscript(&self, index: &Expr) -> bool {
        match &index.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Symbol(_) => index.symbol_key().is_some_and(|k| self.letters.index_letters.contains(&k)),
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                self.entry_subscript(lhs) && self.entry_subscript(rhs)
            }
            ExprKind::Tuple { items, .. } => items.iter().all(|i| self.entry_subscript(i)),
            _ => false,
        }
    }

    /// `\sigma(z)`, `g(x, y)`, `\operatorname{GELU}(x)`: a name applied to distinct bare symbols
    /// that are not indices. Gives the function's key and its parameters.
    pub(super) fn function_target(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        if names_a_builtin(target) || self.not_definable(target) {
            return None;
        }
        if let Some((key, args)) = crate::syntax::ast::applied_function(target) {
            return self.parameters_of(key, &args);
        }
        // `P_1(x) = 2(x-1)+3`, `T_2(x) = 2x^2-1`: a letter with a number (or a name) for its
        // index right before a parenthesis of its variables, on the left of a definition, is the
        // function it defines (one member of a family), not the letter times the parenthesis.
        let ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs, rhs } = &target.kind else { return None };
        let (None, member, inner) = crate::syntax::ast::subscript_applied(lhs, rhs)? else { return None };
        let ExprKind::Subscript { index, .. } = &member.kind else { return None };
        if member.span.end != rhs.span.start {
            return None;
        }
        let args = match &inner.kind {
            ExprKind::Tuple { items, .. } => items.clone(),
            _ => vec![inner.clone()],
        };
        // (`T_N(x) = \sum_{n=0}^N …`: an index letter names the whole family, member by member,
        // which is not one function: [`super::forms::family_of_functions_defined`]. But the
        // letter of the variable, `F_Y(y)`, `f_X(x)`, or a Greek parameter, `h_\theta(x)`, names
        // one function.)
        if let Some(letters) = crate::syntax::ast::index_letters(index) {
            let variables: Vec<String> = args.iter().filter_map(Expr::symbol_key).map(|k| k.to_lowercase()).collect();
            let names_one = letters.iter().all(|l| l.starts_with('\\') || variables.contains(&l.to_lowercase()));
            if !names_one {
                return None;
            }
        }
        self.parameters_of(member.symbol_key()?, &args)
    }

    /// The parameters a function definition's arguments name (`x`, `\hat{\mathbf y}`, `x_1`),
    /// distinct and none an index of the section; `None` where an argument names none.
    pub(super) fn parameters_of(&self, key: String, args: &[Expr]) -> Option<(String, Vec<String>)> {
        let params: Vec<String> = args
            .iter()
            .map(|a| match &a.kind {
                // `\hat{\mathbf y}` names a parameter; `\bar y` is an adjoint, never one.
                ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar) => Some(s.key()),
                // `f(x_1, x_2)`, `\textrm{MSE}(\hat\theta_n, \theta)`: a letter with a subscript
                // names a parameter too.
                ExprKind::Subscript { base, .. }
                    if matches!(&base.kind, ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar)) =>
                {
                    a.symbol_key()
                }
                _ => None,
            })
            .collect::<Option<_>>()?;
        let distinct = params.iter().enumerate().all(|(i, p)| !params[..i].contains(p));
        let no_index = params.iter().all(|p| !self.letters.index_letters.contains(p) && p != "\\pi" && p != "e");
        (distinct && no_index && !params.is_empty()).then_some((key, params))
    }

    /// `a` -> ("a", []); `a_j` with j an index -> ("a", ["j"]); `W_Q` -> ("W_Q", []);
    /// `\operatorname{LN}(x)_r` -> ("\operatorname{LN}(x)", ["r"]); bars never.
    pub(super) fn definable(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        if let ExprKind::Subscript { base, index } = &target.kind {
            if let ExprKind::Apply { func, args, .. } = &base.kind {
                let letters = crate::syntax::ast::index_letters(index)?;
                let key = match args.as_slice() {
                    [arg] if func.sub.is_none() && func.sup.is_none() => {
                        crate::syntax::ast::applied_key(&func.name, arg)?
                    }
                    _ => return None,
                };
                return letters.iter().all(|l| self.letters.index_letters.contains(l)).then_some((key, letters));
            }
        }
        // A bar is an adjoint where a spec entry pins the section (a loss, a worked example);
        // in notes read without one, `\bar x` (a mean) is a letter like any other.
        let adjoint = |s: &crate::syntax::ast::Symbol| {
            s.accents.contains(&Accent::Bar)
                && (self.pinned || self.spec.as_ref().is_none_or(|spec| spec.loss.is_some() || spec.example.is_some()))
        };
        match &target.kind {
            ExprKind::Symbol(s) if !adjoint(s) => Some((s.key(), Vec::new())),
            ExprKind::Subscript { base, index } => {
                let ExprKind::Symbol(s) = &base.kind else { return None };
                if adjoint(s) {
                    return None;
                }
                // `x_j = 5` with x a declared matrix, `Z_{i1} = 5` after `Z = Xw`: an entry of
                // something known is a claim about it, never a new definition.
                // (`x_a` after a family x_i is a name when a is not an index.)
                // (A number given to the letter, `W = 10`, has no entries: `W_2` is a letter.)
                let number =
                    self.bindings.defs.iter().any(|d| {
                        d.key == s.key() && d.params.is_empty() && matches!(d.body.kind, ExprKind::Number { .. })
                    });
                let base_known = !number
                    && (self.letters.known.contains(&s.key()) || self.bindings.defs.iter().any(|d| d.key == s.key()));
                let base_function = self.letters.declared_functions.iter().any(|(k, _)| *k == s.key());
                let entry = self.letters.declared_matrices.contains(&s.key()) || self.entry_subscript(index);
                if base_known && !base_function && entry {
                    return None;
                }
                let letters = crate::syntax::ast::index_letters(index).unwrap_or_default();
                if !letters.is_empty() && letters.iter().all(|l| self.letters.index_letters.contains(l)) {
                    return Some((s.key(), letters));
                }
                target.symbol_key().map(|k| (k, Vec::new()))
            }
            _ => None,
        }
    }
}

/// The keys a letter is known by: its own, and for a member (`x_i`, `\delta y_t`) its base's.
pub(super) fn keys_of_letter(e: &Expr) -> Vec<String> {
    let base = match &e.kind {
        ExprKind::Subscript { base, .. } => base.symbol_key(),
        _ => None,
    };
    [e.symbol_key(), base].into_iter().flatten().collect()
}

/// Letters a formula never introduces as a name of its own: probability's and expectation's
/// operators, Euler's number, π, the imaginary unit.
pub(super) const NEVER_NEW: [&str; 6] = ["P", "p", "E", "e", "\\pi", "i"];

/// A definition the notes write at `origin` (a binding, a conditional or an example
/// definition). `section_only`: the sections after do not inherit it.
pub(super) fn notes_definition(
    key: String,
    params: Vec<String>,
    body: &Expr,
    origin: &str,
    function: bool,
    section_only: bool,
) -> Definition {
    Definition {
        key,
        params,
        body: body.clone(),
        origin: origin.to_string(),
        from_notes: true,
        function,
        inherited: false,
        section_only,
    }
}

/// `X` for `x` and `x` for `X`: a one-letter name in the other case.
pub(super) fn other_case_letter(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else { return None };
    if c.is_ascii_lowercase() {
        Some(c.to_ascii_uppercase().to_string())
    } else if c.is_ascii_uppercase() {
        Some(c.to_ascii_lowercase().to_string())
    } else {
        None
    }
}

/// Where a definition comes from, as shown: `notes.md:12:3` or `spec:4:1`.
pub(super) fn origin_text(origin: &Origin, path: &str) -> String {
    match origin {
        Origin::Notes { line, col, .. } => format!("{path}:{line}:{col}"),
        Origin::Spec { line, col, .. } => format!("spec:{line}:{col}"),
    }
}

/// Does `e` write a letter no sum, product or limit in it binds (constants aside)?
fn has_free_letter(e: &Expr, bound: &mut Vec<String>) -> bool {
    match &e.kind {
        ExprKind::BigOp { op, lower, body, .. } => {
            let before = bound.len();
            bound.extend(crate::syntax::ast::bound_letters(op, lower.as_deref(), body.as_deref()));
            let found = e.children().any(|c| has_free_letter(c, bound));
            bound.truncate(before);
            found
        }
        ExprKind::Symbol(_) => e
            .symbol_key()
            .is_some_and(|k| !matches!(k.as_str(), "e" | "\\mathrm{e}" | "\\pi" | "\\infty") && !bound.contains(&k)),
        _ => e.children().any(|c| has_free_letter(c, bound)),
    }
}

/// A function whose body depends on its arguments (`g(z) = \frac{1}{1+e^{-z}}`): set equal to a
/// number at an argument (`g(z)=0.5` when z = 0, `g(0)=0.5`), it is given a value there, not
/// defined anew as a constant.
pub(super) fn varies_with_its_arguments(definition: &Definition) -> bool {
    definition.function && definition.params.iter().any(|p| mentions_key(&definition.body, p))
}

#[cfg(test)]
mod tests {
    use crate::sema::testing::plans;

    #[test]
    fn a_definition_reaches_the_sections_after_it_as_inherited() {
        let plans = plans("## 1 S\n\n$$f(x) = x^2$$\n\n## 2 T\n\n$$f(3) = 9$$\n");
        let own = plans[0].scope.as_ref().expect("a scope");
        assert!(own.defs.get("f").is_some_and(|d| !d.inherited && d.function));
        let next = plans[1].scope.as_ref().expect("a scope");
        assert!(next.defs.get("f").is_some_and(|d| d.inherited), "{:?}", next.defs.keys().collect::<Vec<_>>());
        assert_eq!(plans[1].claims.len(), 1);
    }

    #[test]
    fn a_member_with_a_free_index_defines_the_family_for_its_section() {
        let text = "## 1 S\n\nLet $$y_i = \\frac{1}{1+e^{-x_i}}$$\n\nand $$z_x = 6x + y$$\n\n## 2 T\n\n$$y = 2$$\n";
        let plans = plans(text);
        let own = plans[0].scope.as_ref().expect("a scope");
        let family = own.defs.get("y").expect("y_i defines the family y");
        assert_eq!(family.params, ["i"]);
        // x is a quantity in the body, not an index: z_x is a name of its own.
        assert!(own.defs.get("z_x").is_some_and(|d| d.params.is_empty()), "{:?}", own.defs.keys().collect::<Vec<_>>());
        // The family is the section's: the next one's y is its own.
        let next = plans[1].scope.as_ref().expect("a scope");
        assert!(next.defs.get("y").is_none_or(|d| d.params.is_empty()));
    }
}
