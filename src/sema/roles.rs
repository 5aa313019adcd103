//! What a formula is *for*, read from its shape and the words before it (its lead, from
//! `notes`): a claim, a binding (`we use $x=10$`), a condition or an equation to solve (`where
//! $\mathbf A=\mathbf A^\top$`, `solve $\mathbf A\mathbf v=\lambda\mathbf v$`), or an example that
//! gives a letter a new meaning (`the function $f(x)=\exp(x)$`). Pure functions over the tree and
//! the lead; `sema` decides with them and records the role.
//!
//! The rule behind every choice: derivcheck refutes only what the text commits to. Where the
//! words leave a reading open, the claim carries the other reading, and a counterexample then
//! ends `undecided`, naming it.

use crate::syntax::ast::{Accent, BinOp, Expr, ExprKind, Style};
use std::sync::LazyLock;

/// What the words right before a formula say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// `thus`, `we have`, `hence`, `即`, `因此`: the formula is stated as true.
    Assert,
    /// `if`, `when`, `where`, `such that`, `若`, `当`, `其中`, `使得`: a condition.
    Condition,
    /// `solve`, `find`, `equation`, `system`, `解`, `方程`: an equation (or a system of them) to
    /// solve.
    Solve,
    /// `let`, `take`, `for instance`, `the function`, `设`, `令`, `取`, `例如`: a (new) meaning.
    Define,
    /// No cue word near the formula.
    None,
}

/// Cue words, English (matched as whole words, case-insensitive) and Chinese (as substrings).
/// Each is a row of the notation table's relations group; the guide lists them (`docs/guide/src/notation.md`).
const CUES: &[(Cue, &[&str])] = &[
    (
        Cue::Assert,
        &[
            "thus",
            "so",
            "hence",
            "therefore",
            "consequently",
            "we have",
            "have",
            "we get",
            "get",
            "obtain",
            "gives",
            "yields",
            "i.e.",
            "that is",
            "equals",
            "we see",
            "see that",
            "shows",
            "implies",
            "becomes",
            "fact that",
            "recall",
            "since",
            "because",
            "then",
            "simplifies",
            "reduces",
            "say",
            "write",
            "means",
            "note that",
            "verify",
            "check",
            "used",
            "即",
            "因此",
            "所以",
            "于是",
            "得到",
            "可得",
            "就有",
            "则有",
            "我们有",
            "则",
            "注意到",
            "可以写成",
            "等于",
            "表明",
            "可见",
            "由于",
            "事实",
            "使用了",
            "用到了",
            "利用了",
        ],
    ),
    (
        Cue::Condition,
        &[
            "if",
            "when",
            "whenever",
            "where",
            "such that",
            "so that",
            "unless",
            "except",
            "assume",
            "assuming",
            "suppose",
            "supposing",
            "provided",
            "iff",
            "satisfying",
            "satisfies",
            "satisfy",
            "for which",
            "whose",
            "with",
            "at",
            "condition",
            "constraint",
            "whether",
            "若",
            "如果",
            "当",
            "假设",
            "假定",
            "其中",
            "使得",
            "满足",
            "只要",
            "除非",
            "条件",
            "约束",
            "要求",
            "在",
        ],
    ),
    (
        Cue::Solve,
        &[
            "solve", "solving", "solution", "find", "finding", "equation", "roots", "system", "systems", "解", "求解",
            "方程", "求",
        ],
    ),
    (
        Cue::Define,
        &[
            "let",
            "set",
            "define",
            "defined",
            "denote",
            "take",
            "consider",
            "choose",
            "pick",
            "given",
            "for instance",
            "for example",
            "e.g.",
            "such as",
            "function",
            "matrix",
            "vector",
            "initialize",
            "initial",
            "use",
            "value",
            "设",
            "令",
            "取",
            "考虑",
            "定义",
            "例如",
            "比如",
            "函数",
            "矩阵",
            "向量",
            "记",
            "给定",
            "初始化",
            "选择",
            "例子",
            "特例",
            "special case",
        ],
    ),
];

/// How many words before the formula a cue may stand (`if we now take $…$`: `take`).
const CUE_REACH: usize = 6;

/// The cue nearest the end of `lead` within its last few words; `None` without one. Chinese
/// cues are found anywhere in the last few characters.
pub fn cue(lead: &str) -> Cue {
    nearest_cue(lead, CUES, &[])
}

/// Where the sentence a formula ends begins a supposition (`Suppose that column j of $A$ is a
/// combination of the others:`, `假设$A$的第$j$列可以表示为其他列的线性组合：`): how many formulas
/// stand between the supposition word and this one (the `$` marks after it). With no cue word near
/// the formula and none of those formulas a relation, the formula is what is supposed.
pub fn formulas_after_supposition(lead: &str) -> Option<usize> {
    const SUPPOSE: &[&str] = &["suppose", "supposing", "assume", "assuming", "假设", "假定"];
    let lower = lead.to_lowercase();
    let at = SUPPOSE
        .iter()
        .filter_map(|w| {
            if w.is_ascii() {
                // (Offsets of `lower` itself, found where the word starts: a separator may be
                // several bytes, `：`, `，`.)
                words_at(&lower).filter(|(_, word)| word == w).map(|(at, _)| at).last()
            } else {
                lower.rfind(w)
            }
        })
        .max()?;
    Some(lower[at..].matches('$').count())
}

/// The words of `text` (runs of alphanumeric characters) with the byte offset each starts at.
fn words_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start: Option<usize> = None;
    text.char_indices().chain(std::iter::once((text.len(), ' '))).filter_map(move |(i, c)| {
        if c.is_alphanumeric() && i < text.len() {
            start.get_or_insert(i);
            None
        } else {
            start.take().map(|s| (s, &text[s..i]))
        }
    })
}

/// Does the formula restate what its sentence supposes (`令降维后的样本被中心化，即 $…$`,
/// `Let the samples be centred, i.e. $…$`, `Suppose the weights sum to one, that is $…$`)? The
/// sentence opens with a supposition word (an enumerator such as `(1)` before it aside) and the
/// words right before the formula are `i.e.`, `that is`, `namely`, `即`, `也就是`, `亦即`.
pub fn restates_supposition(lead: &str) -> bool {
    static OPENS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(\(\d+\)|（\d+）|\d+[.、)]\s)?\s*(let|suppose|assume|令|设|假设|假定)")
            .expect("valid regex")
    });
    static RESTATES: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)(\bi\.\s?e\.?|\bthat is|\bnamely|即|也就是说?|亦即|也即)[\s,，:：]*$")
            .expect("valid regex")
    });
    // The sentence: from the last sentence end before the formula; the words since the last
    // formula are what stands right before it.
    let words = lead.rsplit('$').next().unwrap_or_default();
    let Some(restated) = RESTATES.find(words) else { return false };
    // (The `.` of `i.e.` ends no sentence.)
    let before = &lead[..lead.len() - words.len() + restated.start()];
    let sentence = last_sentence(before);
    // `假设随机矩阵$K$，则$K^T$的行和为1，即`: what follows `then` is a consequence, not the
    // supposition.
    static CONSEQUENCE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\b(then|so|hence|thus|therefore)\b|则|那么|因此|所以|于是").expect("valid regex")
    });
    OPENS.is_match(sentence) && !CONSEQUENCE.is_match(sentence)
}

/// Words that say what something is (`is`, `are`, `be`, `是`, `为`): a supposition or a reason in
/// words names a property.
static SAYS_WHAT: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?i)\b(is|are|be)\b|是|为").expect("valid regex"));

/// Where sentences end: `.`, `!`, `?`, `;`, `:` before a space, their full-width forms, a blank line.
static SENTENCE_END: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"[.!?;:](\s|$)|[。！？；：]|\n\s*\n").expect("valid regex"));

/// The sentence `lead` ends in: from the last sentence end in it.
pub(super) fn last_sentence(lead: &str) -> &str {
    SENTENCE_END.find_iter(lead).last().map_or(lead, |end| &lead[end.end()..])
}

/// Does the formula stand where its sentence lets something be (`令 $t = 1/p, 1-t = 1/q$`,
/// `Let $u = 1/p$ and $1 - u = 1/q$`, `令 $f'(x) = 0$`)? The last such word of the sentence before
/// it is `let`, `suppose`, `assume`, `令`, `设`, `假设`, `假定`, with nothing after it but formulas
/// (each a `$` in a lead) and `and`, and something between the formula before and this one (a
/// display after `…，令 $1-t=1/q$。` belongs to no let). An equation so introduced is supposed,
/// not claimed: where it names no letter to define, it is a condition.
pub fn lets(lead: &str) -> bool {
    static LET: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)\b(let|suppose|assume)\b|令|设|假设|假定").expect("valid regex"));
    static ONLY_JOINS: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)^(\s|[,，、$]|\band\b|和|与|以及|并且|且)*$").expect("valid regex"));
    let sentence = last_sentence(lead);
    if sentence.trim_end().ends_with('$') {
        return false;
    }
    LET.find_iter(sentence).last().is_some_and(|word| ONLY_JOINS.is_match(&sentence[word.end()..]))
}

/// Do the words right before the formula say something can be written as a combination of others
/// (`可以由 … 的线性组合表示出来`, `can be written as a linear combination of`, `can be expressed
/// as a weighted sum of`), with no consequence after them (`则有`, `then`)? Such a formula says
/// coefficients exist; it does not claim what they are. (`计算…的加权和` computes one.)
pub fn expresses_as(lead: &str) -> bool {
    static COMBINATION: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)线性组合|加权和|\b(linear\s+combinations?|weighted\s+sum|combination\s+of)\b")
            .expect("valid regex")
    });
    static CONSEQUENCE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(then|so|hence|thus|therefore|we\s+(have|get|obtain))\b|则|那么|因此|所以|于是|得到|可得|有",
        )
        .expect("valid regex")
    });
    static CAN_BE_WRITTEN: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\b(can|may|could)\s+be\b|\b(written|expressed|represented)\b|可以|能|表示|写成|写为")
            .expect("valid regex")
    });
    let words = last_sentence(lead.rsplit('$').next().unwrap_or_default());
    CAN_BE_WRITTEN.is_match(words)
        && COMBINATION.find_iter(words).last().is_some_and(|found| !CONSEQUENCE.is_match(&words[found.end()..]))
}

/// The conditional words of `words` (`if`, `如果`, `假如`, `倘若`, `若`; not the `若` of `若干`,
/// several), in order.
fn conditional_words(words: &str) -> impl Iterator<Item = regex::Match<'_>> {
    static IF: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)\bif\b|如果|假如|倘若|若").expect("valid regex"));
    IF.find_iter(words).filter(|m| !words[m.end()..].starts_with('干'))
}

/// Do `words` have a conditional word ([`supposed_in_words`] reads the clause of the last)?
pub fn has_conditional(words: &str) -> bool {
    conditional_words(words).next().is_some()
}

/// What the words before a formula suppose in words alone, where they do (`如果它是标准正交基，
/// 由于 $…$`, `If the basis is orthonormal, then $…$`): a conditional word (`if`, `如果`, `若`,
/// `假如`, `倘若`), the last in `words` (the paragraph before the formula, each formula in it a
/// `$`), opening a clause with no formula in it that says what something is (`是`, `为`, `is`,
/// `are`). The formula rests on that supposition, which no formula states: the clause, as written.
pub fn supposed_in_words(words: &str) -> Option<String> {
    static CLAUSE_END: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"[,，;；:：。！？]|[.!?](\s|$)|\bthen\b|则|那么").expect("valid regex"));
    let opens = conditional_words(words).last()?;
    let after = &words[opens.start()..];
    let clause = CLAUSE_END.find(&after[opens.len()..]).map_or(after, |end| &after[..opens.len() + end.start()]);
    // (A clause with a formula in it, `if $x > 0$`, supposes what the formula says: a condition.)
    (SAYS_WHAT.is_match(clause) && !clause.contains('$')).then(|| one_spaced(clause))
}

/// `假设$b^{[1]}$和$b^{[2]}$都是零值的。`, `Assume $W$ is orthogonal.`: a supposition word (`假设`,
/// `假定`, `assume`, `suppose`), the last in `context` (the prose before a formula, each formula
/// a `$`), opening a clause that writes formulas and then says something of them in words. The
/// formulas after it rest on that supposition: the clause's byte range in `context`.
pub fn supposed_of_formulas(context: &str) -> Option<std::ops::Range<usize>> {
    static SUPPOSE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)假设|假定|\b(assume|assuming|suppose|supposing)\b").expect("valid regex")
    });
    static CLAUSE_END: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"[;；:：。！？]|[.!?](\s|$)|\n\s*\n").expect("valid regex"));
    let opens = SUPPOSE.find_iter(context).last()?;
    let after = &context[opens.end()..];
    let end = CLAUSE_END.find(after).map_or(context.len(), |m| opens.end() + m.start());
    let clause = &context[opens.start()..end];
    let said = clause.rsplit_once('$').map(|(_, words)| words.trim_matches([',', '，', ' ']))?;
    (said.chars().any(char::is_alphanumeric) && SAYS_WHAT.is_match(said)).then_some(opens.start()..end)
}

/// Does the formula open an enumerated item: nothing but an enumerator before it in its
/// paragraph (`(2) $y=x^\alpha$`, `（3）`, `3.`, `3)`, `3、`, `(b)`, `②`)? Items of one list are
/// parallel cases: a letter each defines afresh is that item's example.
pub fn opens_item(lead: &str) -> bool {
    static ENUMERATOR: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^\s*([(（]\s*([0-9]{1,2}|[a-z]|[ivx]{1,4})\s*[)）]|([0-9]{1,2}|[a-z])\s*[.)、]|[①-⑳])\s*$")
            .expect("valid regex")
    });
    ENUMERATOR.is_match(lead)
}

/// The kind of the cue word nearest the end of `lead` (after its last formula), from `table`,
/// leaving the phrases in `except` out of every kind but [`Cue::Condition`].
fn nearest_cue(lead: &str, table: &[(Cue, &[&str])], except: &[&str]) -> Cue {
    // `if $f(17) = 0$ and $g(17) = 0$, then`, `we let $c_{-1} = c_{n-1}$, $c_{-2} = c_{n-2}$`: a
    // formula joined to the one before it by `and` is read as that one is; by a comma alone,
    // only after a definition (`当 $x=10$，$f'(x) \approx 0$`: after a condition, the comma
    // opens what follows from it).
    let mut joined_lead = lead;
    let mut by_comma = false;
    for _ in 0..4 {
        let Some((before, after)) = joined_lead.rsplit_once('$') else { break };
        let joiner = after.trim().trim_matches([',', '，', '、', ';']).trim().to_lowercase();
        let comma = joiner.is_empty() && !after.trim().is_empty();
        if !(comma || matches!(joiner.as_str(), "and" | "or" | "和" | "与" | "且" | "以及" | "或")) {
            break;
        }
        by_comma |= comma;
        joined_lead = before;
    }
    if joined_lead.len() < lead.len() {
        // (A supposition in so many words: `for $s \in \mathbb R^m$ and $p = …$` declares, then
        // defines.)
        const SUPPOSING: &[&str] =
            &["if", "when", "whenever", "suppose", "assume", "assuming", "若", "如果", "假设", "假定", "当"];
        let tail = joined_lead.rsplit('$').next().unwrap_or_default().to_lowercase();
        let supposes = tail.split(|c: char| !c.is_alphanumeric()).any(|w| SUPPOSING.contains(&w))
            || SUPPOSING.iter().any(|w| !w.is_ascii() && tail.contains(w));
        let earlier = nearest_cue(joined_lead, table, except);
        if earlier == Cue::Define || (earlier == Cue::Condition && supposes && !by_comma) {
            return earlier;
        }
    }
    // The words of the lead after the last formula (`$`): `we use $ as the initial value and
    // assume` reads `as the initial value and assume`; in `if $ then`, the `if` was the earlier
    // formula's.
    let lower = lead.rsplit('$').next().unwrap_or_default().to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
        .filter(|w| !w.is_empty())
        .collect();
    let tail: Vec<&str> = words.iter().rev().take(CUE_REACH).rev().copied().collect();
    let mut best: Option<(usize, Cue)> = None;
    for &(kind, phrases) in table {
        for phrase in phrases.iter().filter(|p| kind == Cue::Condition || !except.contains(p)) {
            let at = if phrase.is_ascii() {
                let parts: Vec<&str> = phrase.split(' ').collect();
                // (`we find that $…$` reports a result: `find` then `that` asks for nothing.)
                let reports = |i: usize| kind == Cue::Solve && tail.get(i + parts.len()) == Some(&"that");
                (0..tail.len().saturating_sub(parts.len() - 1))
                    .rev()
                    .find(|&i| parts.iter().enumerate().all(|(k, p)| tail[i + k].trim_matches(['.', ':', ';']) == *p))
                    .filter(|&i| !reports(i))
                    .map(|i| (i + parts.len()) * 100)
            } else {
                // Chinese: within the last dozen characters; position in characters.
                let chars: Vec<char> = lower.chars().collect();
                let window: String = chars[chars.len().saturating_sub(12)..].iter().collect();
                window.rfind(phrase).map(|i| 10_000 + window[..i].chars().count() + phrase.chars().count())
            };
            if let Some(at) = at {
                if best.is_none_or(|(b, _)| at > b) {
                    best = Some((at, kind));
                }
            }
        }
    }
    best.map_or(Cue::None, |(_, kind)| kind)
}

/// Does the lead put what follows under a condition in so many words (`for`, `if`, `when`,
/// `suppose`, `given`; `对于`, `若`, `如果`, `当`, `假设`, `给定`)? Narrower than [`Cue::Condition`]: `with` and
/// `where` introduce definitions as often as conditions.
pub fn is_conditional(lead: &str) -> bool {
    const CONDITIONAL: &[&str] =
        &["for", "if", "when", "suppose", "assume", "assuming", "given", "对于", "若", "如果", "当", "假设", "给定"];
    // (`is given by $…$` states what a thing is: no supposition.)
    let lead = lead.to_lowercase().replace("for instance", "").replace("for example", "").replace("given by", "");
    let mut table: Vec<(Cue, &[&str])> = vec![(Cue::Condition, CONDITIONAL)];
    table.extend(CUES.iter().filter(|(kind, _)| *kind != Cue::Condition).copied());
    nearest_cue(&lead, &table, CONDITIONAL) == Cue::Condition
}

/// A function every reader knows by name, which the words may name instead of defining.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedFunction {
    /// `sigmoid`, `logistic function`, `S 形函数`: 1/(1+e^{-z}).
    Sigmoid,
    /// `tanh`, `hyperbolic tangent`, `双曲正切`.
    Tanh,
}

impl NamedFunction {
    /// The function's value at `z`, as TeX.
    pub fn tex(self) -> &'static str {
        match self {
            NamedFunction::Sigmoid => "\\frac{1}{1+e^{-z}}",
            NamedFunction::Tanh => "\\tanh(z)",
        }
    }

    /// Its name, as the verdict says it.
    pub fn name(self) -> &'static str {
        match self {
            NamedFunction::Sigmoid => "sigmoid",
            NamedFunction::Tanh => "tanh",
        }
    }
}

/// `Sigmoid function有一个很好的性质：$\phi'(z)=\phi(z)(1-\phi(z))$`, a section titled `Sigmoid
/// 求导性质`: the one function every reader knows by name that the words name (the sigmoid, tanh);
/// `None` where they name none, or both.
pub fn function_named(words: &str) -> Option<NamedFunction> {
    static SIGMOID: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bsigmoid|\blogistic function|\blogistic sigmoid|S\s*[形型]函数|逻辑斯[谛蒂]函数")
            .expect("valid regex")
    });
    static TANH: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)\btanh\b|hyperbolic tangent|双曲正切").expect("valid regex"));
    match (SIGMOID.is_match(words), TANH.is_match(words)) {
        (true, false) => Some(NamedFunction::Sigmoid),
        (false, true) => Some(NamedFunction::Tanh),
        _ => None,
    }
}

/// Do the words around a formula make it a point the sentence speaks of (`the maximum is
/// attained at $x=\mu$`, `evaluated at $t = 0$`, `最大点在$x=\mu$处取得`, `在$t=0$时刻`)? Such an
/// equation gives its letter a value for the sentence, as `if $x = 0$` does, never a meaning
/// for the section: the letter stays free wherever the text speaks in general.
pub fn names_a_point(lead: &str, trail: &str) -> bool {
    let before = lead.rsplit('$').next().unwrap_or_default().trim_end().to_lowercase();
    let mut words = before.rsplit(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty());
    // (`we arrive at $…$`, `look at $…$`: a result reached, a formula looked at.)
    const NO_POINT: &[&str] = &["arrive", "arrives", "arrived", "look", "looks", "looked", "looking", "glance"];
    let english = words.next() == Some("at") && words.next().is_none_or(|w| !NO_POINT.contains(&w));
    let after = trail.trim_start();
    let chinese =
        (before.ends_with('在') || before.ends_with('于')) && ["处", "点", "时"].iter().any(|w| after.starts_with(w));
    english || chinese
}

/// Do the words ask which value makes the formula true (`for what $p$ does $…$`, `at which
/// $x$ is $…$`, `$x$ 取何值时`)? The formula is then an equation to solve, not a claim.
pub fn asks_which_value(lead: &str) -> bool {
    static QUESTION: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(for|at|with)\s+(what|which)(\s+values?\s+of)?\s*\$\s*(does|do|is|are|will|would|can|makes?)\s*$)|((什么|何)\s*(值)?\s*(时|使)\s*$)",
        )
        .expect("valid regex")
    });
    let tail: String = lead.chars().rev().take(80).collect::<Vec<_>>().into_iter().rev().collect();
    QUESTION.is_match(&tail)
}

/// Does the lead make what follows the exception to what the sentence says (`unless $\mu =
/// \bar x$, we have …`, `除非$\mu=\bar{x}$，否则一定有`)? The formula holds where the rest does
/// not: neither a value for the sentence (as `if $x = 1$` gives) nor a claim.
pub fn excepts(lead: &str) -> bool {
    static EXCEPTION: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)(\bunless|\bexcept(\s+(when|if|for|where))?|除非|除了)\s*$").expect("valid regex")
    });
    EXCEPTION.is_match(lead)
}

/// `…; otherwise $h(x) = 1$`, `否则 $h(x)=1$`: the words open another case of a function
/// defined by cases in the prose.
pub fn opens_another_case(lead: &str) -> bool {
    let words = lead.rsplit('$').next().unwrap_or_default();
    let words = words.trim_end().trim_end_matches([',', '，', ':', '：']).trim_end().to_lowercase();
    ["otherwise", "else", "否则", "其他情况", "其它情况", "其余情况", "其他情况下", "其余情况下"]
        .iter()
        .any(|w| words.ends_with(w))
}

/// Do the words right before a formula end in "if and only if" (`iff`, `当且仅当`)? What follows
/// is a condition, never a value given to a letter.
pub fn is_if_and_only_if(lead: &str) -> bool {
    let words = lead.rsplit('$').next().unwrap_or_default().trim_end().to_lowercase();
    words.ends_with("if and only if") || words.ends_with("iff") || words.ends_with("当且仅当")
}

/// Do the words right after a formula make it hold only under a condition (`$E[f(X)] = f(EX)$ if
/// and only if $X$ is constant`, `Equality $…$ holds only when`, `$…$ 当且仅当 …`)? It is the
/// case of equality a theorem describes, not an identity.
pub fn holds_only_when(trail: &str) -> bool {
    static ONLY_WHEN: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^\s*[,，]?\s*(?:(?:holds?|is\s+true|is\s+attained|occurs|is\s+achieved)\s+)?(?:if\s+and\s+only\s+if|iff\b|only\s+if\b|only\s+when\b|exactly\s+when\b|precisely\s+when\b)|^\s*[,，]?\s*(?:成立\s*)?(?:当且仅当|仅当|只有当|只在)",
        )
        .expect("valid regex")
    });
    ONLY_WHEN.is_match(trail)
}

/// Do the words around a formula make it what remains to be proved (`it suffices to show that
/// $…$`, `只需证明 $…$`, `使 $…$ 即可证明`)? A goal is not asserted: what it takes to hold is the
/// proof's to give.
pub fn states_a_goal(lead: &str, trail: &str) -> bool {
    static BEFORE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(it\s+)?suffices\s+to\s+(show|prove|check|verify)|\b(it\s+)?remains\s+to\s+(show|prove)|\bwe\s+(need|have)\s+to\s+(show|prove)|只需证明|只需证|只要证明|只需要证明|还需证明|要证明)(\s+that)?\s*[:：]?\s*$",
        )
        .expect("valid regex")
    });
    static AFTER: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^\s*(即可证明|即可得证|便可证明|就可证明|就可以证明)").expect("valid regex")
    });
    BEFORE.is_match(near_end(lead).trim_end()) || AFTER.is_match(trail)
}

/// Do the words since the previous formula open a worked example (`For example,`, `As another
/// example`, `Returning to our explicit example`, `In this example`, `例如`, `以…为例`)? The
/// letters an example gives values hold from there until the text opens another example or
/// turns general, not for the whole section. Data points called `examples` (plural) open none.
pub fn opens_example(words: &str) -> bool {
    static OPENS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(for (example|instance)|as an? (example|illustration)|(another|our|this|that|these|explicit|concrete|simple|toy|worked|running|quick|following|previous|above|discrete|continuous) example\b|example (above|below|where|in which)\b|e\.\s?g\.)|例如|比如|举例|举个例子|这个例子|此例|该例|为例|例子中",
        )
        .expect("valid regex")
    });
    // At the start of its sentence (`For example, take …`, `Let's look at our example where`,
    // `例如，当…`), not an aside in the middle of one (`…参数，例如可根据式(3.7)解得`).
    static SENTENCE_END: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"[.!?:;](\s|$)|[。！？；：]").expect("valid regex"));
    OPENS.find_iter(words).any(|m| {
        let before = &words[..m.start()];
        let sentence = SENTENCE_END.find_iter(before).last().map_or(before, |end| &before[end.end()..]);
        if m.as_str().is_ascii() {
            sentence.split_whitespace().count() <= 5
        } else if m.as_str() == "为例" {
            sentence.trim_start().starts_with(['以', '拿', '就'])
        } else {
            sentence.trim().chars().count() <= 4
        }
    })
}

/// Do the words since the previous formula turn the text general again (`in general`, `For any
/// random variable`, `for all`, `一般地`, `对任意`)? An example's values end there.
pub fn turns_general(words: &str) -> bool {
    static GENERAL: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(in general|generally|for (any|all|every)|arbitrary)\b|一般地|一般来说|通常|任意|任何|所有的",
        )
        .expect("valid regex")
    });
    GENERAL.is_match(words)
}

/// Do the words right before a formula offer it in passing, as one instance (`relationships
/// like $X = Y^2$`, `such as $f(x) = x^2$`, `e.g. $…$`, `像 $…$`, `诸如 $…$`)? A definition
/// written so holds for its own paragraph only.
pub fn in_passing(lead: &str) -> bool {
    let words = lead.rsplit('$').next().unwrap_or_default();
    let words = words.trim_end().trim_end_matches([',', '，', ':', '：']).trim_end().to_lowercase();
    let last_word = |w: &str| {
        words.ends_with(w) && words[..words.len() - w.len()].chars().last().is_none_or(|c| !c.is_alphanumeric())
    };
    ["like", "such as", "e.g.", "e.g", "for example", "for instance"].iter().any(|w| last_word(w))
        || ["像", "诸如", "例如", "比如", "譬如"].iter().any(|w| words.ends_with(w))
}

/// Do the words around a formula call what it writes small (`for a small $\epsilon$`, `a tiny
/// $h$`, `$\epsilon$ is small`, `对于很小的$h$`, `$h$足够小`)?
pub fn calls_small(lead: &str, trail: &str) -> bool {
    static BEFORE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(small|tiny|infinitesimal|infinitesimally small)|(很|足够|非常|极|较)小的?|微小的?)\s*$",
        )
        .expect("valid regex")
    });
    static AFTER: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)^\s*(is|be|are|being)\s+((very|sufficiently|infinitesimally)\s+)?(small|tiny)\b|^\s*(很|足够|非常|极)小")
            .expect("valid regex")
    });
    let lead = lead.rsplit('$').next().unwrap_or_default();
    BEFORE.is_match(lead.trim_end()) || AFTER.is_match(trail)
}

/// `\epsilon \rightarrow 0`, `h \to 0`: the TeX of the letter that tends to zero.
pub fn tends_to_zero(tex: &str) -> Option<&str> {
    static TENDS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^\s*(\\?[A-Za-z]+)\s*\\(to|rightarrow)\s*0\s*[.,]?\s*$").expect("valid regex")
    });
    TENDS.captures(tex).and_then(|c| c.get(1)).map(|m| m.as_str())
}

/// What the words before a claim say of its random variables' independence: `if $X$ and $Y$
/// are two independent random variables`, `若 $X$ 和 $Y$ 相互独立`, `i.i.d.`, `独立同分布`.
/// Words that deny it or make it conditional (`not independent`, `conditionally independent`,
/// `条件独立`, `不独立`) state nothing.
pub fn independence_stated(lead: &str) -> Option<crate::model::Independence> {
    use crate::model::Independence;
    static IID: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bi\.\s?i\.\s?d\b|independent(ly)? and identically distributed|独立同分布")
            .expect("valid regex")
    });
    static INDEPENDENT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bindependent\b|\bindependence\b|相互独立|独立").expect("valid regex")
    });
    static DENIED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\bnot\b|\bnon-?independent|\bun(less)?\b|\bneither\b|\bnor\b|\bwithout\b|conditional|\bgiven\b|\bdefin|\biff\b|if and only if|不|非|条件|给定|定义|当且仅当",
        )
        .expect("valid regex")
    });
    // The sentence's words after the previous claim-like formula: `$` marks the formulas.
    if DENIED.is_match(lead) {
        return None;
    }
    if IID.is_match(lead) {
        Some(Independence::IndependentIdentical)
    } else {
        INDEPENDENT.is_match(lead).then_some(Independence::Independent)
    }
}

/// Do the words before a formula of bare letters call them numbers (`numbers $a$ and $b$`,
/// `a constant $c$`, `scalars $\alpha, \beta$`, `常数 $a$`)? A lead ending in such a noun, with
/// perhaps earlier letters of the same list between (`numbers $ and`), names them constants.
pub fn names_constants(lead: &str) -> bool {
    static CONSTANTS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(real |fixed |any )?(numbers?|constants?|scalars?|reals)|常数|实数|标量)\s*(\$\s*(,|and|和|与|、|，)\s*)*$",
        )
        .expect("valid regex")
    });
    CONSTANTS.is_match(near_end(lead).trim_end())
}

/// Do the words right after an equation call it a deterministic function (`$Y=aX+b$ as any
/// linear deterministic function of $X$`, `$Y=aX+b$ 是 $X$ 的确定性函数`)? Its small letters are
/// then numbers, not random.
pub fn calls_deterministic(trail: &str) -> bool {
    static DETERMINISTIC: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)^[^.;。；]*\b(deterministic|non-?random)\b|^[^.;。；]*(确定性|非随机)")
            .expect("valid regex")
    });
    DETERMINISTIC.is_match(trail)
}

/// Do the words around a formula of bare letters call them random variables, so that the
/// sentence speaks of any random variables so named, not of a letter an earlier formula defined?
/// Before (`For any random variables $X, Y$`, `任意随机变量 $X$`), with perhaps earlier letters of
/// the same list between; or after (`$X$ and $Y$ are two independent random variables`,
/// `consider $X$ as any random variable`). Events are named the same way (`设$A, B$是两个事件`,
/// `for any events $A$ and $B$`): a letter of an event is a random variable (its indicator).
pub fn names_random_variables(lead: &str, trail: &str) -> bool {
    static BEFORE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)(\brandom variables?|\bevents?|随机变量|事件)\s*(\$\s*(,|and|和|与|、|，)\s*)*$")
            .expect("valid regex")
    });
    static AFTER: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^\s*(are|is|be|as|是|为)\s+((any|all|some|two|three|a|an|arbitrary|independent|identically distributed|real|discrete|continuous|,)\s+)*(random variables?|events?)\b|^\s*(是|为)?\s*(任意|两个|三个|独立的?|互斥的?)*\s*(随机变量|事件)",
        )
        .expect("valid regex")
    });
    BEFORE.is_match(near_end(lead).trim_end()) || AFTER.is_match(trail)
}

/// The last 512 bytes of the words before a formula (cut at a character boundary): what a
/// pattern anchored at their end can match. The whole lead of a formula late in a long paragraph
/// is the paragraph; matching all of it for each formula made a paragraph of thousands of
/// formulas quadratic (the whole-document fuzzer's `tests/data/fuzz/document-many-formulas-in-one-paragraph.md`).
fn near_end(lead: &str) -> &str {
    let mut start = lead.len().saturating_sub(512);
    while !lead.is_char_boundary(start) {
        start += 1;
    }
    &lead[start..]
}

/// The kind of matrix the words around a lone letter call it: before (`for an orthogonal matrix
/// $\mathbf U$`, `正交矩阵$\mathbf U$`), with perhaps earlier letters of the same list between;
/// or after (`$\mathbf Q$ is an orthogonal matrix`, `$\mathbf S$ is symmetric`, `$\mathbf U$是正交矩阵`).
pub fn matrix_class_named(lead: &str, trail: &str) -> Option<crate::sema::scope::MatrixClass> {
    use crate::sema::scope::MatrixClass;
    static NAMED: LazyLock<KindWords> =
        LazyLock::new(|| KindWords::new("orthogonal|orthonormal|symmetric|diagonal", "正交|对称|对角"));
    match NAMED.found(lead, trail)?.to_lowercase().as_str() {
        "orthogonal" | "orthonormal" | "正交" => Some(MatrixClass::Orthogonal),
        "symmetric" | "对称" => Some(MatrixClass::Symmetric),
        "diagonal" | "对角" => Some(MatrixClass::Diagonal),
        _ => None,
    }
}

/// The words that name a kind of matrix around a lone letter: before it (`for an orthogonal
/// matrix $\mathbf U$`, `正交矩阵$\mathbf U$`, perhaps with earlier letters of the same list
/// between), or after it (`$\mathbf Q$ is an orthogonal matrix`, `$\mathbf U$是正交矩阵`).
struct KindWords {
    before: regex::Regex,
    after: regex::Regex,
}

impl KindWords {
    /// `en`, `zh`: the kinds, as regex alternatives.
    fn new(en: &str, zh: &str) -> KindWords {
        // (Emphasis and a gloss in parentheses may follow the noun: `*对称矩阵*（symmetric matrix）`.)
        let before = format!(
            r"(?i)(\b(?P<en>{en})\s+matri(x|ces)|(?P<zh>{zh})矩阵)[*_]*\s*([（(][^）)]*[）)])?[*_]*\s*(\$\s*(,|and|和|与|、|，)\s*)*$"
        );
        let after = format!(
            r"(?i)^\s*(is|be|are)\s+((an?|any|some|two|real|square)\s+)*(?P<en>{en})\b|^\s*(是|为)\s*(一个|任意|两个)?\s*(?P<zh>{zh})(矩阵|的)"
        );
        KindWords {
            before: regex::Regex::new(&before).expect("valid regex"),
            after: regex::Regex::new(&after).expect("valid regex"),
        }
    }

    /// The kind named, as written.
    fn found(&self, lead: &str, trail: &str) -> Option<String> {
        let found = self.before.captures(near_end(lead).trim_end()).or_else(|| self.after.captures(trail))?;
        found.name("en").or_else(|| found.name("zh")).map(|m| m.as_str().to_string())
    }
}

/// A kind of matrix the words around a lone letter name that derivcheck does not construct
/// (`假设随机矩阵$A$`, `for a projection matrix $\mathbf P$`, `$\mathbf A$ is positive definite`):
/// the word, as written. A claim about that letter may hold only for matrices of the kind.
pub fn matrix_kind_unmodelled(lead: &str, trail: &str) -> Option<String> {
    const EN: &str = r"stochastic|doubly\s+stochastic|(?:column|left|sub)(?:\s|-)?stochastic|positive(?:\s|-)(?:semi-?)?definite|negative(?:\s|-)(?:semi-?)?definite|invertible|non-?singular|singular|(?:upper|lower)?(?:\s|-)?triangular|tridiagonal|idempotent|projection|permutation|unitary|hermitian|nilpotent|normal|markov|transition|covariance|positive|non-?negative|full(?:\s|-)rank|low(?:\s|-)rank|skew(?:\s|-)symmetric|antisymmetric|block(?:\s|-)diagonal|toeplitz|circulant|rotation|reflection|householder";
    const ZH: &str = "随机|正定|半正定|负定|半负定|可逆|非奇异|奇异|上三角|下三角|三角|幂等|投影|置换|酉|厄米|埃尔米特|幂零|正规|转移|协方差|满秩|低秩|反对称|斜对称|非负|正|旋转|反射";
    static NAMED: LazyLock<KindWords> = LazyLock::new(|| KindWords::new(EN, ZH));
    NAMED.found(lead, trail)
}

/// Do the words right before a formula name it one of the factors a matrix is decomposed into
/// (`$X$ can be decomposed by singular value decomposition into $U$, $\Sigma$, and $W^\top$`,
/// `分解为 $U$、$\Sigma$ 和 $V^T$`)? The factors of a named decomposition are related as
/// derivcheck does not construct (orthogonal, diagonal): the kind, as the report names it.
pub fn decomposition_factor(lead: &str) -> Option<String> {
    static INTO: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)((decompos|factori[sz]|factored)\w*\b[^$.。]*\binto|分解(为|成))\s*(\$\s*(,|and|, and|和|与|、|，)\s*)*$",
        )
        .expect("valid regex")
    });
    INTO.is_match(near_end(lead).trim_end()).then(|| "factor of a decomposition".to_string())
}

/// The kind of basis (or set of vectors) the words right before a formula call it (`the orthonormal
/// basis $u_1, \ldots, u_N$`, `orthogonal eigenvectors`, `标准正交基`), as written: its members
/// are related as derivcheck does not model (`u_r^\top u_s = \delta_{rs}`).
pub fn basis_kind(lead: &str) -> Option<String> {
    static BASIS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(orthonormal|orthogonal)\s+(basis|bases|vectors|eigenvectors|set|columns)(\s+of\s+\S+)?\s*$|(标准正交基|单位正交基|正交归一基|标准正交向量组|正交基)\s*$",
        )
        .expect("valid regex")
    });
    let found = BASIS.captures(near_end(lead).trim_end())?;
    found.get(0).map(|m| one_spaced(m.as_str()))
}

/// Do the words right after a formula replace it with the next (`$…$ 改为 $…$`, `“$…$”改成`,
/// `$…$ should read $…$`, `$…$ is corrected to`)? An erratum quotes the wrong formula: what it
/// says is not the author's claim.
pub fn replaced_by_next(trail: &str) -> bool {
    static REPLACED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r#"(?i)^[\s"'”’」）)]*(改为|改成|更正为|修改为|修正为|应为|应改为|should (read|be)\b|(is |was )?(changed|corrected) to\b|(is |was )?replaced (by|with)\b)"#,
        )
        .expect("valid regex")
    });
    REPLACED.is_match(trail)
}

/// Do the words right before a formula deny it (`this does not mean $…$`, `it is not true that
/// $…$`, `这里并不是指 $…$`, `不是 $…$`), or is it struck through (`~~ … $…$`: an odd number of
/// `~~` before it in its paragraph)? The text says it does not hold: no claim that it does.
pub fn denies(lead: &str) -> bool {
    static DENIED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(does|do|did|is|are|was|were|need|needs|must|should|will|would|can|could)\s*(not|n't)\s+(\w+\s+){0,2}?(mean|imply|implies|say|follow|hold|true|the\s+case)(\s+in\s+general)?(\s+that)?|\bit\s+is\s+not\s+true\s+that|\bnot\s+that|(并不是指|不是指|并不是说|不是说|并不意味着|不意味着|并非|并不是|不能写成|而不是))\s*[:：,，]?\s*$",
        )
        .expect("valid regex")
    });
    let near = near_end(lead);
    DENIED.is_match(near.trim_end()) || lead.matches("~~").count() % 2 == 1
}

/// Words between two formulas that only continue a list (`$X$ and $Y$`, `$X$, $Y$`).
pub fn continues_a_list(trail: &str) -> bool {
    matches!(trail.trim(), "," | "and" | ", and" | "和" | "与" | "、" | "，" | "or")
}

/// A number the words right after a lone letter give it: `$\gamma$ to 0.9.`, `$\eta$ is set
/// to 0.1,`, `$\gamma$设置为0.9。`. The number must end the phrase (`to 0.9 times` gives none).
pub fn value_in_words(trail: &str) -> Option<String> {
    static VALUE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"^\s*(?:is set to|is fixed to|set to|equal to|equals|to|设置为|设为|设定为|取为|等于|为)\s*(-?\d+(?:\.\d+)?)\s*(?:$|[,;:)，。；、]|\.(?:\s|$)|and\b|和|且)",
        )
        .expect("valid regex")
    });
    VALUE.captures(trail).and_then(|c| c.get(1)).map(|m| m.as_str().to_string())
}

/// Does the prose before a derivation say it substitutes equations written elsewhere (`将式(6.9)和
/// 式(6.10)代入`, `substituting (3.4) into …`, `plugging in :eqref:`…``)? Its links may then rest on
/// them, and derivcheck does not have them.
pub fn substitutes_elsewhere(context: &str) -> bool {
    static SUBSTITUTE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)代入|带入|代回|联立|substitut|plug(ging)?\s+(it\s+)?in|using\s+(eq|equation)")
            .expect("valid regex")
    });
    static REFERENCE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)式\s*[（(]?\s*\d|\beq(uation)?s?\.?\s*[（(]?\s*\d|[（(]\d+\.\d+[）)]|:eqref:")
            .expect("valid regex")
    });
    let tail: String = {
        let chars: Vec<char> = context.chars().collect();
        chars[chars.len().saturating_sub(400)..].iter().collect()
    };
    SUBSTITUTE.is_match(&tail) && REFERENCE.is_match(&tail)
}

/// What the words right after a formula give as its reason, where they say what a letter is
/// (`since $D$ is symmetric`, `，由于 $A$ 是对称矩阵`; `trail` with the formulas in it between `$`):
/// the formula rests on that, as on a supposition made before it. The clause, as written.
pub fn reason_after(trail: &str) -> Option<String> {
    static SINCE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)^[\s,，.]*((since|because)\b|由于|因为)[^.。;；!?！？]*").expect("valid regex")
    });
    let clause = SINCE.find(trail)?.as_str().trim_start_matches([' ', ',', '，', '.']).trim_end();
    (SAYS_WHAT.is_match(clause) && clause.contains('$')).then(|| one_spaced(&clause.replace('$', " ")))
}

/// `words` with each run of whitespace one space.
fn one_spaced(words: &str) -> String {
    words.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Do the words right before the formula introduce notation (`记为`, `记作`, `简记为`, `denoted by`,
/// `denoted as`, `we denote it by`)? What follows names something; it claims nothing.
pub fn names_notation(lead: &str) -> bool {
    static NOTATION: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(记为|记作|记成|记做|\bdenoted(\s+(by|as))?|\bdenote\s+(it|this|them)\s+(by|as))[\s,，:：]*$",
        )
        .expect("valid regex")
    });
    NOTATION.is_match(lead)
}

/// Is the formula what the words substitute into another (`将 $…$ 代入上式`, `把 $…$ 带入`,
/// `substituting $…$ into`, `plugging $…$ into`)? A relation so applied is already known: not a
/// claim of its own.
pub fn substituted(lead: &str, trail: &str) -> bool {
    static BEFORE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)(将|把|\b(substitut(e|ing)|plug(ging)?|inserting|insert))\s*$").expect("valid regex")
    });
    static AFTER: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)^\s*(代入|带入|代回|\binto\b|\bin\b)").expect("valid regex"));
    BEFORE.is_match(lead) && AFTER.is_match(trail)
}

/// Do the words before a derivation say it writes one letter for another (`使用 $g_t$ 代替
/// $\tilde c_t$`, `we use $g_t$ in place of $\tilde c_t$`, `replacing $\tilde c_t$ by $g_t$`)?
/// Its links may then rest on that renaming, which no formula states.
pub fn renames_in_words(context: &str) -> bool {
    static RENAMING: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\$\s*(代替|替代|取代|替换|instead of|in place of)\s*\$|(replac\w*|用)\s*\$\s*(by|with|换成|替换为)\s*\$",
        )
        .expect("valid regex")
    });
    let tail: String = {
        let chars: Vec<char> = context.chars().collect();
        chars[chars.len().saturating_sub(200)..].iter().collect()
    };
    RENAMING.is_match(&tail)
}

/// The words a formula writes as text (`\textrm{ where }`, `\text{and hence}`, `\quad\text{若}`),
/// joined by spaces: the lead of the relation after them.
pub fn words_in_formula(tex: &str) -> String {
    static TEXT: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"\\(?:text|textrm|mathrm|mbox|textit|textbf|operatorname)\s*\{([^{}]*)\}")
            .expect("valid regex")
    });
    let words: Vec<&str> =
        TEXT.captures_iter(tex).filter_map(|c| c.get(1)).map(|m| m.as_str().trim()).filter(|w| !w.is_empty()).collect();
    words.join(" ")
}

/// A number, π, e, or arithmetic and functions of them: a side that names no letter.
/// `bound` says which letters have a value here (a binding in force).
pub fn is_constant(e: &Expr, bound: &dyn Fn(&str) -> bool) -> bool {
    match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Symbol(s) => {
            let key = s.key();
            matches!(key.as_str(), "\\pi" | "e" | "\\mathrm{e}") || bound(&key)
        }
        ExprKind::Subscript { .. } => e.symbol_key().is_some_and(|k| bound(&k)),
        ExprKind::Neg { .. }
        | ExprKind::Frac { .. }
        | ExprKind::Sqrt { .. }
        | ExprKind::Power { .. }
        | ExprKind::Fenced { .. } => e.children().all(|c| is_constant(c, bound)),
        ExprKind::Binary { op, .. } if *op != BinOp::Hadamard => e.children().all(|c| is_constant(c, bound)),
        ExprKind::Apply { args, .. } => !args.is_empty() && args.iter().all(|a| is_constant(a, bound)),
        // `\int_0^1 y e^{-y^2}\,dy`: its variable is bound; constant limits make it a number.
        ExprKind::BigOp { op, lower: Some(lower), upper: Some(upper), body: Some(body) } if op.is_integral() => {
            let vars = crate::syntax::ast::integration_letters(op, Some(body));
            let inner = |k: &str| vars.iter().any(|v| v == k) || bound(k);
            let limit = |l: &Expr| is_constant(l, bound) || crate::syntax::ast::infinite_limit(l).is_some();
            limit(lower) && limit(upper) && is_constant(body, &inner)
        }
        ExprKind::Differential { operand } => is_constant(operand, bound),
        _ => false,
    }
}

/// The letter a binding gives a value to: `x`, `\eta`, `x_1`, `\mathbf v_0`, `\mu_X`, `\sigma^2`
/// (σ² itself); bars (adjoints) never. Gives its key.
pub fn value_target(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar) && !s.is_bold_one() => Some(s.key()),
        ExprKind::Subscript { base, .. } if matches!(&base.kind, ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar)) => {
            e.symbol_key()
        }
        ExprKind::Power { base, exponent } => match &exponent.kind {
            ExprKind::Number { value } => value_target(base).map(|k| format!("{k}^{value}")),
            _ => None,
        },
        _ => None,
    }
}

/// A value written out: a matrix or vector of entries (`\begin{bmatrix}1&2\end{bmatrix}`,
/// `[1,2,3]^\top`), a number. Given to a letter, it is an example, never a claim about the
/// letter's earlier meaning.
pub fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Matrix { env, .. } => env.ends_with("matrix"),
        ExprKind::Transpose { operand } => is_literal(operand),
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "[" || open == "(" => {
            matches!(&inner.kind, ExprKind::Tuple { items, .. } if items.iter().all(|i| is_constant(i, &|_| false)))
        }
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => is_literal(operand),
        _ => false,
    }
}

/// `\begin{bmatrix}5&4\\5&5\end{bmatrix}`: a matrix written out whose every entry is a number (or
/// arithmetic of numbers).
pub fn is_number_matrix(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Matrix { env, rows } if env.ends_with("matrix") && !rows.is_empty()
    && rows.iter().flatten().all(|entry| entry.as_ref().is_some_and(|statement| {
        matches!(statement.chains.as_slice(), [chain] if chain.links.is_empty()
            && chain.first.as_ref().is_some_and(|e| is_constant(e, &|_| false)))
    })))
}

/// `[a, b]` with two items, the way intervals are written (`[0.7, 1.3]`, `[a_{11}-r_1,
/// a_{11}+r_1]`): an interval or a row of two? derivcheck does not guess.
pub fn is_interval_like(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Fenced { open, close, inner: Some(inner) } => {
            (open == "[" || close == "]" || close == "[" || open == "]")
                && matches!(&inner.kind, ExprKind::Tuple { items, .. } if items.len() == 2)
        }
        _ => false,
    }
}

/// `u = u(x)`, `y = y(t)`, `f(x) = f`, `t_1 = t_1(y_{i-1}=1, y_i=2, x, i)`: a letter equated to
/// itself applied to variables (or to variables given values) says that it depends on them
/// (设 $u=u(x)$), not that a number equals a product.
pub fn declares_dependence(chain: &crate::syntax::ast::Chain) -> bool {
    let (Some(first), [link]) = (&chain.first, chain.links.as_slice()) else { return false };
    // (A letter, or one with an index: `t_1`, `y_{i-1}`; not `A_{m \times n}`, a size.)
    let index = |i: &Expr| match &i.kind {
        ExprKind::Symbol(_) | ExprKind::Number { .. } => true,
        ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
            matches!(lhs.kind, ExprKind::Symbol(_)) && matches!(rhs.kind, ExprKind::Number { .. })
        }
        _ => false,
    };
    let letter = |e: &Expr| match &e.kind {
        ExprKind::Symbol(_) => true,
        ExprKind::Subscript { base, index: i } => matches!(base.kind, ExprKind::Symbol(_)) && index(i),
        _ => false,
    };
    let given = |c: &crate::syntax::ast::Chain| {
        let value = c.links.len() == 1 && is_literal(&c.links[0].rhs);
        c.first.as_ref().is_some_and(letter) && (c.links.is_empty() || value)
    };
    let variable = |a: &Expr| match &a.kind {
        ExprKind::Relation { chain } => given(chain),
        // (`(y_{i-1}=1, y_i=2, x, i)`: the relations and letters are kept as one statement.)
        ExprKind::Statement { statement } => statement.chains.iter().all(given),
        _ => letter(a),
    };
    let applied_to_itself = |bare: &Expr, applied: &Expr| {
        if !letter(bare) {
            return false;
        }
        // (`t_1(…)`: a subscripted letter before parentheses is parsed as a product.)
        let (head, args): (&Expr, Vec<&Expr>) = match &applied.kind {
            ExprKind::Call { func, args, .. } => (func, args.iter().collect()),
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => match &rhs.kind {
                ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" || open == "\\left(" => {
                    let items = match &inner.kind {
                        ExprKind::Tuple { items, .. } => items.iter().collect(),
                        _ => vec![inner.as_ref()],
                    };
                    (lhs, items)
                }
                _ => return false,
            },
            _ => return false,
        };
        args.into_iter().all(variable) && head.symbol_key().is_some() && head.symbol_key() == bare.symbol_key()
    };
    applied_to_itself(first, &link.rhs) || applied_to_itself(&link.rhs, first)
}

/// A chain whose every side is an interval written with the same brackets (`[a, b] = [c, d]`):
/// equal exactly when the endpoints are, so it is checked as the pair of endpoints.
pub fn intervals_compared(chain: &crate::syntax::ast::Chain) -> bool {
    let brackets = |e: &Expr| match &e.kind {
        ExprKind::Fenced { open, close, .. } if is_interval_like(e) => Some((open.clone(), close.clone())),
        _ => None,
    };
    let sides: Vec<Option<(String, String)>> = chain.exprs().map(brackets).collect();
    sides.len() >= 2 && sides[0].is_some() && sides.iter().all(|b| *b == sides[0])
}

/// A bold or arrowed letter (`\mathbf A`, `\vec v`): written as a vector or matrix.
pub fn is_bold(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.style == Some(Style::Bold) || s.accents.contains(&Accent::Vec))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::syntax::first_side as first;

    #[test]
    fn an_enumerator_alone_opens_an_item() {
        for lead in ["(2) ", "（3）", "3.", "3) ", "3、", "(b)", "②", "(iv)"] {
            assert!(opens_item(lead), "{lead}");
        }
        for lead in ["", "(2) we have ", "Since (2)", "2x", "(12345)"] {
            assert!(!opens_item(lead), "{lead}");
        }
    }

    #[test]
    fn a_deterministic_function_has_numbers_for_its_small_letters() {
        assert!(calls_deterministic(" as any linear deterministic function of "));
        assert!(calls_deterministic(" 是 X 的确定性函数"));
        assert!(!calls_deterministic(" is random. It is deterministic elsewhere"));
    }

    #[test]
    fn an_erratum_quotes_the_formula_it_replaces() {
        for trail in [" 改为 ", "”改为“", " should read ", " is corrected to ", "\" was replaced by "] {
            assert!(replaced_by_next(trail), "{trail}");
        }
        for trail in [" holds, so", "，因此", " and we change to", " 改进了"] {
            assert!(!replaced_by_next(trail), "{trail}");
        }
    }

    #[test]
    fn the_nearest_cue_word_decides() {
        let cases = [
            ("Next, we use", Cue::Define),
            ("we use $ as the initial value and assume", Cue::Condition),
            ("when we set the learning rate to", Cue::Define),
            ("which are those matrices where", Cue::Condition),
            ("To find the associated vectors, we then need to solve", Cue::Solve),
            ("If we do so, we find that", Cue::Assert),
            ("we find that the roots solve", Cue::Solve),
            ("This yields the linear system", Cue::Solve),
            ("we see this is equivalent to the polynomial equation", Cue::Solve),
            ("Thus, we have", Cue::Assert),
            ("Conversely, the function", Cue::Define),
            ("Thus, if we call the length of this interval $, we can say", Cue::Assert),
            ("As discussed in that section, we fix this by use the fact that", Cue::Assert),
            ("设", Cue::Define),
            ("因此", Cue::Assert),
            ("若", Cue::Condition),
            ("除非", Cue::Condition),
            ("so the two differ unless", Cue::Condition),
            ("我们需要求解", Cue::Solve),
            ("If $, then", Cue::Assert),
            ("当$时，", Cue::None),
            ("", Cue::None),
            ("The derivative of the sigmoid is", Cue::None),
            ("Here we used", Cue::Assert),
            ("在这里我们使用了", Cue::Assert),
        ];
        for (lead, want) in cases {
            assert_eq!(cue(lead), want, "{lead}");
        }
    }

    #[test]
    fn a_renaming_in_words() {
        assert!(renames_in_words("现为了区分$ 和 $，使用 $ 代替 $："));
        assert!(renames_in_words("We write $ in place of $ from now on:"));
        assert!(renames_in_words("replacing $ by $, we get"));
        assert!(!renames_in_words("We use $ and $ to get"));
    }

    #[test]
    fn a_supposition_counts_the_formulas_after_it() {
        let cases = [
            ("然后，假设$的第$列可以表示为其他$列的线性组合：", Some(3)),
            ("Suppose that column $ of $ is a linear combination of the others:", Some(2)),
            ("The norm of the vector is", None),
            ("We assume it", Some(0)),
            ("Without the supposition,", None),
            // (Separators of several bytes before the word: issue 47's panic.)
            ("problem: $ 参数 假设$是集合：suppose that $ has $", Some(2)),
            ("参数：，suppose that $", Some(1)),
        ];
        for (lead, want) in cases {
            assert_eq!(formulas_after_supposition(lead), want, "{lead}");
        }
    }

    #[test]
    fn independence_the_words_state() {
        use crate::model::Independence;
        let stated = |lead: &str| independence_stated(lead);
        assert_eq!(
            stated("If we have two *independent* random variables $ and $ , we have"),
            Some(Independence::Independent)
        );
        assert_eq!(stated("若$与$相互独立，则"), Some(Independence::Independent));
        assert_eq!(stated("for i.i.d. samples $ we have"), Some(Independence::IndependentIdentical));
        assert_eq!(stated("若$独立同分布，则"), Some(Independence::IndependentIdentical));
        assert_eq!(stated("If $ and $ are not independent,"), None);
        assert_eq!(stated("conditionally independent given $ if and only if"), None);
        assert_eq!(stated("若$与$不独立，"), None);
        assert_eq!(stated("we have"), None);
    }

    #[test]
    fn letters_the_words_call_numbers() {
        assert!(names_constants("For any random variable $ and numbers"));
        assert!(names_constants("For any random variable $ and numbers $ and"));
        assert!(names_constants("for a constant"));
        assert!(names_constants("对任意随机变量$和常数$、"));
        assert!(!names_constants("the numbers of samples is"));
        assert!(!names_constants("For any random variable"));
    }

    #[test]
    fn letters_the_words_call_random_variables() {
        assert!(names_random_variables("For any random variable", ""));
        assert!(names_random_variables("For any random variables $ ,", ""));
        assert!(names_random_variables("对任意随机变量", ""));
        assert!(names_random_variables("Recall that if $ and", " are two independent random variables then"));
        assert!(names_random_variables("consider", " as any random variable, and"));
        assert!(names_random_variables("若", "是两个独立的随机变量"));
        assert!(!names_random_variables("the random variable is", ""));
        assert!(!names_random_variables("like", " where"));
        assert!(!names_random_variables("For any random variable $ and numbers", ""));
        assert!(continues_a_list(" and ") && continues_a_list(", ") && !continues_a_list(" where "));
    }

    #[test]
    fn dependence_and_if_and_only_if() {
        let chain = |tex: &str| crate::syntax::parse_formula(tex).unwrap().chains.remove(0);
        assert!(declares_dependence(&chain("u=u(x)")));
        assert!(declares_dependence(&chain("y(t) = y")));
        assert!(!declares_dependence(&chain("r(A_{m \\times n}) = r")));
        assert!(!declares_dependence(&chain("u = v(x)")));
        assert!(declares_dependence(&chain("t_1=t_1(y_{i-1}=1,y_i=2,x,i)")));
        assert!(!declares_dependence(&chain("t_1=t_2(y_{i-1}=1,x)")));
        assert!(!declares_dependence(&chain("t_1=t_1(x+1)")));
        assert!(is_if_and_only_if("2. 当且仅当") && is_if_and_only_if("is zero if and only if"));
        assert!(!is_if_and_only_if("if") && !is_if_and_only_if("当"));
    }

    #[test]
    fn words_after_a_formula_that_make_it_hold_only_when() {
        for trail in [" 当且仅当 $", " if and only if $", " holds only when $", ", iff $", "成立当且仅当"] {
            assert!(holds_only_when(trail), "{trail}");
        }
        for trail in [" holds for every $", " when $", " and only $", " 时成立"] {
            assert!(!holds_only_when(trail), "{trail}");
        }
    }

    #[test]
    fn words_that_make_a_formula_what_remains_to_prove() {
        assert!(states_a_goal("It suffices to show that", ""));
        assert!(states_a_goal("It remains to prove", ""));
        assert!(states_a_goal("只需证明", ""));
        assert!(states_a_goal("使用性质3.a，使", "即可证明。"));
        assert!(!states_a_goal("We show that", " holds"));
        assert!(!states_a_goal("则", "即可得到"));
    }

    #[test]
    fn words_that_deny_a_formula() {
        for lead in [
            "Note: this does not mean",
            "It does not hold in general that",
            "it is not true that",
            "**注意**：这里并不是指",
            "这并不意味着",
            "Note ~~the rule",
        ] {
            assert!(denies(lead), "{lead}");
        }
        for lead in ["Note that", "This means", "不难看出", "It holds that", "~~struck~~ then"] {
            assert!(!denies(lead), "{lead}");
        }
    }

    #[test]
    fn kinds_of_matrix_the_words_name() {
        use crate::sema::scope::MatrixClass;
        let named = |lead: &str, trail: &str| matrix_class_named(lead, trail);
        assert_eq!(named("Prove that for an orthogonal matrix", " and a vector"), Some(MatrixClass::Orthogonal));
        assert_eq!(named("for orthogonal matrices $ and", ""), Some(MatrixClass::Orthogonal));
        assert_eq!(named("证明对于正交矩阵", "和向量"), Some(MatrixClass::Orthogonal));
        assert_eq!(
            named("作为方阵的一种特殊类型，[***对称矩阵*（symmetric matrix）", "等于其转置"),
            Some(MatrixClass::Symmetric)
        );
        assert_eq!(
            named("$ 作为方阵的一种特殊类型，[对称矩阵（symmetric matrix）", "等于其转置："),
            Some(MatrixClass::Symmetric)
        );
        assert_eq!(named("Where", " is a symmetric matrix,"), Some(MatrixClass::Symmetric));
        assert_eq!(named("since", " is a diagonal matrix"), Some(MatrixClass::Diagonal));
        assert_eq!(named("设", "是对称矩阵"), Some(MatrixClass::Symmetric));
        assert_eq!(named("the symmetric matrix is", ""), None);
        assert_eq!(named("a matrix", " whose columns are orthogonal"), None);
        assert_eq!(named("Let", " be a matrix"), None);
        // Kinds not constructed; a stochastic one is built to verify only (`check::readings`),
        // rows summing to one: the column, doubly and sub-stochastic ones are kinds of their own.
        let kind = |lead: &str, trail: &str| matrix_kind_unmodelled(lead, trail);
        assert_eq!(kind("Suppose that", " is stochastic and"), Some("stochastic".into()));
        assert_eq!(kind("for a doubly stochastic matrix", ""), Some("doubly stochastic".into()));
        assert_eq!(kind("Let the column-stochastic matrix", ""), Some("column-stochastic".into()));
        assert_eq!(kind("Suppose", " is left stochastic"), Some("left stochastic".into()));
        assert_eq!(kind("a substochastic matrix", ""), Some("substochastic".into()));
    }

    #[test]
    fn what_the_words_let_be_suppose_and_write_as_a_combination() {
        // Leads as `notes` records them: each formula before this one a `$`.
        assert!(lets("当 $ 时，我们令 "));
        assert!(lets("Let $ and "));
        assert!(lets("令"));
        assert!(!lets("设 $ 且 $，令 $"), "a display after the sentence that let the formula before");
        assert!(!lets("Let $. Then"));
        assert!(!lets("a name spelled with the set, "), "a set is no verb");
        assert_eq!(supposed_in_words("的一个基，如果它是标准正交基，由于 ").as_deref(), Some("如果它是标准正交基"));
        assert_eq!(
            supposed_in_words("If the basis is orthonormal, then ").as_deref(),
            Some("If the basis is orthonormal")
        );
        assert_eq!(supposed_in_words("If we expand the square, we get "), None);
        assert_eq!(supposed_in_words(" is invertible if and only if "), None);
        assert_eq!(supposed_in_words("若干次迭代后为 "), None);
        let formula_in_the_clause =
            "Note that if we initialize $ we have some bias. This can be addressed by using that";
        assert_eq!(supposed_in_words(formula_in_the_clause), None);
        let of = |c: &str| supposed_of_formulas(c).map(|r| c[r].to_string());
        assert_eq!(of("假设$和$都是零值的。利用等式$就得到了:").as_deref(), Some("假设$和$都是零值的"));
        assert_eq!(of("Assume $ is zero, then ").as_deref(), Some("Assume $ is zero, then "));
        assert_eq!(of("Assume $. Then"), None, "the formula says it");
        assert_eq!(reason_after(" since $D$ is symmetric.").as_deref(), Some("since D is symmetric"));
        assert_eq!(reason_after("，由于 $A$ 是对称矩阵。").as_deref(), Some("由于 A 是对称矩阵"));
        assert_eq!(reason_after(" since we differentiate twice."), None);
        assert_eq!(reason_after(" since the square is easy."), None, "no letter it speaks of");
        assert_eq!(reason_after(". Since then"), None);
        assert!(names_notation("服从自由度为n的 $ 分布，记为"));
        assert!(names_notation("which is denoted by"));
        assert!(!names_notation("记为正数的"));
        assert!(expresses_as("也可以由 $ 的线性组合表示出来"));
        assert!(expresses_as("can be written as a linear combination of the basis"));
        assert!(!expresses_as("令对数几率为特征 $ 的线性组合函数，则有"));
        assert!(!expresses_as("绝对值损失函数表示为"), "a name for a formula, no coefficients");
        assert!(!expresses_as("计算神经元 $ 的输入加权和："), "one computed");
    }

    #[test]
    fn a_reference_to_a_numbered_equation_is_read() {
        assert!(substitutes_elsewhere("substituting eq. (3) into the loss"));
    }

    #[test]
    fn substitutions_of_equations_written_elsewhere() {
        assert!(substitutes_elsewhere("因此将式(6.9)和式(6.10)代入式(6.8)后即可得最小值"));
        assert!(substitutes_elsewhere("Substituting (3.4) into the loss gives"));
        assert!(substitutes_elsewhere("plugging in :eqref:`eq_w` we get"));
        assert!(!substitutes_elsewhere("Substituting the definition of the mean gives"));
        assert!(!substitutes_elsewhere("由式(6.9)可知"));
    }

    #[test]
    fn values_given_in_words() {
        assert_eq!(value_in_words(" to 0.9. That is,").as_deref(), Some("0.9"));
        assert_eq!(value_in_words("设置为0.9。").as_deref(), Some("0.9"));
        assert_eq!(value_in_words(" is set to 0.1, and").as_deref(), Some("0.1"));
        assert_eq!(value_in_words(" to 0.9 times the rate"), None);
        assert_eq!(value_in_words(" tends to 0"), None);
        assert_eq!(value_in_words(" to 10%"), None);
    }

    #[test]
    fn words_written_inside_a_formula() {
        assert_eq!(words_in_formula(r", \textrm{ where } "), "where");
        assert_eq!(words_in_formula(r"\quad\text{and hence}\quad"), "and hence");
        assert_eq!(words_in_formula(r", \quad "), "");
    }

    #[test]
    fn worked_examples_open_and_end_in_words() {
        for words in [
            "For example, take",
            "Let's look at our example where",
            "As another example, consider",
            "Returning to our explicit discrete example above, we can see that",
            "例如，当梯度",
            "以线性回归为例",
        ] {
            assert!(opens_example(words), "{words}");
        }
        // Data points are `examples` too: the plural opens none; nor does an aside in the middle
        // of a sentence.
        for words in [
            "Given a dataset of n examples",
            "a minibatch of training examples",
            "例外",
            "闭式解是指可以通过具体的表达式解出待解参数，例如可根据式(3.7)直接解得",
            "This function is convex, as we can see in the following plot for example where",
        ] {
            assert!(!opens_example(words), "{words}");
        }
        for words in ["In general,", "For any random variables", "for all", "一般地，", "对任意"] {
            assert!(turns_general(words), "{words}");
        }
        assert!(!turns_general("In this case"));
        for lead in ["More complex relationships like", "functions such as", "e.g.", "比如"] {
            assert!(in_passing(lead), "{lead}");
        }
        for lead in ["it looks likely", "In this case", "unlike"] {
            assert!(!in_passing(lead), "{lead}");
        }
    }

    #[test]
    fn letters_the_words_call_small() {
        assert!(calls_small("For a small", ""));
        assert!(calls_small("$ is differentiable; for a small", ""));
        assert!(!calls_small("For a small $ and", ""));
        assert!(calls_small("对于很小的", ""));
        assert!(calls_small("we know that", " is small, so"));
        assert!(calls_small("当", "足够小时"));
        assert!(!calls_small("a smaller", ""));
        assert!(!calls_small("for a large", " is large"));
        assert_eq!(tends_to_zero(r"\epsilon \rightarrow 0"), Some(r"\epsilon"));
        assert_eq!(tends_to_zero(r"h\to 0"), Some("h"));
        assert_eq!(tends_to_zero(r"n \to \infty"), None);
    }

    #[test]
    fn conditions_in_so_many_words() {
        assert!(is_conditional("As a simple example, for"));
        assert!(is_conditional("举一个简单的例子，对于"));
        assert!(is_conditional("If"));
        assert!(!is_conditional("The estimate is biased unless"));
        for lead in ["除非", "The estimate is biased unless", "Unless", "It holds except when"] {
            assert!(excepts(lead), "{lead}");
        }
        assert!(!excepts("unless stated otherwise, the matrix"));
        assert!(!is_conditional("With"));
        assert!(!is_conditional("For instance, take"));
        assert!(!is_conditional("Given a convex hyperbolic cosine function"));
        assert!(!is_conditional("where"));
        assert!(!is_conditional("If $, then"));
        assert!(!is_conditional("The value for $e$ is given by the following limit:"));
    }

    #[test]
    fn constants_targets_and_literals() {
        let none = |_: &str| false;
        assert!(is_constant(&first("28^2"), &none));
        assert!(is_constant(&first("\\frac{1}{2}+\\pi"), &none));
        assert!(!is_constant(&first("1-\\beta"), &none));
        assert!(is_constant(&first("1-\\beta"), &|k| k == "\\beta"));
        assert_eq!(value_target(&first("\\mathbf{v}_0")).as_deref(), Some("v_0"));
        assert!(value_target(&first("\\sigma^2")).is_some());
        assert!(value_target(&first("\\bar x")).is_none());
        assert!(value_target(&first("2x")).is_none());
        assert!(is_literal(&first("\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}")));
        assert!(is_literal(&first("[1,2,3]^\\top")));
        assert!(!is_literal(&first("XW")));
        assert!(is_interval_like(&first("[0.7, 1.3]")));
        assert!(!is_interval_like(&first("[x]")));
    }
}
