//! What the words around a formula say, read once per formula: the cue, the letters the words
//! call numbers, random variables, kinds of matrix; the letter called small.

use super::builder::{ChapterFacts, Deterministic, SectionBuilder, WordsRead};
use super::claim::ParsedFormula;
use super::roles;
use super::scope::MatrixClass;
use crate::notes::{Document, FormulaSite, Mark};
use crate::syntax::ast::{Accent, BinOp, Chain, Expr, ExprKind, RelOp, Symbol};
use std::collections::{BTreeMap, BTreeSet};

impl<'a> SectionBuilder<'a> {
    /// The letter the words call small around the formula at `index`, in its paragraph or the
    /// two before it in the section: a lone letter written after `small`, `tiny`, `很小的` (or
    /// before `is small`, `很小`), or a formula `\epsilon \rightarrow 0`, the nearest first.
    pub(super) fn small_letter(&self, index: usize) -> Option<String> {
        let here = &self.chapter.doc.formulas[index];
        let letter_of = |tex: &str| {
            let statement = crate::syntax::parse_formula(tex).ok()?;
            let [chain] = statement.chains.as_slice() else { return None };
            let first = chain.first.as_ref()?;
            matches!(first.kind, ExprKind::Symbol(_)).then(|| first.symbol_key()).flatten()
        };
        (0..=index)
            .rev()
            .map(|i| &self.chapter.doc.formulas[i])
            .take_while(|site| site.section == here.section && site.block + 2 >= here.block)
            .find_map(|site| {
                let tends = roles::tends_to_zero(&site.tex).and_then(letter_of);
                let named = (roles::calls_small(&site.lead, &site.trail)).then(|| letter_of(&site.tex)).flatten();
                tends.or(named)
            })
    }

    /// Have the words of this section, up to the formula, said that one letter is written for
    /// another (`使用 $g_t$ 代替 $\tilde c_t$`)? Every derivation after that may rest on it.
    pub(super) fn renamed_before(&self, index: usize) -> bool {
        self.words.first_renaming.is_some_and(|at| at <= index)
    }

    /// The first formula of the section (its index in the document, parsed or not) whose words
    /// before it write one letter for another; read once, when the section is built.
    pub(super) fn first_renaming(&self, formulas: &[&ParsedFormula]) -> Option<usize> {
        let section = self.chapter.doc.formulas.get(formulas.first()?.index)?.section;
        self.chapter
            .doc
            .formulas
            .iter()
            .enumerate()
            .filter(|(_, f)| f.section == section)
            .find(|(_, f)| roles::renames_in_words(&f.context))
            .map(|(i, _)| i)
    }

    /// The cue of a formula's lead; with none near it, a supposition that began its sentence
    /// (`假设$A$的第$j$列可以表示为…：`) makes it a condition, unless a relation written between
    /// the two was what was supposed.
    pub(super) fn cue_of(&self, lead: &str, index: usize) -> roles::Cue {
        let supposed = || {
            roles::formulas_after_supposition(lead).is_some_and(|n| {
                let between = &self.chapter.doc.formulas[index.saturating_sub(n)..index];
                !between.iter().any(|site| site.tex.contains('=') || site.tex.contains("\\le"))
            })
        };
        // `找到 $Ax = 0$ 的解`, `$x^2 = 2$ 的根`, `the solutions of $Ax = 0$`: the equation whose
        // solutions the words speak of.
        let trail = self.chapter.doc.formulas.get(index).map_or("", |site| site.trail.trim_start());
        let words_before = lead.trim_end().to_lowercase();
        // (`then $x^2 + x - 1 = 0$ has a single positive root`.)
        static HAS_ROOTS: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r"(?i)^(?:has|have)\s+(?:\w+\s+){0,3}(?:roots?|solutions?|zeros?)\b")
                .expect("valid regex")
        });
        // (`$E[f(X)] = f(EX)$ 当且仅当 $X = E[X]$`: the case of equality, under a condition; `使
        // $l\det A=\det A$ 即可证明`: what remains to prove.)
        if roles::holds_only_when(trail) || roles::states_a_goal(lead, trail) {
            return roles::Cue::Condition;
        }
        let solutions_of = ["的解", "的根", "的所有解"].iter().any(|w| trail.starts_with(w))
            || ["solutions of", "solution of"].iter().any(|w| words_before.ends_with(w))
            || HAS_ROOTS.is_match(trail);
        // `solve $f(x) = 0$ or $x = -\ln x$`, `$a = b$, i.e. $a - b = 0$`: a formula that only
        // restates the one before it (or, i.e., 即) is read as the words made that one.
        let restates_previous = index.checked_sub(1).is_some_and(|previous| {
            let formulas = &self.chapter.doc.formulas;
            let between = formulas[index].since_previous.trim().trim_matches([',', '，']).trim().to_lowercase();
            formulas[previous].block == formulas[index].block
                && ["or", "or equivalently", "equivalently", "i.e.", "that is", "namely", "或", "或者", "即", "亦即"]
                    .contains(&between.as_str())
        });
        if restates_previous {
            let previous = &self.chapter.doc.formulas[index - 1];
            let cue = self.cue_of(&previous.lead, index - 1);
            if matches!(cue, roles::Cue::Solve | roles::Cue::Condition) {
                return cue;
            }
        }
        match roles::cue(lead) {
            _ if roles::asks_which_value(lead) || solutions_of => roles::Cue::Solve,
            // `将 $\varsigma = \alpha_1y_1 + \alpha_2y_2$ 带入上式`, `substituting $u = x^2$ into`: a
            // relation already known, applied.
            _ if roles::substituted(lead, trail) => roles::Cue::Condition,
            roles::Cue::None if supposed() => roles::Cue::Condition,
            // `令样本被中心化，即 $…$`, `Let the data be centred, i.e. $…$`: the formula restates
            // what the sentence supposes.
            roles::Cue::Assert | roles::Cue::Define if roles::restates_supposition(lead) => roles::Cue::Condition,
            cue => cue,
        }
    }

    /// What the words around the formula at `index` suppose in words alone
    /// ([`roles::supposed_in_words`]): in its paragraph, before it (`如果它是标准正交基，则 $(3.33)$
    /// 可以被用来化简。由于 $B^\top B = I$`: a supposition holds on in its paragraph), or as the
    /// reason the words give right after it ([`roles::reason_after`]).
    pub(super) fn supposed_around(&self, index: usize) -> Option<String> {
        let formulas = &self.chapter.doc.formulas;
        // The paragraph before it, nearest first: the words since each formula before it, then
        // the sentence of the paragraph's first formula (each formula of it a `$`). The last
        // conditional word stands in the nearest piece that has one; its clause, past the end of
        // a piece that is not the nearest, meets a formula (a `$`).
        let mut supposed = None;
        for at in (0..=index).rev() {
            let site = &formulas[at];
            let opens_paragraph = at.checked_sub(1).is_none_or(|p| formulas[p].block != site.block);
            let piece = if opens_paragraph { &site.lead } else { &site.since_previous };
            if roles::has_conditional(piece) {
                supposed = if at == index {
                    roles::supposed_in_words(piece)
                } else {
                    roles::supposed_in_words(&format!("{piece} $"))
                };
                break;
            }
            if opens_paragraph {
                break;
            }
        }
        // `…$$ since $D$ is symmetric.`: the reason the words give right after it, a formula in it
        // read as its TeX.
        let site = formulas.get(index)?;
        let mut after = site.trail.clone();
        if let Some(next) = formulas.get(index + 1).filter(|next| next.block == site.block) {
            if !crate::notes::ends_sentence(&after) {
                after = format!("{after} ${}$ {}", next.tex, next.trail);
            }
        }
        supposed.or_else(|| roles::reason_after(&after)).or_else(|| self.formulas_supposed(index))
    }

    /// `假设$b^{[1]}$和$b^{[2]}$都是零值的。利用等式$(2.7)$就得到了：` before the formula at
    /// `index` ([`roles::supposed_of_formulas`], in the prose before it): the clause, each formula
    /// in it written out (`…` where the prose's formulas cannot be told apart).
    fn formulas_supposed(&self, index: usize) -> Option<String> {
        let formulas = &self.chapter.doc.formulas;
        let context = &formulas.get(index)?.context;
        let clause = roles::supposed_of_formulas(context)?;
        // (The prose's k-th `$` from its end is the k-th formula before this one.)
        let after = context[clause.end..].matches('$').count();
        let within = context[clause.clone()].matches('$').count();
        // (Said in the formula's paragraph, or in the one above a display standing after it,
        // whose sentence leads to it: `…都是零值的。利用等式$(2.7)$就得到了：`.)
        let last = index.checked_sub(after + 1)?;
        let (block, here) = (formulas[last].block, &formulas[index]);
        let above = index.checked_sub(1).is_some_and(|p| formulas[p].block == block && here.block == block + 1);
        if block != here.block && !(above && here.opens_block) {
            return None;
        }
        let mut out = String::new();
        for (k, piece) in context[clause.clone()].split('$').enumerate() {
            if k > 0 {
                let before = within - k + 1 + after;
                let tex = index.checked_sub(before).and_then(|at| formulas.get(at)).map_or("…", |f| f.tex.trim());
                out.push_str(&format!("${tex}$"));
            }
            out.push_str(piece);
        }
        Some(out.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// What `read` gives for the words of the formula at `at`, kept in `table` of
    /// [`Self::words_read`]: read the first time it is asked for, then taken from there.
    pub(super) fn read_once<T: Clone>(
        &self,
        table: fn(&mut WordsRead) -> &mut std::collections::HashMap<usize, T>,
        at: usize,
        read: impl FnOnce() -> T,
    ) -> T {
        table(&mut self.words.words_read.borrow_mut()).entry(at).or_insert_with(read).clone()
    }

    /// The letters of earlier formulas in the same paragraph that the words call numbers:
    /// `for any random variable $X$ and numbers $a$ and $b$, …` names a and b.
    /// `written` holds the keys of the formula at `index`.
    pub(super) fn constants_named_before(&self, index: usize, written: &BTreeSet<String>) -> Vec<String> {
        let formulas = &self.chapter.doc.formulas;
        let Some(block) = formulas.get(index).map(|f| f.block) else { return Vec::new() };
        let sites = formulas[..index].iter().enumerate().rev().take_while(|(_, f)| f.block == block);
        let names_constants = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.constants, at, || roles::names_constants(&site.lead))
        };
        let named = sites.filter(|&(at, site)| names_constants(at, site));
        let mut letters: Vec<String> = named.flat_map(|(_, site)| bare_letters(&site.tex)).collect();
        // `consider $Y=aX+b$ as any linear deterministic function of $X$`: a and b are numbers in
        // the paragraph or the one leading to a display, and wherever the section writes Y after.
        let blocks = self.blocks_leading_to(index).unwrap_or(block..=block);
        for d in self.words.deterministic.iter().filter(|d| d.index < index) {
            if blocks.contains(&d.block) || d.defined.iter().any(|k| written.contains(k)) {
                letters.extend(d.small.iter().cloned());
            }
        }
        letters
    }

    /// Letters the words call random variables before a claim (`For any random variables $X, Y$`,
    /// `$X$ and $Y$ are two independent random variables`). The claim speaks of any such variables.
    pub(super) fn random_variables_named_before(&self, index: usize) -> Vec<String> {
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.random, at, || roles::names_random_variables(&site.lead, &site.trail))
                .then_some(())
        };
        self.letters_named_before(index, &named).into_iter().map(|(letter, ())| letter).collect()
    }

    /// Letters the words call a kind of matrix derivcheck does not construct, anywhere in the
    /// section before the formula at `index` (`Suppose that $P$ is stochastic`, then a proof's
    /// steps paragraphs later): the kind holds for the rest of the section. A power said to be
    /// of the kind (`since $P^k$ is stochastic`) names its base. (Only ever a reason not to
    /// refute, so the whole section is read: not as far as [`Self::matrix_classes_named_before`],
    /// whose kinds a claim is verified under.)
    pub(super) fn kinds_named_before(&self, index: usize) -> Vec<(String, String)> {
        let formulas = &self.chapter.doc.formulas;
        let Some(here) = formulas.get(index) else { return Vec::new() };
        let sites: Vec<(usize, &FormulaSite)> =
            formulas[..index].iter().enumerate().filter(|(_, f)| f.section == here.section).collect();
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.kinds, at, || roles::matrix_kind_unmodelled(&site.lead, &site.trail))
        };
        let mut kinds = letters_named_in(&sites, &named, &named_letters_or_power_bases);
        // `the orthonormal basis $u_1, \ldots, u_N$`: a family of vectors of a kind, named by its base;
        // `decomposed … into $U$, $\Sigma$, and $W^\top$`: the factors, by their letters.
        for (_, site) in &sites {
            if let Some(kind) = roles::basis_kind(&site.lead) {
                kinds.extend(family_bases(&site.tex).into_iter().map(|base| (base, kind.clone())));
            }
            if let Some(kind) = roles::decomposition_factor(&site.lead) {
                kinds.extend(factor_letter(&site.tex).map(|letter| (letter, kind)));
            }
        }
        kinds
    }

    /// Letters the words call a kind of matrix before a claim (`for an orthogonal matrix
    /// $\mathbf U$`, `$\mathbf S$ is symmetric`): the claim speaks of any matrix of that kind.
    pub(super) fn matrix_classes_named_before(&self, index: usize) -> Vec<(String, MatrixClass)> {
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.classes, at, || roles::matrix_class_named(&site.lead, &site.trail))
        };
        self.letters_named_before(index, &named)
    }

    /// The blocks whose words lead to the formula at `index`: its paragraph, or for a display
    /// standing alone, the displays before it and the paragraph before those.
    pub(super) fn blocks_leading_to(&self, index: usize) -> Option<std::ops::RangeInclusive<usize>> {
        let formulas = &self.chapter.doc.formulas;
        let here = formulas.get(index)?;
        let mut first_block = here.block;
        while here.display && first_block > 0 {
            let above: Vec<&FormulaSite> = formulas[..index].iter().filter(|f| f.block == first_block - 1).collect();
            if above.is_empty() {
                break;
            }
            first_block -= 1;
            if above.iter().any(|f| !f.display) {
                break;
            }
        }
        Some(first_block..=here.block)
    }

    /// The bare letters of formulas before `index` whose words (`named` of the formula's index and site)
    /// say what they are: in its paragraph, or for a display formula standing alone, in the
    /// paragraph that leads to it (past the displays between: `Then $$…$$ $$…$$`); letters
    /// listed just before a named one (`$X$ and $Y$ are …`) are named with it.
    pub(super) fn letters_named_before<T: Clone>(
        &self,
        index: usize,
        named: &dyn Fn(usize, &FormulaSite) -> Option<T>,
    ) -> Vec<(String, T)> {
        let formulas = &self.chapter.doc.formulas;
        let Some(blocks) = self.blocks_leading_to(index) else { return Vec::new() };
        let sites: Vec<(usize, &FormulaSite)> =
            formulas[..index].iter().enumerate().filter(|(_, f)| blocks.contains(&f.block)).collect();
        letters_named_in(&sites, named, &named_letters)
    }
}

/// What the words around a formula of the notes say, for [`SectionBuilder::chain_claims`].
pub(super) struct Prose<'a> {
    pub(super) lead: &'a str,
    /// Letters the words call numbers earlier in the paragraph.
    pub(super) constants: &'a [String],
    /// Letters the words call random variables before it.
    pub(super) random: &'a [String],
    /// Letters the words call a kind of matrix before it.
    pub(super) classes: &'a [(String, MatrixClass)],
    /// Letters the words call a kind of matrix derivcheck does not construct, with the kind.
    pub(super) kinds: &'a [(String, String)],
    pub(super) block: usize,
    /// It stands in an item of a tight list, beside sibling items ([`crate::notes::FormulaSite::in_item`]).
    pub(super) in_item: bool,
    /// The words around it name a point (`at $x=\mu$`, `在$x=0$处`): [`roles::names_a_point`].
    pub(super) point: bool,
    pub(super) cue: roles::Cue,
    /// The author's mark, which overrides the words.
    pub(super) mark: Option<Mark>,
    /// A relation before it in the same formula is a condition: this one may follow from it.
    pub(super) after_condition: bool,
    /// The function every reader knows by name that the words before it or the section's title
    /// name (`Sigmoid function有一个很好的性质`): [`roles::function_named`].
    pub(super) function: Option<roles::NamedFunction>,
    /// It follows an implication (`… \implies` it): what it concludes, read as written, never a
    /// definition or a value ([`super::chains::split_at_implications`]).
    pub(super) follows: bool,
    /// What it follows from: the relation just before the implication (`A \implies` it), the
    /// premise its check may assume ([`super::claim::StatedConditions::premise`]).
    pub(super) premise: Option<&'a Chain>,
    /// The words before it say the derivation substitutes equations written elsewhere.
    pub(super) substitutes: bool,
}

impl Prose<'_> {
    /// Marked a claim (or a deliberate slip): every link is a claim, read as written.
    pub(super) fn marked_claim(&self) -> bool {
        matches!(self.mark, Some(Mark::Claim | Mark::Wrong))
    }

    /// Words that make it the exception to the sentence (`unless`, `除非`).
    pub(super) fn excepts(&self) -> bool {
        !self.marked_claim() && roles::excepts(self.lead)
    }

    /// A verb of choosing governs it (`取自由变量为$x_3=1$`, `take $x_3=1$`, `let $c=6$`): the
    /// value it sets is chosen, never claimed ([`chooses`]).
    pub(super) fn chooses(&self) -> bool {
        !self.marked_claim() && chooses(self.lead)
    }

    /// Independence the words before it state ([`roles::independence_stated`]).
    pub(super) fn independence(&self) -> Option<crate::model::Independence> {
        roles::independence_stated(self.lead)
    }

    /// Words of condition before it (`if`, `for`, `若`), or the author's binding mark.
    pub(super) fn conditional(&self) -> bool {
        self.mark == Some(Mark::Binding) || roles::is_conditional(self.lead)
    }

    /// The last block a value the words give here reaches: a point the sentence names (`the
    /// minimum is at $x = 5$`) its own block only; words of condition, and a value given
    /// otherwise, the paragraph after it too (`if $x = 1$, … . Then …`). In an item of a list,
    /// its own item only (`2. Never Takers $T_{i0}=0$`, `3. Always Takers $T_{i0}=1$`: the next
    /// item is a case of its own, not what follows from this one).
    pub(super) fn given_until(&self) -> usize {
        if (self.point && !self.conditional()) || self.in_item {
            self.block
        } else {
            self.block + 1
        }
    }
}

/// Does `lead` end in a verb of choosing, with at most a few words after it (`take`, `let`,
/// `choose the free variable`, `取自由变量为`, `令`, `选取`), or formulas it governs before
/// (`we let $c_{-1} = c_{n-1}$, `)? Not `let us check that`, whose words go on, nor `假设`, which
/// supposes.
pub(super) fn chooses(lead: &str) -> bool {
    static CHOOSING: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(?:(?:^|[,.;:!?，。；：]\s*|\b(?:we|i|and|now|first|so|here|e\.g\.|i\.e\.)\s+)(?:take|choose|pick|set|let)(?:\s+(?:the|a|an|free|pivot|variables?|values?|parameters?|entry|entries|now|instead|again|both|each|all|our|its|their|first|second|third|last))*\s*(?:to\s+be|as|=)?|(?:取|令|选取|设)(?:[^，。,.;；:：$]{0,8}?为)?)(?:\s*\$\s*(?:,|，|、|and\b|和))*\s*$",
        )
        .expect("valid regex")
    });
    let tail = lead.trim_end();
    // (`设` alone chooses, `假设` supposes.)
    CHOOSING.find(tail).is_some_and(|m| !(m.as_str().starts_with('设') && tail[..m.start()].ends_with('假')))
}

/// `y \in \{-1, 1\}`, `y^{(i)} \in \{0, 1\}`: the letters the formulas put in a finite set of
/// two to four numbers, each with the numbers as written (a label on the letter is left off: the
/// set speaks of every labelled copy).
pub(super) fn finite_sets<'s>(
    statements: impl Iterator<Item = &'s crate::syntax::ast::Statement>,
) -> BTreeMap<String, Vec<String>> {
    fn number(e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Number { value } => Some(value.clone()),
            ExprKind::Neg { operand } => number(operand).map(|v| format!("-{v}")),
            _ => None,
        }
    }
    fn letter(e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Symbol(_) => e.symbol_key(),
            ExprKind::Power { base, .. } if matches!(base.kind, ExprKind::Symbol(_)) => base.symbol_key(),
            _ => None,
        }
    }
    let mut out = BTreeMap::new();
    for chain in statements.flat_map(|s| &s.chains) {
        let (Some(first), [link]) = (&chain.first, chain.links.as_slice()) else { continue };
        let ExprKind::Fenced { open, inner: Some(inner), .. } = &link.rhs.kind else { continue };
        if link.op != RelOp::In || open != "\\{" {
            continue;
        }
        let items: Vec<&Expr> = match &inner.kind {
            ExprKind::Tuple { items, .. } => items.iter().collect(),
            _ => vec![inner],
        };
        let numbers: Option<Vec<String>> = items.into_iter().map(number).collect();
        if let (Some(key), Some(numbers)) = (letter(first), numbers.filter(|n| (2..=4).contains(&n.len()))) {
            out.insert(key, numbers);
        }
    }
    out
}

/// The letters a formula names: a list of bare letters (`a`, `X, Y`), or the letter a
/// membership declares (`A \in \mathbb R^{n\times n}`, `A \in R^{n\times n}`); none otherwise.
pub(super) fn named_letters(tex: &str) -> Vec<String> {
    let letters = bare_letters(tex);
    if !letters.is_empty() {
        return letters;
    }
    // (`A \in R^{n\times n}` with a plain R, as often as `\mathbb R`.)
    let declared = single_chain(tex).and_then(|chain| {
        let [link] = chain.links.as_slice() else { return None };
        let first = chain.first.as_ref().filter(|f| matches!(f.kind, ExprKind::Symbol(_)))?;
        (link.op == RelOp::In).then(|| first.symbol_key()).flatten()
    });
    declared.into_iter().collect()
}

/// The letter a formula names, bare or transposed (`U`, `\Sigma`, `W^\top`).
fn factor_letter(tex: &str) -> Option<String> {
    let chain = single_chain(tex)?;
    let first = chain.first.as_ref().filter(|_| chain.links.is_empty())?;
    match &first.kind {
        ExprKind::Transpose { operand } => operand.symbol_key(),
        ExprKind::Symbol(_) | ExprKind::Subscript { .. } => first.symbol_key(),
        _ => None,
    }
}

/// The bases of the letters a formula writes with an index (`u_1, \ldots, u_N`: u).
fn family_bases(tex: &str) -> BTreeSet<String> {
    fn walk(e: &Expr, out: &mut BTreeSet<String>) {
        if let ExprKind::Subscript { base, .. } = &e.kind {
            out.extend(base.symbol_key());
        }
        e.children().for_each(|c| walk(c, out));
    }
    let mut out = BTreeSet::new();
    for chain in crate::syntax::parse_formula(tex).map(|s| s.chains).unwrap_or_default() {
        chain.exprs().for_each(|e| walk(e, &mut out));
    }
    out
}

/// The one chain a formula's TeX writes; `None` where it does not parse or writes several.
pub(super) fn single_chain(tex: &str) -> Option<Chain> {
    let mut chains = crate::syntax::parse_formula(tex).ok()?.chains;
    (chains.len() == 1).then(|| chains.pop()).flatten()
}

/// The letters of `sites` (each with its formula index) whose words (`named`, from the index and
/// the site) say what they are (`letters_of` the formula named), with the letters listed just
/// before a named one (`$X$ and $Y$ are …`, joined by `and` or a comma).
pub(super) fn letters_named_in<T: Clone>(
    sites: &[(usize, &FormulaSite)],
    named: &dyn Fn(usize, &FormulaSite) -> Option<T>,
    letters_of: &dyn Fn(&str) -> Vec<String>,
) -> Vec<(String, T)> {
    let mut out = Vec::new();
    for (k, &(at, site)) in sites.iter().enumerate() {
        let Some(what) = named(at, site) else { continue };
        out.extend(letters_of(&site.tex).into_iter().map(|l| (l, what.clone())));
        for (_, before) in sites[..k].iter().rev().take_while(|(_, b)| roles::continues_a_list(&b.trail)) {
            out.extend(named_letters(&before.tex).into_iter().map(|l| (l, what.clone())));
        }
    }
    out
}

/// [`named_letters`], or the base of a power of a letter (`P^k`, `P^{k+1}`).
pub(super) fn named_letters_or_power_bases(tex: &str) -> Vec<String> {
    let letters = named_letters(tex);
    if !letters.is_empty() {
        return letters;
    }
    let power_base = single_chain(tex).and_then(|chain| {
        let ExprKind::Power { base, .. } = &chain.first.as_ref().filter(|_| chain.links.is_empty())?.kind else {
            return None;
        };
        matches!(base.kind, ExprKind::Symbol(_)).then(|| base.symbol_key()).flatten()
    });
    power_base.into_iter().collect()
}

/// The equations the words of section `section` call deterministic functions.
pub(super) fn deterministic_in(doc: &Document, section: Option<usize>) -> Vec<Deterministic> {
    let sites = doc.formulas.iter().enumerate().filter(|(_, f)| f.section == section);
    sites
        .filter(|(_, f)| roles::calls_deterministic(&f.trail))
        .map(|(index, f)| {
            let (defined, small) = small_letters_defining(&f.tex);
            Deterministic { index, block: f.block, defined, small }
        })
        .collect()
}

/// `Y = aX + b` -> ([Y], [a, b]): the capital letters an equation defines, and the small single
/// letters of their right sides.
pub(super) fn small_letters_defining(tex: &str) -> (Vec<String>, Vec<String>) {
    fn small(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Symbol(s) = &e.kind {
            if s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_lowercase()) && s.accents.is_empty() {
                out.push(s.key());
            }
        }
        e.children().for_each(|c| small(c, out));
    }
    let Ok(statement) = crate::syntax::parse_formula(tex.trim()) else { return (Vec::new(), Vec::new()) };
    let (mut defined, mut out) = (Vec::new(), Vec::new());
    for chain in &statement.chains {
        let capital = chain.first.as_ref().filter(|e| {
            matches!(&e.kind, ExprKind::Symbol(s) if s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_uppercase()))
        });
        if let ([link], Some(capital)) = (chain.links.as_slice(), capital) {
            if link.op == RelOp::Eq {
                defined.extend(capital.symbol_key());
                small(&link.rhs, &mut out);
            }
        }
    }
    (defined, out)
}

/// The letters of a formula that is only a list of bare letters (`a`, `X, Y`); none otherwise.
pub(super) fn bare_letters(tex: &str) -> Vec<String> {
    bare_symbols(tex).iter().map(Symbol::key).collect()
}

/// [`bare_letters`], as the symbols written.
fn bare_symbols(tex: &str) -> Vec<Symbol> {
    let symbols: Option<Vec<Symbol>> = tex
        .split(',')
        .map(|part| {
            let chain = crate::syntax::parse_formula(part.trim()).ok()?.chains.into_iter().next()?;
            let first = chain.first.filter(|_| chain.links.is_empty())?;
            match first.kind {
                ExprKind::Symbol(s) => Some(s),
                _ => None,
            }
        })
        .collect();
    symbols.unwrap_or_default()
}

/// Barred or hatted letters the words call a statistic where they name them
/// (`样本的均值$\bar{x}$`, `the sample mean $\bar x$`, `均值 $\hat\mu$`), each with the letter it
/// is a statistic of (x of x̄): their value is what the words say (the mean of the x_i), which no
/// formula gives derivcheck, so a letter of its own they are not. (A plain letter the words call
/// a mean or a variance, `p`, `\sigma^2`, is as often a parameter given as it is.) Read once for
/// the chapter.
pub(super) fn statistics_named<'s>(sites: impl Iterator<Item = &'s FormulaSite>) -> BTreeMap<String, String> {
    static STATISTIC: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(均值|平均值|平均数|平均|方差|标准差|\bmean|\baverage|\bvariance|\bstandard deviation|\bmedian)\s*(为|是|is|of)?\s*[:：]?\s*$",
        )
        .expect("valid regex")
    });
    let named = sites.filter(|site| STATISTIC.is_match(&site.lead)).flat_map(|site| bare_symbols(&site.tex));
    named
        .filter(|s| s.accents.iter().any(|a| matches!(a, Accent::Bar | Accent::Hat)))
        .map(|s| {
            let sampled = Symbol { accents: Vec::new(), ..s.clone() };
            (s.key(), sampled.key())
        })
        .collect()
}

/// Letters the words or the formulas make eigenvalues: after `eigenvalue(s)`, `特征值` (`特征值为
/// $\lambda_1=0$`, `the eigenvalues $\lambda_1, \ldots, \lambda_n$`, its left side where the
/// formula gives it a value), or the scalar of an eigen-equation (`\mathbf\Sigma\mathbf u_i =
/// \lambda_i\mathbf u_i`, the same vector on both sides). An eigenvalue is what its matrix makes
/// it, which derivcheck does not work out: a letter of its own it is not. Each keyed by the letter
/// without its index (`\lambda`), as `\lambda_1` and `\lambda_i` are the same matrix's, with the
/// section of the formula that names it. Read once for the chapter, from its parsed formulas
/// (`statements`: each with its index among `sites`).
pub(super) fn eigenvalues_named(
    sites: &[FormulaSite],
    statements: &[(usize, &crate::syntax::ast::Statement)],
) -> Vec<(Option<usize>, String)> {
    static EIGENVALUE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)(特征值|特征根|\beigen-?values?)\s*(为|是|is|are|of\s+\$[^$]*\$)?\s*[:：]?\s*$")
            .expect("valid regex")
    });
    let letter_of = |e: &Expr| {
        let base = match &e.kind {
            ExprKind::Subscript { base, .. } => base.as_ref(),
            _ => e,
        };
        matches!(base.kind, ExprKind::Symbol(_)).then(|| base.symbol_key()).flatten()
    };
    let mut out = Vec::new();
    for &(index, statement) in statements {
        let site = &sites[index];
        for chain in &statement.chains {
            let Some(first) = chain.first.as_ref() else { continue };
            // (`算出一个特征值$x_1=\begin{bmatrix}1\\0\end{bmatrix}$`: a vector is no eigenvalue.)
            let vector = chain.links.iter().any(|l| matches!(l.rhs.kind, ExprKind::Matrix { .. }));
            if EIGENVALUE.is_match(&site.lead) && !vector {
                out.extend(letter_of(first).map(|k| (site.section, k)));
            }
            // `A x = \lambda x`: a matrix times a vector, the same vector times a letter.
            if let [link] = chain.links.as_slice() {
                let (
                    ExprKind::Binary { op: BinOp::Implicit, lhs: m, rhs: v },
                    ExprKind::Binary { op: BinOp::Implicit, lhs: l, rhs: w },
                ) = (&first.kind, &link.rhs.kind)
                else {
                    continue;
                };
                let same = crate::syntax::print::expr(v) == crate::syntax::print::expr(w);
                let distinct = crate::syntax::print::expr(m) != crate::syntax::print::expr(l);
                if link.op == RelOp::Eq
                    && same
                    && distinct
                    && matches!(v.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. })
                {
                    out.extend(letter_of(l).map(|k| (site.section, k)));
                }
            }
        }
    }
    out
}

/// Do the words around these formulas speak of eigenvalues (`eigenvalue`, `特征值`, `特征根`)?
pub(super) fn speaks_of_eigenvalues<'s>(mut sites: impl Iterator<Item = &'s FormulaSite>) -> bool {
    static EIGEN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(?i)特征值|特征根|\beigen-?values?\b").expect("valid regex"));
    sites.any(|site| EIGEN.is_match(&site.lead) || EIGEN.is_match(&site.trail))
}

/// Points the words say only exist (`其中 $\xi$ 是 $x$ 和 $y$ 之间的一点`, `where $\xi$ lies between
/// $x$ and $y$`, `for some $\xi$`): a letter written alone, then the words of a point between
/// two others, or after `for some`. Each with no letter it is of ([`statistics_named`]'s map).
pub(super) fn points_named(sites: &[FormulaSite]) -> BTreeMap<String, String> {
    static LIES_BETWEEN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(是|为|在|(is|lies)\s+(somewhere\s+)?between|between)\s*$").expect("valid regex")
    });
    static SOME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)(\bfor\s+some|存在(一点|一个)?)\s*$").expect("valid regex")
    });
    let mut out = BTreeMap::new();
    for (k, site) in sites.iter().enumerate() {
        let Some(symbol) = bare_symbols(&site.tex).into_iter().next().filter(|_| !site.tex.contains('=')) else {
            continue;
        };
        // `$\xi$ 是 $x$ 和 $y$ 之间的一点`, `$\xi$ lies between $x$ and $y$`: the two after it,
        // then (in Chinese) the words of a point between.
        let english = site.trail.to_lowercase().contains("between");
        let between = LIES_BETWEEN.is_match(&site.trail)
            && sites.get(k + 2).is_some_and(|last| {
                last.block == site.block && (english || last.trail.trim_start().starts_with("之间"))
            });
        if between || SOME.is_match(&site.lead) {
            out.insert(symbol.key(), String::new());
        }
    }
    out
}

/// What the whole chapter says once: see [`ChapterFacts`].
pub(super) fn chapter_facts(doc: &Document) -> ChapterFacts {
    ChapterFacts {
        information: names_information(&doc.source),
        probabilistic: names_probability(&doc.source),
        euler: writes_euler_powers(doc),
        complex: names_complex_numbers(&doc.source),
    }
}

/// Do the notes speak of complex numbers (`complex number`, `imaginary`, `复数`, `虚数`, `虚部`)?
/// There a bare `i` nothing defines may be the imaginary unit.
pub(super) fn names_complex_numbers(source: &str) -> bool {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bcomplex\s+(numbers?|plane|exponential)\b|\bimaginary\b|复数|虚数|虚部|虚轴|复平面")
            .expect("valid regex")
    });
    NAMES.is_match(source)
}

/// Do the notes speak of entropy or mutual information anywhere (`entropy`, `熵`, `互信息`)?
pub(super) fn names_information(source: &str) -> bool {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bentropy\b|\bmutual information\b|熵|互信息").expect("valid regex")
    });
    NAMES.is_match(source)
}

/// Do the notes speak of random variables or distributions (`random variable`, `density`,
/// `distribution`, `随机变量`, `概率密度`, `分布`)?
pub(super) fn names_probability(source: &str) -> bool {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\brandom variables?\b|\bdensity\b|\bdistribution\b|随机变量|概率密度|分布")
            .expect("valid regex")
    });
    NAMES.is_match(source)
}

/// Do the notes write `e` as the base of a power anywhere (`e^x`, `e^{-z}`, `\mathrm{e}^{x}`)?
/// Then `e` is Euler's number in them, and a formula `e = …` is a claim about that number.
pub(super) fn writes_euler_powers(doc: &Document) -> bool {
    static POWER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:^|[^\\A-Za-z])(?:e|\\mathrm\{e\}|\{e\})\s*\^").expect("valid regex")
    });
    doc.formulas.iter().any(|f| POWER.is_match(&f.tex))
}

/// `单位矩阵 $I\in\mathbb R^{n\times n}$`, `the identity matrix $\mathbf I \in \mathbb R^{d\times d}$`:
/// the letters a square shape declaration gives right after words that name the identity.
pub(super) fn identities_in_words(doc: &Document, formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    static IDENTITY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)(单位矩阵|单位阵|identity\s+matrix|identity)\s*[,，:：]?\s*$").expect("valid regex")
    });
    // `$I$ is the $k \times k$ identity matrix`: the letters before the size the words call the
    // identity.
    static NAMED_AFTER_SIZE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(?:的)?\s*(?:identity\s+matri(?:x|ces)\b|单位矩阵|单位阵)").expect("valid regex")
    });
    let declared = formulas
        .iter()
        .filter(|f| IDENTITY.is_match(&doc.formulas[f.index].since_previous))
        .flat_map(|f| super::declarations::shape_declarations(f.statement))
        .filter(|(_, [rows, cols])| rows == cols)
        .map(|(key, _)| key);
    let sized: Vec<String> = shapes_in_words(doc, formulas)
        .into_iter()
        .filter(|(key, [rows, cols])| {
            rows == cols
                && formulas.windows(2).any(|pair| {
                    let letters = matrix_letters(pair[0].statement).unwrap_or_default();
                    letters.contains(key) && NAMED_AFTER_SIZE.is_match(&doc.formulas[pair[1].index].trail)
                })
        })
        .map(|(key, _)| key)
        .collect();
    declared.chain(sized).collect()
}

/// `where $I_N$ is the identity matrix`, `其中 $I_n$ 为单位矩阵`: a letter with a subscript the words
/// right after it call the identity, with the size the subscript names (a letter or a number).
pub(super) fn identities_named_after(doc: &Document, formulas: &[&ParsedFormula]) -> Vec<(String, String)> {
    static IDENTITY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^\s*(is|denotes)\s+(the|an?)\s+(\w+\s+)?identity\b|^\s*(是|为|表示)\s*(\S{0,4}的)?单位(矩)?阵",
        )
        .expect("valid regex")
    });
    let named = |f: &&&ParsedFormula| IDENTITY.is_match(&doc.formulas[f.index].trail);
    let sized = |f: &&ParsedFormula| {
        let [chain] = f.statement.chains.as_slice() else { return None };
        let first = chain.first.as_ref().filter(|_| chain.links.is_empty())?;
        let ExprKind::Subscript { index, .. } = &first.kind else { return None };
        let size = match &index.kind {
            ExprKind::Number { value } => value.clone(),
            ExprKind::Symbol(_) => index.symbol_key()?,
            _ => return None,
        };
        Some((first.symbol_key()?, size))
    };
    formulas.iter().filter(named).filter_map(sized).collect()
}

/// `设$A$是$m \times n$矩阵`, `$A, B$ are $n \times n$ matrices`, `$A$是$n$阶方阵`, `an $m\times n$
/// matrix $\mathbf A$`, `$n$阶方阵$A$`: letters the words call a matrix of the size the formula
/// beside them writes (`m \times n`; one letter for a square matrix, after 阶 or `square`). Each
/// letter with its shape; adjacent formulas of a section only, nothing but the words of the
/// pattern between them.
pub(super) fn shapes_in_words(doc: &Document, formulas: &[&ParsedFormula]) -> Vec<(String, [String; 2])> {
    static COPULA: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^\s*[,，]?\s*(?:是|为|均为|都是|皆为|is|are|be|denotes?)\s*(?:an?|the|two|两个|一个|任意)?\s*$",
        )
        .expect("valid regex")
    });
    static KIND_AFTER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(?:的)?\s*(阶方阵|阶矩阵|方阵|单位矩阵|矩阵|向量|square\s+matri(?:x|ces)\b|(?:-?dimensional\s+)?(?:identity\s+)?matri(?:x|ces)\b|(?:column\s+)?vectors?\b)")
            .expect("valid regex")
    });
    // `if $A$ is $n \times k$ and …`: a size alone after the copula, the sentence going on.
    static SIZE_ALONE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(?:$|[,，.。;；:：)]|and\b|then\b|with\b|和|且|则)").expect("valid regex")
    });
    static KIND_BETWEEN: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(?:的)?\s*(阶方阵|阶矩阵|方阵|矩阵|square\s+matri(?:x|ces)|(?:-?dimensional\s+)?matri(?:x|ces))\s*$")
            .expect("valid regex")
    });
    let mut out = Vec::new();
    for pair in formulas.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (site_a, site_b) = (&doc.formulas[a.index], &doc.formulas[b.index]);
        if site_a.block != site_b.block {
            continue;
        }
        let found = if COPULA.is_match(&site_b.since_previous) {
            let kind =
                KIND_AFTER.captures(&site_b.trail).map(|kind| kind.get(1).map_or("", |m| m.as_str()).to_string());
            // (Without the kind, only rows by columns: `$x$ is $3$, and` gives x no shape.)
            let alone = || SIZE_ALONE.is_match(&site_b.trail).then(|| "×".to_string());
            kind.or_else(alone).and_then(|kind| {
                let shape = written_size(b.statement, &kind)?;
                Some((matrix_letters(a.statement)?, shape))
            })
        } else {
            KIND_BETWEEN.captures(&site_b.since_previous).and_then(|kind| {
                let shape = written_size(a.statement, kind.get(1).map_or("", |m| m.as_str()))?;
                Some((matrix_letters(b.statement)?, shape))
            })
        };
        if let Some((letters, shape)) = found {
            out.extend(letters.into_iter().map(|key| (key, shape.clone())));
        }
    }
    out.extend(shapes_by_rows_and_columns(doc, formulas));
    out
}

/// `$X$为$m$行$n$列的矩阵`, `$\theta$为$n$行1列的矩阵`, `$x$为$n$维向量`, `$X$ is an $m$ by $n$
/// matrix`, `$x$ is an $n$-dimensional vector`: a size the words give in rows and columns, or a
/// vector's dimension. The letters, then the rows, then the columns (a number, or a formula of
/// one plain letter or number), all in one paragraph.
fn shapes_by_rows_and_columns(doc: &Document, formulas: &[&ParsedFormula]) -> Vec<(String, [String; 2])> {
    use regex::Regex;
    use std::sync::LazyLock;
    static COPULA: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*[,，]?\s*(?:是|为|均为|都是|皆为|is|are|be|denotes?)\s*(?:an?|一个|任意)?\s*$")
            .expect("valid regex")
    });
    // After the rows: the columns in words, or the formula of the columns follows.
    static ROWS_THEN_COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:行\s*(?P<cols>\d+)\s*列\s*(?:的)?\s*(?:矩阵|向量)|(?P<open>行|by)\s*$|(?:维|-dimensional\b)\s*(?:的)?\s*(?:列)?\s*(?:向量|(?:column\s+)?vector\b))")
            .expect("valid regex")
    });
    static COLUMNS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^\s*(?:列\s*(?:的)?\s*(?:矩阵|向量)|matri(?:x|ces)\b)").expect("valid regex")
    });
    let site = |f: &ParsedFormula| &doc.formulas[f.index];
    let size = |f: &ParsedFormula| written_size_letter(f.statement);
    let mut out = Vec::new();
    for (k, f) in formulas.iter().enumerate() {
        let (Some(rows_formula), Some(letters)) = (formulas.get(k + 1), matrix_letters(f.statement)) else { continue };
        let (here, rows_site) = (site(f), site(rows_formula));
        if here.block != rows_site.block || !COPULA.is_match(&rows_site.since_previous) {
            continue;
        }
        let Some(rows) = size(rows_formula) else { continue };
        let Some(words) = ROWS_THEN_COLUMNS.captures(&rows_site.trail) else { continue };
        let cols = if let Some(cols) = words.name("cols") {
            Some(cols.as_str().to_string())
        } else if words.name("open").is_some() {
            formulas
                .get(k + 2)
                .filter(|c| site(c).block == here.block && COLUMNS.is_match(&site(c).trail))
                .and_then(|c| size(c))
        } else {
            Some("1".to_string())
        };
        if let Some(cols) = cols {
            out.extend(letters.into_iter().map(|key| (key, [rows.clone(), cols.clone()])));
        }
    }
    out
}

/// A size written alone in a formula (`$m$`, `$3$`).
fn written_size_letter(statement: &crate::syntax::ast::Statement) -> Option<String> {
    let [chain] = statement.chains.as_slice() else { return None };
    plain_size(chain.first.as_ref().filter(|_| chain.links.is_empty())?)
}

/// A size as words write one: a number or one plain letter.
fn plain_size(e: &Expr) -> Option<String> {
    let plain = match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Symbol(s) => s.accents.is_empty() && s.name.chars().count() == 1,
        _ => false,
    };
    plain.then(|| super::declarations::dimension(e)).flatten()
}

/// `m \times n` -> [m, n]; `n` -> [n, n] where the kind of matrix is square (阶, 方阵, square).
fn written_size(statement: &crate::syntax::ast::Statement, kind: &str) -> Option<[String; 2]> {
    let [chain] = statement.chains.as_slice() else { return None };
    if !chain.links.is_empty() {
        return None;
    }
    let first = chain.first.as_ref()?;
    match &first.kind {
        ExprKind::Binary { op: crate::syntax::ast::BinOp::Times, lhs, rhs } => {
            Some([plain_size(lhs)?, plain_size(rhs)?])
        }
        _ => {
            let square = kind.contains('阶') || kind.contains('方') || kind.to_lowercase().starts_with("square");
            let vector = kind.contains("向量") || kind.to_lowercase().contains("vector");
            let n = plain_size(first)?;
            match (square, vector) {
                (true, _) => Some([n.clone(), n]),
                (false, true) => Some([n, "1".to_string()]),
                (false, false) => None,
            }
        }
    }
}

/// The letters a formula names (`A`, `A, B`, `\mathbf A`, `A = (a_{ij})`), `None` where it is
/// anything else.
fn matrix_letters(statement: &crate::syntax::ast::Statement) -> Option<Vec<String>> {
    statement
        .chains
        .iter()
        .map(|chain| {
            let first = chain.first.as_ref()?;
            let named = match chain.links.as_slice() {
                [] => true,
                [link] => link.op == RelOp::Eq && super::declarations::entries_letter(first, &link.rhs).is_some(),
                _ => false,
            };
            (named && matches!(first.kind, ExprKind::Symbol(_))).then(|| first.symbol_key()).flatten()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::sema::testing::claim;
    use crate::sema::MatrixClass;

    #[test]
    fn the_words_before_a_claim_name_what_its_letters_are() {
        let random = claim("For any random variable $X$ we have $$E[X+1] = E[X] + 1$$", "E[X+1] = E[X] + 1");
        assert_eq!(random.reading.named.random, ["X"]);
        let numbers = claim("For numbers $a$ and $b$, $$E[aX + b] = aE[X] + b$$", "E[aX + b] = aE[X] + b");
        let mut constants = numbers.reading.named.constants.clone();
        constants.sort();
        assert_eq!(constants, ["a", "b"]);
        assert!(numbers.reading.named.random.is_empty());
    }

    #[test]
    fn the_words_name_kinds_of_matrix_and_small_letters() {
        let tex = "\\mathbf U^\\top \\mathbf U = \\mathbf I";
        let orthogonal = claim(&format!("For an orthogonal matrix $\\mathbf U$, $${tex}$$"), tex);
        assert_eq!(orthogonal.reading.named.classes, [("U".to_string(), MatrixClass::Orthogonal)]);
        let stochastic = claim("假设随机矩阵$A$满足 $$A^T\\mathbf 1 = \\mathbf 1$$", "A^T\\mathbf 1 = \\mathbf 1");
        assert_eq!(stochastic.reading.named.kinds, [("A".to_string(), "随机".to_string())]);
        let small = claim(
            "For a small $\\epsilon$, $$e^{\\epsilon} \\approx 1 + \\epsilon$$",
            "e^{\\epsilon} \\approx 1 + \\epsilon",
        );
        assert_eq!(small.reading.named.small.as_deref(), Some("\\epsilon"));
        // Without the words, nothing is named.
        let plain = claim("$$e^{\\epsilon} \\approx 1 + \\epsilon$$", "e^{\\epsilon} \\approx 1 + \\epsilon");
        assert_eq!(plain.reading.named.small, None);
    }

    #[test]
    fn a_supposition_and_a_stated_condition_reach_the_claim_after_them() {
        let supposed = claim("若 $A \\sim B$，则 $$r(A) = r(B)$$", "r(A) = r(B)");
        assert_eq!(supposed.reading.conditions.hypothesis.as_deref(), Some("A \\sim B"));
        let after = claim("这里 $a + b = 1$，因此 $$2a + 2b = 2$$", "2a + 2b = 2");
        let stated: Vec<&str> = after.reading.conditions.stated.iter().map(|a| a.tex.as_str()).collect();
        assert_eq!(stated, ["a+b=1"]);
    }

    #[test]
    fn verbs_of_choosing_govern_the_formula_after_them() {
        for lead in ["同上一例，取自由变量为", "令", "Now let", "we take the free variable", "choose", "选取"]
        {
            assert!(super::chooses(lead), "{lead}");
        }
        for lead in [
            "Let us check that",
            "then",
            "因此",
            "the set of values is",
            "假设",
            "that the variable $ can take",
            "我们两边同时取模有",
            "取$带入",
        ] {
            assert!(!super::chooses(lead), "{lead}");
        }
    }
}
