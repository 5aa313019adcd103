//! Every word a report shows, in English and Chinese: the labels ([`Words`]) and the sentence for
//! each [`Reason`] ([`describe`]). A `match` over every variant in each language: a reason
//! without its sentence in either table does not compile.

use super::Lang;
use crate::model::{ExampleEntry, Method, NotRead, Reading, Reason};

/// The labels of the text report.
pub struct Words {
    pub verified: &'static str,
    pub refuted: &'static str,
    pub undecided: &'static str,
    pub symbolic: &'static str,
    pub numeric: &'static str,
    /// Floats alone, integrals by quadrature.
    pub quadrature: &'static str,
    /// Probabilities on random joint distributions.
    pub distributions: &'static str,
    /// A power series compared through its written order.
    pub series: &'static str,
    pub both: &'static str,
    pub rounded: &'static str,
    /// Randomized exact identity testing, and "error ≤" before its bound.
    pub randomized: &'static str,
    pub error_at_most: &'static str,
    pub not_parsed: &'static str,
    pub summary: &'static str,
    pub formulas: &'static str,
    pub parsed: &'static str,
    pub claims: &'static str,
    /// Formula roles in the summary.
    pub with_claims: &'static str,
    pub definitions: &'static str,
    pub mentions: &'static str,
    pub printed_numbers: &'static str,
    pub ignored: &'static str,
    pub not_checked: &'static str,
    pub bindings: &'static str,
    pub conditions: &'static str,
    /// The verdict column of a relation the words make a condition (not a claim).
    pub condition: &'static str,
    pub example_definitions: &'static str,
    pub worked_example: &'static str,
    /// Before the spec's assumptions a verdict used.
    pub assuming: &'static str,
    pub max_difference: &'static str,
    pub tolerance: &'static str,
    pub printed: &'static str,
    pub backward: &'static str,
    pub finite_differences: &'static str,
    pub warning: &'static str,
    pub note: &'static str,
    /// "`x` defined again at L (shadowing the definition at E)".
    pub defined_again: &'static str,
    pub shadowing: &'static str,
    /// The notes stage's warnings: a lone `$`; an unknown mark ({word}, {known}); a mark with
    /// no formula after it ({mark}).
    pub lone_dollar: &'static str,
    pub unknown_mark: &'static str,
    pub unused_mark: &'static str,
    /// A formula that does not parse ({id}, {error}).
    pub does_not_parse: &'static str,
    /// Diagnostics past the cap ({warnings}, {formulas}).
    pub more_diagnostics: &'static str,
    /// Before a refuted claim's verified repair.
    pub did_you_mean: &'static str,
    /// `check` without a spec: how the notes are read.
    pub no_spec_note: &'static str,
    /// A book's total line: `total: 12 inputs (1 could not be checked), …`.
    pub total: &'static str,
    pub inputs: &'static str,
    pub could_not_be_checked: &'static str,
    /// A chapter of a book that could not be checked, after its path.
    pub not_checked_see_above: &'static str,
    /// A file whose check failed inside derivcheck (a panic), before the message.
    pub internal_error: &'static str,
    /// `-v`: the chapter being checked, the claim being mutated; the progress bar's unit.
    pub checking: &'static str,
    pub mutating: &'static str,
    pub files: &'static str,
    /// `--verbose`: "of" and "claim(s) from the cache" around the counts.
    pub of: &'static str,
    pub from_the_cache: &'static str,
    /// Watch mode: before and after the watched path; a verdict that changed, a claim gone;
    /// a folder that cannot be watched.
    pub watching: &'static str,
    pub for_changes: &'static str,
    pub newly: &'static str,
    pub gone: &'static str,
    pub cannot_watch: &'static str,
    /// The mdBook preprocessor's closing line: `2 claim(s) refuted, 1 chapter(s) could not be
    /// checked`.
    pub claims_refuted: &'static str,
    pub chapters_not_checked: &'static str,
    /// `--strict`: why a clean run still fails.
    pub strict: &'static str,
    /// Before a message that stops a run.
    pub error: &'static str,
    /// `--verbose`: after the count of exact-work processes started.
    pub exact_workers: &'static str,
    /// Around the lock file's path while another process does its CAS work.
    pub cas_wait: (&'static str, &'static str),
    /// Inputs that cannot be read: after the path ({limit} in bytes).
    pub cannot_read: &'static str,
    pub not_utf8: &'static str,
    pub too_large: &'static str,
    pub no_notes: &'static str,
    pub not_a_notebook: &'static str,
    pub in_cell: &'static str,
    /// A reading through recurrences ({recurrences}, {lag}), vectors coordinate by coordinate,
    /// and a trailing `\ldots` as older terms ({lag}); see [`Words::unrolled`].
    pub unrolled_words: (&'static str, &'static str, &'static str),
}

impl Words {
    /// How a claim was read through recurrences: `` `s_t \leftarrow …` unrolled to lag 2,
    /// vectors read coordinate by coordinate … ``.
    pub fn unrolled(&self, u: &crate::model::Unrolled) -> String {
        let (unrolled, coordinatewise, older) = self.unrolled_words;
        let mut out = unrolled.replace("{recurrences}", &u.recurrences.join(", ")).replace("{lag}", &u.lag.to_string());
        if u.coordinatewise {
            out.push_str(coordinatewise);
        }
        if let Some(k) = u.older_than {
            out.push_str(&older.replace("{lag}", &k.to_string()));
        }
        out
    }

    /// The method's label; a randomized one with its error bound (`randomized exact, error ≤ 2^-120`).
    pub fn method(&self, method: Option<Method>, error_bound_log2: Option<f64>) -> String {
        match method {
            Some(Method::Symbolic) => self.symbolic.into(),
            Some(Method::Numeric) => self.numeric.into(),
            Some(Method::Quadrature) => self.quadrature.into(),
            Some(Method::Distributions) => self.distributions.into(),
            Some(Method::Series) => self.series.into(),
            Some(Method::SymbolicNumeric) => self.both.into(),
            Some(Method::Rounded) => self.rounded.into(),
            Some(Method::Randomized) => match error_bound_log2 {
                Some(bound) => format!("{}, {} 2^{bound}", self.randomized, self.error_at_most),
                None => self.randomized.into(),
            },
            None => "-".into(),
        }
    }
}

/// The words of every report, in the run's language.
pub fn words(lang: Lang) -> Words {
    match lang {
        Lang::En => ENGLISH,
        Lang::Zh => CHINESE,
    }
}

/// The English table of [`words`].
const ENGLISH: Words = Words {
    verified: "verified",
    refuted: "REFUTED",
    undecided: "undecided",
    symbolic: "symbolic",
    numeric: "numeric",
    quadrature: "numeric (floats at random points, integrals by quadrature)",
    distributions: "numeric (random joint distributions)",
    series: "symbolic, as a power series through the order written",
    both: "symbolic+numeric",
    rounded: "rounded",
    randomized: "randomized exact",
    error_at_most: "error ≤",
    not_parsed: "NOT PARSED",
    summary: "summary",
    formulas: "formulas",
    parsed: "parsed",
    claims: "claims",
    with_claims: "with claims",
    definitions: "definitions",
    mentions: "mentions",
    printed_numbers: "printed numbers",
    ignored: "ignored",
    not_checked: "not checked",
    bindings: "bindings",
    conditions: "conditions",
    condition: "condition",
    example_definitions: "example definitions",
    worked_example: "worked example",
    assuming: "assuming",
    did_you_mean: "did you mean (verified)",
    no_spec_note: "no spec given (--spec FILE): symbols the notes do not declare are read as numbers, and sizes the notes name are tried at 2 and 3",
    total: "total",
    inputs: "inputs",
    could_not_be_checked: "could not be checked",
    not_checked_see_above: "could not be checked (see the error above)",
    internal_error: "internal error while checking this file — this is a bug in derivcheck, please report it",
    checking: "checking",
    mutating: "mutating",
    files: "files",
    of: "of",
    from_the_cache: "claim(s) from the cache",
    watching: "watching",
    for_changes: "for changes (Ctrl-C to stop)",
    newly: "newly ",
    gone: "gone",
    cannot_watch: "cannot watch",
    claims_refuted: "claim(s) refuted",
    chapters_not_checked: "chapter(s) could not be checked",
    strict: "strict",
    error: "error",
    exact_workers: "bounded worker(s) started for exact work",
    cannot_read: "cannot read",
    not_utf8: "file is not valid UTF-8 (invalid byte sequence here)",
    too_large: "larger than {limit} bytes; derivcheck reads notes and specs up to that size",
    no_notes: "no notes found (a chapter folder holds `*.md`, `*.markdown`, `*.mdx` or `*.ipynb` files)",
    not_a_notebook: "not a Jupyter notebook (its JSON does not read as one)",
    in_cell: "cell {cell}, line {line}",
    cas_wait: (
        "waiting for another derivcheck process to finish its CAS work (Symbolica's restricted mode allows one at a time; lock ",
        ")",
    ),
    unrolled_words: (
        "{recurrences} unrolled to lag {lag}",
        ", vectors read coordinate by coordinate (every operation is elementwise)",
        ", `\\ldots` read as terms older than lag {lag}: the sides may differ only by those, so their difference is checked not to depend on lags 0..{lag} (two independent copies, ' and '')",
    ),
    max_difference: "max difference",
    tolerance: "tolerance",
    printed: "printed           ",
    backward: "backward formulas ",
    finite_differences: "finite differences",
    warning: "warning",
    note: "note",
    defined_again: "is defined again here",
    shadowing: "shadowing the definition at line:column ",
    lone_dollar: "a lone `$` opens no formula (unclosed math?); write `\\$` for a dollar sign",
    unknown_mark: "unknown derivcheck mark `{word}` (marks are {known}): ignored",
    unused_mark: "the mark `<!-- derivcheck: {mark} -->` has no formula after it in its section: it applies to the next formula",
    does_not_parse: "formula {id} does not parse: {error}",
    more_diagnostics: "… and {warnings} more warning(s), {formulas} more formula(s) that do not parse (`derivcheck formulas` lists them all)",
};

/// The Chinese table of [`words`].
const CHINESE: Words = Words {
    verified: "已验证",
    refuted: "已驳回",
    undecided: "未判定",
    symbolic: "符号",
    numeric: "数值",
    quadrature: "数值（随机点上的浮点运算，积分用求积公式）",
    distributions: "数值（随机联合分布）",
    series: "符号，按幂级数比较至所写的阶",
    both: "符号+数值",
    rounded: "按印出位数",
    randomized: "随机化精确",
    error_at_most: "出错概率 ≤",
    not_parsed: "无法解析",
    summary: "汇总",
    formulas: "个公式",
    parsed: "已解析",
    claims: "条断言",
    with_claims: "含断言",
    definitions: "定义",
    mentions: "提及",
    printed_numbers: "印出数值",
    ignored: "已忽略",
    not_checked: "未检查",
    bindings: "取值",
    conditions: "条件",
    condition: "条件",
    example_definitions: "示例定义",
    worked_example: "算例",
    assuming: "假设",
    did_you_mean: "是否应为（已验证）",
    no_spec_note: "未给出 spec（--spec 文件）：笔记未声明的符号按数值读取，笔记提到的尺寸取 2 和 3",
    total: "总计",
    inputs: "个输入",
    could_not_be_checked: "个无法检查",
    not_checked_see_above: "无法检查（见上方错误）",
    internal_error: "检查此文件时 derivcheck 内部出错——这是 derivcheck 的缺陷，请报告",
    checking: "正在检查",
    mutating: "正在变异",
    files: "个文件",
    of: "/",
    from_the_cache: "个断言取自缓存",
    watching: "正在监视",
    for_changes: "的改动（按 Ctrl-C 停止）",
    newly: "变为",
    gone: "已删除",
    cannot_watch: "无法监视",
    claims_refuted: "个断言被驳回",
    chapters_not_checked: "个章节无法检查",
    strict: "严格模式",
    error: "错误",
    exact_workers: "个有界工作进程用于精确计算",
    cannot_read: "无法读取",
    not_utf8: "文件不是有效的 UTF-8（此处字节序列无效）",
    too_large: "超过 {limit} 字节；derivcheck 只读取不超过该大小的笔记与 spec",
    no_notes: "未找到笔记（章节文件夹中应有 `*.md`、`*.markdown`、`*.mdx` 或 `*.ipynb` 文件）",
    not_a_notebook: "不是 Jupyter 笔记本（其 JSON 无法按笔记本读取）",
    in_cell: "第 {cell} 个单元格第 {line} 行",
    cas_wait: ("正在等待另一个 derivcheck 进程完成其 CAS 计算（Symbolica 的受限模式一次只允许一个；锁文件 ", "）"),
    unrolled_words: (
        "{recurrences} 展开到滞后 {lag}",
        "，向量逐坐标读取（每个运算都是逐元素的）",
        "，`\\ldots` 读作比滞后 {lag} 更早的项：两边只可能相差这些项，因此检查它们的差不依赖于滞后 0..{lag}（两个独立副本 ' 与 ''）",
    ),
    max_difference: "最大差",
    tolerance: "容差",
    printed: "印出值",
    backward: "按反向公式",
    finite_differences: "按有限差分",
    warning: "警告",
    note: "注",
    defined_again: "在此重新定义",
    shadowing: "遮蔽了此前的定义，位于行:列 ",
    lone_dollar: "单独的 `$` 没有开启公式（数学未闭合？）；美元符号请写 `\\$`",
    unknown_mark: "未知的 derivcheck 标记 `{word}`（可用标记：{known}）：已忽略",
    unused_mark: "标记 `<!-- derivcheck: {mark} -->` 在本节中其后没有公式：它作用于下一个公式",
    does_not_parse: "公式 {id} 无法解析：{error}",
    more_diagnostics: "…… 另有 {warnings} 条警告、{formulas} 个无法解析的公式（`derivcheck formulas` 列出全部）",
};

/// Why a formula does not parse, in the run's language (the English is the error's own
/// `Display`, which the JSON and the spec's errors carry).
pub fn syntax_error(kind: &crate::syntax::SyntaxErrorKind, lang: Lang) -> String {
    use crate::syntax::SyntaxErrorKind as K;
    if lang == Lang::En {
        return kind.to_string();
    }
    let expected = |list: &[crate::syntax::Expected]| {
        let said: Vec<&str> = list.iter().map(|e| expected_chinese(*e)).collect();
        if said.is_empty() {
            "其他内容".to_string()
        } else {
            said.join("或")
        }
    };
    match kind {
        K::Empty => "公式为空".into(),
        K::TooLarge { bytes, limit } => format!("公式过大：{bytes} 字节（上限 {limit}）"),
        K::TooDeep { limit } => format!("公式嵌套过深（超过 {limit} 层）"),
        K::TooLong { operands, limit } => format!("公式过长：一串 {operands} 个运算项或后缀（上限 {limit}），请拆开"),
        K::Budget { calls } => format!("公式歧义过多，在 {calls} 步解析预算内无法读出（预算随公式长度增长）；是否有既可开又可闭的 | ？请写 \\lvert…\\rvert 或 \\left|…\\right|"),
        K::AmbiguousBars => "这些 | 有两种读法（|a|b|c| 可读作 |a|·b·|c| 或 |a·|b|·c|）；请写 \\lvert…\\rvert、\\left|…\\right| 或 \\cdot".into(),
        K::Internal => "内部错误：无法构建此公式的语法树（请报告）".into(),
        K::UnbalancedEnvironment { .. } => "环境的 \\begin 与 \\end 不配对".into(),
        K::UnknownCommand { command } => format!("未知命令 `{command}`"),
        K::Unexpected { found, expected: list } => format!("此处不应出现 `{found}`；应为{}", expected(list)),
        K::UnexpectedEnd { expected: list } => format!("公式意外结束；应为{}", expected(list)),
    }
}

fn expected_chinese(expected: crate::syntax::Expected) -> &'static str {
    use crate::syntax::Expected as E;
    match expected {
        E::Relation => "关系符（=、\\ne 等）",
        E::Sign => "+ 或 -",
        E::Operator => "运算符",
        E::Separator => "分隔符（, 或 \\quad）",
        E::End => "公式结尾",
        E::RowBreak => "\\\\",
        E::AbsClose => "闭合的 |",
        E::NormClose => "闭合的 \\|",
        E::RightDelimiter => "\\right 定界符",
        E::LeftDelimiter => "\\left 定界符",
        E::Script => "上下标（_ 或 ^）",
        E::Expression => "表达式",
    }
}

/// What to write instead of a formula that does not parse but holds a relation derivcheck would
/// check: the fix for the construct the parser stopped at, or the mark that says to skip it.
pub fn unparsed_advice(kind: &crate::syntax::SyntaxErrorKind, lang: Lang) -> String {
    use crate::syntax::SyntaxErrorKind as K;
    let found = match kind {
        K::Unexpected { found, .. } => found.as_str(),
        _ => "",
    };
    let (en, zh): (String, String) = match (kind, found) {
        (K::UnknownCommand { command }, _) => (
            format!("`{command}` is not in the notation table (`derivcheck notation`): write the formula with what it lists"),
            format!("`{command}` 不在记号表中（`derivcheck notation`）：请用表中的写法"),
        ),
        (_, ")" | "]") => (
            "a half-open interval such as `(a, b]`, or an unbalanced bracket: say the interval in words".into(),
            "半开区间（如 `(a, b]`）或括号不配对：请用文字说明区间".into(),
        ),
        (_, ".") => ("write an ellipsis as `\\ldots` or `\\cdots`".into(), "省略号请写 `\\ldots` 或 `\\cdots`".into()),
        (_, "?") => ("end the formula before the `?`".into(), "请把 `?` 放在公式之外".into()),
        (_, "=") => (
            "a relation inside a `cases` row or after another one's condition: split the formula".into(),
            "`cases` 行内或条件之后的关系：请拆开公式".into(),
        ),
        (K::UnexpectedEnd { .. }, _) => (
            "the formula ends before its expression does: a `$` inside it, or a relation with one side missing".into(),
            "公式在表达式结束前就结束了：公式里有 `$`，或关系缺少一边".into(),
        ),
        _ => (
            "write it with the constructs of `derivcheck notation`".into(),
            "请用 `derivcheck notation` 列出的写法".into(),
        ),
    };
    match lang {
        Lang::En => format!("{en}, or put `<!-- derivcheck: skip -->` before it"),
        Lang::Zh => format!("{zh}，或在其前加 `<!-- derivcheck: skip -->`"),
    }
}

/// Why a spec entry cannot take effect, in the run's language (the English is the kind's own
/// `Display`, which the JSON carries). TOML's own words are quoted as they are.
pub fn spec_error(kind: &crate::spec::SpecErrorKind, lang: Lang) -> String {
    use crate::spec::{NameEntry, SpecErrorKind as K, MAX_SIZE, MAX_SIZE_COMBINATIONS};
    if lang == Lang::En {
        return kind.to_string();
    }
    let entry = |e: &NameEntry| match e {
        NameEntry::Loss => "`loss`",
        NameEntry::Matrix => "矩阵",
        NameEntry::Identity => "单位矩阵",
        NameEntry::Function => "函数",
        NameEntry::Set => "集合",
        NameEntry::Index => "索引",
        NameEntry::Vary => "`vary`",
        NameEntry::Positive => "`positive`",
    };
    match kind {
        // TOML's words, quoted whole (its own backticks become quotes).
        K::Toml { message } => format!("spec 不是可读的 TOML：`{}`", message.replace('`', "'")),
        K::UnknownKind { what, given, allowed } => {
            let what = if what == "set" { "集合" } else { "函数" };
            let allowed: Vec<String> = allowed.iter().map(|k| format!("`{k}`")).collect();
            format!("{what}类别 `{given}` 不存在；可用的类别：{}", allowed.join("、"))
        }
        K::ShapeNotTwo { given } => format!("形状须是两个尺寸 [行, 列]，而不是 {given}"),
        K::DoesNotParse { section, tex, error } => {
            format!("第 {section} 节：`{tex}` 无法解析：{}", syntax_error(error, lang))
        }
        K::AssumptionDoesNotParse { section, tex, error } => {
            format!("第 {section} 节：假设 `{tex}` 无法解析：{}", syntax_error(error, lang))
        }
        K::AssumptionNotOneEquation { section, tex } => format!("第 {section} 节：假设 `{tex}` 须是一个等式 `左 = 右`"),
        K::TooManyCombinations { section } => {
            format!("第 {section} 节：尺寸组合超过 {MAX_SIZE_COMBINATIONS} 种，请少给几个取值")
        }
        K::SizeBeyond { section, size, value } => format!(
            "第 {section} 节：尺寸 `{size}` = {value} 超出可实例化的范围（至多 {MAX_SIZE}）；精确检查随尺寸急剧增长，几个小尺寸即是证据"
        ),
        K::SizeValues { section, size, values } => format!("第 {section} 节：尺寸 `{size}` 的取值须不小于 1，而不是 {values:?}"),
        K::WhenDoesNotParse { section, claim, error } => {
            format!("第 {section} 节：断言 `{claim}` 的 `when` 无法解析：{}", syntax_error(error, lang))
        }
        K::ShapeBeyond { section, name, dim } => {
            format!("第 {section} 节：`{name}` 的形状用了 {dim}，超出最大尺寸 {MAX_SIZE}")
        }
        K::ShapeUnknownSize { section, name, dim } => {
            format!("第 {section} 节：`{name}` 的形状用了 `{dim}`，它既不是正数，也不是已声明的尺寸")
        }
        K::NotASymbol { section, entry: e, tex } => format!("第 {section} 节：{}名 `{tex}` 不是符号名", entry(e)),
        K::IndexRangeUnknown { section, letter, range } => {
            format!("第 {section} 节：索引 `{letter}` 的范围 `{range}` 不是已声明的尺寸")
        }
        K::DefinesNothing { section, tex } => format!(
            "第 {section} 节：`{tex}` 没有定义任何东西：左边须是此前未声明、未定义的符号（不是矩阵、尺寸、内置函数或更早的定义），右边不得用到它"
        ),
        K::FunctionDefinedInNotes { section, name, kind } => format!(
            "第 {section} 节：spec 把 `{name}` 声明为 `{kind}` 函数，但笔记用公式定义了它：删去该条目（采用笔记的定义），或改为 `elementwise`"
        ),
    }
}

/// What `--strict` fails on, in the run's language.
pub fn strict_problem(problem: &crate::model::StrictProblem, lang: Lang) -> String {
    use crate::model::StrictProblem as P;
    match (problem, lang) {
        (P::Unparsed(n), Lang::En) => format!("{n} formula(s) do not parse"),
        (P::Unparsed(n), Lang::Zh) => format!("{n} 个公式无法解析"),
        (P::Undecided(n), Lang::En) => format!("{n} claim(s) undecided"),
        (P::Undecided(n), Lang::Zh) => format!("{n} 条断言未判定"),
        (P::NotChecked(n), Lang::En) => format!(
            "{n} formula(s) not checked (a relation other than an equation; `ignore` them in the spec with a reason)"
        ),
        (P::NotChecked(n), Lang::Zh) => {
            format!("{n} 个公式未检查（不是等式的关系；请在 spec 中用 `ignore` 并写明理由）")
        }
        (P::SectionUnmatched { section }, Lang::En) => {
            format!("section {section} matches no section of the notes and states no claim")
        }
        (P::SectionUnmatched { section }, Lang::Zh) => {
            format!("第 {section} 节与笔记的任何一节都不对应，也没有陈述断言")
        }
        (P::IgnoreUnmatched { section, tex }, Lang::En) => {
            format!("section {section}: the ignore entry `{tex}` matches no formula")
        }
        (P::IgnoreUnmatched { section, tex }, Lang::Zh) => {
            format!("第 {section} 节：ignore 条目 `{tex}` 不对应任何公式")
        }
    }
}

/// The label of a kind of reason an undecided claim has.
pub fn why_label(why: crate::model::Why, lang: Lang) -> &'static str {
    use crate::model::Why;
    let (en, zh) = match why {
        Why::NotUnderstood => ("not understood", "未读懂"),
        Why::Ambiguous => ("ambiguous notation", "记法有歧义"),
        Why::NeedsShapeOrRange => {
            ("needs a shape or a range (declare it, or the spec)", "需要形状或范围（声明，或写入 spec）")
        }
        Why::Incomplete => ("written incompletely", "写法不完整"),
        Why::Beyond => ("beyond what derivcheck checks", "超出 derivcheck 的检查范围"),
        Why::NotEvaluable => ("cannot be evaluated", "无法求值"),
        Why::IndexWithoutValue => ("an index with no value", "下标没有取值"),
        Why::Condition => {
            ("a condition, by the words around it (mark it a claim if it is one)", "据上下文是条件（若是断言请标记）")
        }
        Why::MeaningOpen => {
            ("a letter's meaning left open (mark it a claim to pin it)", "字母含义未定（标记为断言可确定）")
        }
        Why::PositiveOnly => ("holds for positive values only (state the domain)", "仅对正值成立（请写明定义域）"),
        Why::NotReal => (
            "differs only where a side is not a real number (state the domain)",
            "仅在某一侧不是实数处不同（请写明定义域）",
        ),
        Why::ApproxWithoutDecimals => ("\\approx without a printed decimal", "\\approx 两边都没有小数"),
        Why::Shapes => ("shapes that do not fit", "形状不匹配"),
        Why::Budget => ("too large to decide in the budget", "超出计算预算"),
        Why::Other => ("other", "其他"),
    };
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// The coverage figure's first line: how many claims were decided.
pub fn decided_header(decided: usize, claims: usize, percent: f64, lang: Lang) -> String {
    match lang {
        Lang::En => format!("decided: {decided} of {claims} claims ({percent:.0}%); the undecided, by why:\n"),
        Lang::Zh => format!("已判定：{claims} 条断言中的 {decided} 条（{percent:.0}%）；未判定的原因：\n"),
    }
}

/// The one line that counts formulas that do not parse and state no relation derivcheck would
/// check, with the constructs the parser stopped at.
pub fn unparsed_summary(count: usize, constructs: &[(crate::listing::Construct, usize)], lang: Lang) -> String {
    use crate::listing::Construct as C;
    let word = |c: &C| match (c, lang) {
        (C::Written(text), _) => format!("`{text}`"),
        (C::EndOfFormula, Lang::En) => "the formula's end".into(),
        (C::EndOfFormula, Lang::Zh) => "公式提前结束".into(),
        (C::Empty, Lang::En) => "empty".into(),
        (C::Empty, Lang::Zh) => "空公式".into(),
        (C::Environment, _) => "`\\begin`/`\\end`".into(),
        (C::TooLarge, Lang::En) => "past a size limit".into(),
        (C::TooLarge, Lang::Zh) => "超出规模上限".into(),
    };
    let named: Vec<String> = constructs.iter().map(|(c, n)| format!("{} ×{n}", word(c))).collect();
    match lang {
        Lang::En => format!(
            "note: {count} formula(s) that do not parse state no relation derivcheck would check ({}); `--list-unparsed` lists them",
            named.join(", ")
        ),
        Lang::Zh => format!(
            "注：{count} 个无法解析的公式不含 derivcheck 会检查的关系（{}）；`--list-unparsed` 逐一列出",
            named.join("，")
        ),
    }
}

/// `k = 2, i = 1`.
fn assignment(at: &[(String, i64)]) -> String {
    at.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")
}

fn shape((rows, cols): (usize, usize)) -> String {
    format!("{rows}×{cols}")
}

/// The sentence for a reason.
pub fn describe(reason: &Reason, lang: Lang) -> String {
    match lang {
        Lang::En => english(reason),
        Lang::Zh => chinese(reason),
    }
}

/// A value for a sentence: six decimals, or six significant digits in scientific notation
/// where decimals would print a small or large value as `0.000000` or a long row of digits.
fn number(x: f64) -> String {
    if x != 0.0 && x.is_finite() && !(1e-3..1e7).contains(&x.abs()) {
        format!("{x:.6e}")
    } else {
        format!("{x:.6}")
    }
}

fn english(reason: &Reason) -> String {
    match reason {
        Reason::Checked { assignments, rounded: false } => format!("{assignments} assignment(s) checked"),
        Reason::Checked { assignments, rounded: true } => {
            format!("{assignments} assignment(s) checked; equal to the printed digits")
        }
        Reason::Differs { entry, lhs, rhs, at, difference } => {
            let entry = entry.map(|(i, j)| format!(" entry ({i},{j})")).unwrap_or_default();
            let mut text = format!("sides differ{entry}: left {}, right {}", number(*lhs), number(*rhs));
            if !at.is_empty() {
                text.push_str(&format!(" at {}", assignment(at)));
            }
            if let Some(d) = difference {
                text.push_str(&format!("; left − right = {d}"));
            }
            text
        }
        Reason::ShapeMismatch { op, left, right } => {
            format!("shapes do not fit in {op}: {} and {}", shape(*left), shape(*right))
        }
        Reason::TransposedLayout { left, right } => format!(
            "the sides are {} and {}, and equal once one is transposed: a layout slip (the gradient of a scalar has the shape of the variable; a derivative of a vector by a vector is the Jacobian, numerator layout)",
            shape(*left),
            shape(*right)
        ),
        Reason::NotScalar { what, rows, cols } => format!("{what} must be a scalar here, but is {rows}×{cols}"),
        Reason::NotRead { detail, .. } => format!("unsupported here: {detail}"),
        Reason::IndexOutOfRange { name, value, max } => format!("index {name} = {value} is outside 1..{max}"),
        Reason::UnboundIndex { name } => {
            format!("index `{name}` has no value here (declare its range in the spec)")
        }
        Reason::NotALeaf { .. } => "can only differentiate with respect to a variable, and the term marked is an expression (a power, a product); a superscript that labels is written `^{(k)}`".to_string(),
        Reason::Cyclic { key } => format!("definition of `{key}` refers to itself"),
        Reason::Budget { detail } => format!("budget exceeded: {detail}"),
        Reason::Internal { detail } => format!("internal inconsistency (please report): {detail}"),
        Reason::SpecUnusable { detail } => format!("the spec entry of this section cannot be used: {detail}"),
        Reason::ApproxWithoutDecimals => {
            "`\\approx` without a printed decimal on either side: nothing says how close is close enough".into()
        }
        Reason::NoAssignment { conditions } => format!(
            "no index assignment satisfies the conditions ({}) at the declared sizes: nothing was checked",
            conditions.join(", ")
        ),
        Reason::Inconsistent { exact, float_sizes, lhs, rhs } => format!(
            "INCONSISTENT: the CAS verified this {}, but the floating-point check at {float_sizes} differs: left {lhs:.9}, right {rhs:.9} (please report)",
            if *exact { "exactly" } else { "at 200-bit random points" }
        ),
        Reason::Unsettled { proven_sizes, float_sizes, exact } => format!(
            "proven at {proven_sizes}, but the floating-point check at {float_sizes} differs, and the exact check there gave no answer ({})",
            english(exact)
        ),
        Reason::FloatsInconclusive { worst } => format!(
            "only the floats can evaluate it (an integral), and their sides differ by {worst:.1e} (relative): more than rounding, less than a refutation (10⁻³)"
        ),
        Reason::FailsAsTextSays { inner } => format!("fails, as the text says: {}", english(inner)),
        Reason::HeldThoughTextSaysFails => {
            "the text says this fails in general, but it held at every size checked".into()
        }
        Reason::ExampleMatches { entries, epsilon, epsilon_stated, tolerance, loss } => format!(
            "{entries} gradient entries match the printed numbers, by the notes' backward formulas and by central differences (ε = {epsilon:e}, {}), to ±{tolerance:e}; loss L = {loss:.12}",
            if *epsilon_stated { "as the notes state" } else { "default (the notes state none)" }
        ),
        Reason::ExampleShape { name, rows, cols, printed_rows, printed_cols } => {
            format!("{name} is {rows}×{cols} in the example, printed {printed_rows}×{printed_cols}")
        }
        Reason::ExampleDiffers { entries } => entries.iter().map(english_entry).collect::<Vec<_>>().join("; "),
        Reason::ExampleClaim { loss, largest_difference } => {
            format!("in the worked example (loss {loss:.12}): largest difference {largest_difference:.3e}")
        }
        Reason::ExampleUnusable { inner } => format!("the worked example could not be evaluated: {}", english(inner)),
        Reason::ExampleSetup { detail } => format!("the worked example cannot be set up: {detail}"),
        Reason::OtherReading { reading, symbol, earlier, refuted } => {
            let symbol = symbol.as_deref().unwrap_or("?");
            let matrix = earlier.as_deref().unwrap_or("?");
            let earlier = earlier.as_deref().map(|e| format!(" of {e}")).unwrap_or_default();
            match reading {
                Reading::Condition if *refuted => "false as an identity, but the words around it make it a condition or an equation to solve, not a claim (`<!-- derivcheck: claim -->` before it makes it one)".into(),
                Reading::Condition => "the words around it make it a condition or an equation to solve, not a claim: not checked (`<!-- derivcheck: claim -->` before it makes it one)".into(),
                Reading::ShapeFromUse => format!("the notes never declare the shape of `{symbol}` (derivcheck read it off its uses, or as a number), and this formula does not fit that reading: declare the shape (`{symbol}\\in\\mathbb R^{{n\\times d}}` in the notes, or `matrix` in the spec)"),
                Reading::Redefinition => format!("false about the earlier `{symbol}`{earlier}; it may give `{symbol}` a new meaning (an example): depends on which (`<!-- derivcheck: claim -->` before it checks it against the earlier one)"),
                Reading::EarlierMeaning => format!("false with `{symbol}` as defined earlier{earlier}, not refuted with `{symbol}` a fresh letter: depends on whether `{symbol}` is the `{symbol}`{earlier} (`<!-- derivcheck: claim -->` before it says it is)"),
                Reading::DefinedAndDeclared => format!("false with `{symbol}` as the section defines it, not refuted with `{symbol}` the vector or matrix the section also declares it to be: depends on which `{symbol}` the claim speaks of (`<!-- derivcheck: claim -->` before it says: the defined one)"),
                Reading::DeclaredElsewhere => format!("false with `{symbol}` of the shape the notes declare elsewhere (an earlier section, or another declaration of it), not refuted with `{symbol}` of the shape its uses here give: depends on whether this `{symbol}` is that one (`<!-- derivcheck: claim -->` before it says it is)"),
                Reading::UnknownDerivative if *refuted => format!("false with `{symbol}` a letter of its own, whose derivative is then 0; but nothing defines `{symbol}` here, and the text differentiates it, so it depends on the variable in some way the claim does not say: not refuted (define `{symbol}`)"),
                Reading::UnknownDerivative => format!("holds with `{symbol}` a letter of its own, whose derivative is then 0; but nothing defines `{symbol}` here, and the text differentiates it, so it depends on the variable in some way the claim does not say: no evidence (define `{symbol}`, or mark it a claim)"),
                Reading::Convention => format!("with the value the words give, `{symbol}` is not defined (the logarithm of 0): the formula states a convention, the value a limit gives, not an identity to check"),
                Reading::HoldsThroughLater => format!("holds with `{symbol}` as the section defines it further on (at {matrix}), and not with `{symbol}` general: written before that meaning is given, it is as often the condition the definition is derived from as a consequence of it, so it is not counted as verified (`<!-- derivcheck: claim -->` before it makes it one)"),
                Reading::DefinedLater => format!("false with `{symbol}` as the section defines it further on (at {matrix}), not refuted with `{symbol}` general: the claim stands before that meaning is given (`<!-- derivcheck: claim -->` before it makes it one)"),
                Reading::Consequence => "false as an identity, and not shown to follow from the condition written before it in the same formula (`and hence`): checked where that condition holds, it failed or could not be read, yet a step may also use what the words beside it say (`<!-- derivcheck: claim -->` before it checks it as an identity)".into(),
                Reading::IndexedValues => format!("false with each value that has an index read as the value of a variable of its own ({symbol}), but the text may mean values of one variable (C = c_i): not refuted (write the variable, `C_i = c_i`, or mark it a claim)"),
                Reading::ClassValues => format!("false with {symbol} read as separate events, but read as the values of one variable (the classes of Bayes' rule, C = 1, C = 2, and no other) it holds: the text does not say which (write C = 1 for a class, or mark it a claim)"),
                Reading::MatrixForDeterminant => format!("a matrix written out is compared with a number: it stands for its determinant (`{symbol}`), with the bars or \\det left out; read so, it is not shown to hold, and read as written it compares a matrix with a number, which the text cannot mean: not refuted (write \\det or vmatrix bars)"),
                Reading::ImaginaryOrLetter => format!("false with `{symbol}` a real number, but the notes speak of complex numbers and nothing defines `{symbol}`: it may be the imaginary unit, which derivcheck does not compute with (mark it a claim to check it with `{symbol}` real)"),
                Reading::EulerOrLetter => format!("false with e read as Euler's number, but `{symbol}` carries the index of the sum, as the n-th member of a sequence e (the n-th sample's error) does in many texts: read as a letter, the sum is a value of data the claim does not give (write \\exp for Euler's number, or mark it a claim)"),
                Reading::ChangeOrProduct if *refuted => format!("false with `{symbol}` read as a number times the letter after it, but nothing defines `{symbol}`, and it stands before different letters, alone, or before a power (`{symbol} x^2`: the power of x, or of the change?): read as the change of each letter (`{symbol} x` one quantity), the claim may hold (define `{symbol}`, or mark it a claim)"),
                Reading::ChangeOrProduct => format!("holds with `{symbol}` read as a number times the letter after it, but `{symbol}` stands before different letters (or alone) and nothing defines it: read as the change of each letter (`{symbol} t` one quantity), the claim may differ (define `{symbol}`, or mark it a claim)"),
                Reading::SupposedInWords => format!("rests on what the words suppose (“{symbol}”), which no formula states: false without it, which is no evidence (state the supposition as an equation, or mark it a claim)"),
                Reading::FamilyOfOneValue => format!("false through the definition of `{symbol}`{earlier}, which never writes its index (every member one value, or a slip in the definition?): what it means is in doubt (write the index in the definition, or mark this a claim)"),
                Reading::Hypothesis => format!("rests on the supposition `{symbol}` the words make, a relation derivcheck does not model: checked without it, neither holding nor failing is evidence (state the relation as an equation, or mark it a claim)"),
                Reading::SuperscriptLabel => format!("false with the superscript of `{symbol}` read as a power, but a superscript letter nothing defines often labels a quantity (supply q^s, layer z^l): read as a label, the formula defines `{symbol}` (write it `^{{(s)}}` or `^{{\\text{{s}}}}` for a label, or mark it a claim)"),
                Reading::Constraint => format!("false for general values, but it relates letters the text gives no formula, written on one side only ({symbol}), and no single small edit (a sign, a factor, an exponent, a transpose, an index) makes it an identity: it holds only for the values that satisfy it — an equation to solve, a condition or a property the words state — so it is not read as a slip (define the letters, or mark it a claim)"),
                Reading::LettersFromWords => format!("false with `{symbol}` a letter of its own, but what `{symbol}` is comes from the words around it, not from a formula (a definition in the notes, or the spec, would settle it)"),
                Reading::EntryOf => format!("false with `{symbol}` a letter of its own, but `{symbol}` may be an entry of `{matrix}`: depends on which (write the entry of the matrix, or define the letter)"),
                Reading::Symmetric => format!("false for a general matrix `{symbol}`, true where `{symbol}` is symmetric: the notes do not declare what kind of matrix it is (declare its shape and kind, or mark it a claim)"),
                Reading::Diagonal => format!("false for a general matrix `{symbol}`, true where `{symbol}` is diagonal: the notes do not declare what kind of matrix it is (declare its shape and kind, or mark it a claim)"),
                Reading::Orthogonal => format!("false for a general matrix `{symbol}`, true where `{symbol}` is orthogonal (a rotation): the notes do not declare what kind of matrix it is (say so in the words before it, `for an orthogonal matrix`, or mark it a claim)"),
                Reading::Substitutes => "false as an identity, but the words before it say the derivation substitutes equations written elsewhere, or writes one letter for another, which derivcheck does not have: it may rest on them (`<!-- derivcheck: claim -->` before it checks it as an identity)".into(),
                Reading::Independent => format!("false for a general joint distribution of {symbol}, true where they are independent: an assumption the words may state (mark it a claim to check it as a rule for every distribution)"),
                Reading::IndependentIdentical => format!("false for a general joint distribution of {symbol}, true where they are independent and identically distributed: an assumption the words may state (mark it a claim to check it as a rule for every distribution)"),
                Reading::ZeroOne => format!("false for a general joint distribution of {symbol}, true where each takes only the values 0 and 1 (an indicator, a Bernoulli variable): an assumption the words may state (mark it a claim to check it as a rule for every distribution)"),
                Reading::EqualVariables => format!("false for a general joint distribution of {symbol}, true where they are equal (one a copy of the other, or an invertible function of it): an assumption the words may state (mark it a claim to check it as a rule for every distribution)"),
                Reading::MutuallyExclusive => format!("false for general events of {symbol}, and it writes a union: it may hold where the events are mutually exclusive, which derivcheck does not draw and the words may assume (state it, or mark it a claim)"),
                Reading::DistributionValue => "false for a general distribution, and one side has no probability or expectation in it: a value of the distribution the words describe, not a rule derivcheck can check".into(),
                Reading::RandomOrConstant => format!("depends on whether `{symbol}` is random or a constant (a small letter met only inside expectations, or a capital written outside them too, as a coefficient is): true one way, false the other (mark it a claim to settle it: small letters then read as constants, capitals as random variables)"),
                Reading::PowerOrIndex => format!("false with `{symbol}` raised to a power, but the formula also writes `{symbol}` with a superscript that numbers a member (`{symbol}^{{(…)}}`, or two a whole number apart, `{symbol}^{{t+1}}` beside `{symbol}^{{t}}`, as an update step by step writes it): a superscript on `{symbol}` may be an index without its parentheses (write `{symbol}^{{(n)}}` for a member, or mark it a claim)"),
                // (`the orthonormal basis $u_1, …$` names a family of vectors, not a matrix.)
                Reading::MatrixKind if ["basis", "vectors", "set", "columns"].iter().any(|w| matrix.contains(w)) => format!("false for general vectors `{symbol}`, but the words call them “{matrix}”, related as derivcheck does not construct: it may hold for those (mark it a claim to check it for any vectors)"),
                Reading::MatrixKind if matrix.contains("factor") => format!("false for a general matrix `{symbol}`, but the words make `{symbol}` a {matrix}, related to the others as derivcheck does not construct (orthogonal, diagonal): it may hold for those (mark it a claim to check it for every matrix)"),
                Reading::MatrixKind if matrix.eq_ignore_ascii_case("stochastic") => format!("false for a general matrix `{symbol}` and for one whose rows sum to one, but the words call `{symbol}` a stochastic matrix, whose entries are also nonnegative, which derivcheck does not draw: not refuted (mark it a claim to check it for every matrix)"),
                Reading::MatrixKind => format!("false for a general matrix `{symbol}`, but the words call `{symbol}` a {matrix} matrix, a kind derivcheck does not construct: it may hold for those (mark it a claim to check it for every matrix)"),
                Reading::OperatorOrProduct => format!("false with `{symbol}` read as a number times what follows it; the notes never define `{symbol}`, which many texts write for the derivative operator (`{symbol}f(x)`): derivcheck does not read it as one (write `\\frac{{d}}{{dx}}`, or define `{symbol}`)"),
                Reading::ApplicationOrProduct => format!("false with `{symbol}(…)` read as `{symbol}` times the parenthesis, not refuted with `{symbol}` a function nobody specified: the notes never define `{symbol}` (define it, or declare it a function in the spec)"),
                Reading::InverseOrPower => format!("false with `{symbol}^{{-1}}(…)` read as 1/{symbol} times the parenthesis; it may be the inverse of the function `{symbol}` applied, which derivcheck does not read: not refuted"),
                Reading::MomentLetter => format!("false with `{symbol}` a constant, true with it the mean (or standard deviation) of its random variable, as probability texts use the letter: the notes never define it (define it, `\\mu_X = E[X]`, or mark it a claim)"),
                Reading::SelfReferent => format!("`{symbol}` on the left is used again on the right, and no words assert the equation: an assignment (`{symbol} \\leftarrow …`), an equation in `{symbol}` or a new meaning of it, not an identity (write `\\leftarrow`, or mark it a claim)"),
                Reading::RecurrenceNotRead => format!("`{symbol}` is defined by recursion in a way derivcheck cannot unroll here (a step written other than as a lag `{symbol}_{{t-k}}`, or an operation not taken entry by entry): read as a free letter the claim fails, which says nothing (write the recurrence with lags, or mark it a claim)"),
                Reading::SolvedInPart => match symbol { "?" => format!("the words say these values solve the equation at {matrix}; at the printed values it misses by more than their rounding allows to first order, but by less than twice that: not refuted (print more digits)"), _ => format!("the words say these values solve the equation at {matrix}, but it holds at them only for some values of `{symbol}`, which they leave free: a partial solution (one unknown written with another) as often as a slip, so it is not refuted (give every unknown its value, or mark it a claim)") },
                Reading::Approximated => format!("false for `{symbol}` as defined, but the text approximates `{symbol}` before it (at {matrix}): from there its steps may write approximate values of `{symbol}` with `=`, as a first-order (Euler) step does (write `\\approx`, or mark it a claim to hold it to `=`)"),
                Reading::Update => format!("`{symbol}` on both sides, added to: an update step of an algorithm (`{symbol} \\leftarrow …`), not an identity (write `\\leftarrow`, or mark it a claim)"),
                Reading::EarlierCondition => format!("false as an identity, true under the condition `{symbol}` the section states earlier (at {matrix}), which its paragraph does not repeat: depends on whether that condition still holds here (`<!-- derivcheck: claim -->` before it checks it as an identity)"),
                Reading::ConditionUnused => format!("false as an identity here, but the condition `{symbol}` stated just before it (at {matrix}) is on its letters, and derivcheck could not use it: the claim may follow from it (`<!-- derivcheck: claim -->` before it checks it as an identity)"),
                Reading::OrderOfMagnitude => format!("the sides differ ({matrix}), but one is the power of ten `{symbol}` and the other within 10 % of it: an order of magnitude written with `=` (write `\\approx`, or mark it a claim to hold it to `=`)"),
                Reading::SumsToOne => format!("false for a general `{symbol}`, true where its entries sum to 1 (a one-hot label or a probability vector, which the words may say elsewhere): state it, or mark it a claim"),
                Reading::FunctionProperty => format!("false for a function `{symbol}` in general: the notes never say which function `{symbol}` is, and no rule of calculus makes this hold, so it is a property of the function meant (define `{symbol}`, or mark it a claim)"),
            }
        }
        Reason::HoldsForPositive { symbols } => format!(
            "holds where {} {} positive, false at the counterexample (a negative or zero value): state the domain, or run with --strict to fail on it",
            symbols.join(", "),
            if symbols.len() == 1 { "is" } else { "are" }
        ),
        Reason::DiffersWhereNotReal { symbols } => format!(
            "the sides differ only where one of them is not a real number (a log or root of a negative value, at the counterexample's {}), never where both are real at the points tried: state the domain",
            symbols.join(", ")
        ),
    }
}

fn english_entry(e: &ExampleEntry) -> String {
    let f = e.finite_difference.map(|f| format!(", finite differences {f:.6}")).unwrap_or_default();
    format!(
        "entry ({},{}) of {}: printed {}, computed {:.6} (backward formulas){f}",
        e.entry.0, e.entry.1, e.name, e.printed, e.analytic
    )
}

fn chinese(reason: &Reason) -> String {
    match reason {
        Reason::Checked { assignments, rounded: false } => format!("已检查 {assignments} 组取值"),
        Reason::Checked { assignments, rounded: true } => format!("已检查 {assignments} 组取值；与印出的位数相符"),
        Reason::Differs { entry, lhs, rhs, at, difference } => {
            let entry = entry.map(|(i, j)| format!("第 ({i},{j}) 项")).unwrap_or_default();
            let mut text = format!("两边{entry}不等：左边 {}，右边 {}", number(*lhs), number(*rhs));
            if !at.is_empty() {
                text.push_str(&format!("，取值 {}", assignment(at)));
            }
            if let Some(d) = difference {
                text.push_str(&format!("；左边 − 右边 = {d}"));
            }
            text
        }
        Reason::ShapeMismatch { left, right, .. } => format!("形状不匹配：{} 与 {}", shape(*left), shape(*right)),
        Reason::TransposedLayout { left, right } => format!(
            "两边形状为 {} 与 {}，转置后相等：布局错误（标量对变量的梯度与变量同形；向量对向量的导数是雅可比矩阵，分子布局）",
            shape(*left),
            shape(*right)
        ),
        Reason::NotScalar { rows, cols, .. } => format!("此处应为标量，却是 {rows}×{cols} 的矩阵"),
        Reason::NotRead { kind, detail } => {
            let sentence = match kind {
                NotRead::NotUnderstood => "有不认识的记号：请在讲义中定义，或在 spec 中声明",
                NotRead::Ambiguous => "记号有歧义（可有多种读法），derivcheck 不猜测",
                NotRead::NeedsSpec => "需要 spec 补充信息（尺寸、损失、索引范围等）",
                NotRead::Malformed => "写法不完整，或参数个数不对",
                NotRead::Outside => "超出 derivcheck 能检查的范围",
                NotRead::Numeric => "在所试的各点都无法数值求值",
            };
            // The TeX the English detail quotes (between backticks) is notation, not English.
            let quoted: Vec<&str> = detail.split('`').skip(1).step_by(2).collect();
            if quoted.is_empty() {
                sentence.into()
            } else {
                format!("{sentence}：`{}`", quoted.join("`，`"))
            }
        }
        Reason::IndexOutOfRange { name, value, max } => format!("索引 {} = {value} 超出 1..{max}", position_name_zh(name)),
        Reason::UnboundIndex { name } => format!("索引 `{name}` 在此没有取值（请在 spec 中声明其范围）"),
        Reason::NotALeaf { .. } => "只能对变量求导，标出的项是表达式（幂、乘积）；作标签的上标请写成 `^{(k)}`".to_string(),
        Reason::Cyclic { key } => format!("`{key}` 的定义引用了自身"),
        Reason::Budget { .. } => "超出计算预算（步数、表达式大小或时间）".into(),
        Reason::Internal { .. } => "内部不一致（请报告）".into(),
        Reason::SpecUnusable { .. } => "本节的 spec 条目无法使用".into(),
        Reason::ApproxWithoutDecimals => "`\\approx` 两边都没有印出的小数：无从判断多近算近".into(),
        Reason::NoAssignment { conditions } => {
            format!("在声明的尺寸下没有满足条件（{}）的索引取值：什么也没检查", conditions.join("，"))
        }
        Reason::Inconsistent { exact, float_sizes, lhs, rhs } => format!(
            "不一致：CAS 已{}验证，但在 {float_sizes} 的浮点检查不符：左边 {lhs:.9}，右边 {rhs:.9}（请报告）",
            if *exact { "精确" } else { "在 200 位精度的随机点上" }
        ),
        Reason::Unsettled { proven_sizes, float_sizes, exact } => format!(
            "已在 {proven_sizes} 证明，但在 {float_sizes} 的浮点检查不符，那里的精确检查也无结论（{}）",
            chinese(exact)
        ),
        Reason::FloatsInconclusive { worst } => format!(
            "只有浮点运算能求值（含积分），两边相差 {worst:.1e}（相对）：超出舍入误差，又不足以否定（10⁻³）"
        ),
        Reason::FailsAsTextSays { inner } => format!("正如正文所说，不成立：{}", chinese(inner)),
        Reason::HeldThoughTextSaysFails => "正文说它一般不成立，但在所查的每个尺寸上都成立".into(),
        Reason::ExampleMatches { entries, epsilon, epsilon_stated, tolerance, loss } => format!(
            "{entries} 个梯度分量与印出的数值相符，按讲义的反向公式与中心差分（ε = {epsilon:e}，{}），容差 ±{tolerance:e}；损失 L = {loss:.12}",
            if *epsilon_stated { "取讲义所给" } else { "默认值，讲义未给" }
        ),
        Reason::ExampleShape { name, rows, cols, printed_rows, printed_cols } => {
            format!("{name} 在算例中是 {rows}×{cols}，印出的是 {printed_rows}×{printed_cols}")
        }
        Reason::ExampleDiffers { entries } => entries.iter().map(chinese_entry).collect::<Vec<_>>().join("；"),
        Reason::ExampleClaim { loss, largest_difference } => {
            format!("在算例中（损失 {loss:.12}）：最大差 {largest_difference:.3e}")
        }
        Reason::ExampleUnusable { inner } => format!("算例无法求值：{}", chinese(inner)),
        Reason::ExampleSetup { .. } => "算例无法建立（spec 中的算例有误）".into(),
        Reason::OtherReading { reading, symbol, earlier, refuted } => {
            let symbol = symbol.as_deref().unwrap_or("?");
            let matrix = earlier.as_deref().unwrap_or("?");
            let earlier = earlier.as_deref().map(|e| format!("（{e} 处）")).unwrap_or_default();
            match reading {
                Reading::Condition if *refuted => "作为恒等式不成立，但上下文表明它是条件或待解方程，不是断言（在其前加 `<!-- derivcheck: claim -->` 则作为断言检查）".into(),
                Reading::Condition => "上下文表明它是条件或待解方程，不是断言：未检查（在其前加 `<!-- derivcheck: claim -->` 则作为断言检查）".into(),
                Reading::ShapeFromUse => format!("笔记没有声明 `{symbol}` 的形状（derivcheck 从其用法推断，或视为数），而此式与该读法不符：请声明其形状（在笔记中写 `{symbol}\\in\\mathbb R^{{n\\times d}}`，或在 spec 中写 `matrix`）"),
                Reading::Redefinition => format!("对先前的 `{symbol}`{earlier} 不成立；它可能给 `{symbol}` 一个新含义（示例）：取决于哪种读法（在其前加 `<!-- derivcheck: claim -->` 则按先前的含义检查）"),
                Reading::EarlierMeaning => format!("按先前定义的 `{symbol}`{earlier} 不成立，把 `{symbol}` 当作新字母则未被驳回：取决于这里的 `{symbol}` 是否就是先前那个（在其前加 `<!-- derivcheck: claim -->` 表示就是）"),
                Reading::DefinedAndDeclared => format!("按本节对 `{symbol}` 的定义不成立，按本节同时声明的向量或矩阵 `{symbol}` 则未被驳回：取决于此处说的是哪一个（在其前加 `<!-- derivcheck: claim -->` 表示是定义的那个）"),
                Reading::DeclaredElsewhere => format!("按笔记别处（前面某节，或它的另一个声明）声明的 `{symbol}` 的形状不成立，按此处用法给出的形状则未被驳回：取决于这里的 `{symbol}` 是否就是那个（在其前加 `<!-- derivcheck: claim -->` 表示就是）"),
                Reading::UnknownDerivative if *refuted => format!("把 `{symbol}` 当作独立的字母（其导数为 0）时不成立；但这里没有定义 `{symbol}`，而正文对它求导，说明它以某种未说明的方式依赖于变量：不判为错误（请定义 `{symbol}`）"),
                Reading::UnknownDerivative => format!("把 `{symbol}` 当作独立的字母（其导数为 0）时成立；但这里没有定义 `{symbol}`，而正文对它求导，说明它以某种未说明的方式依赖于变量：不算证据（定义 `{symbol}`，或标记为断言）"),
                Reading::Convention => format!("取文中给出的值时 `{symbol}` 没有定义（0 的对数）：这个公式陈述的是约定（取极限所得的值），不是需要检验的恒等式"),
                Reading::HoldsThroughLater => format!("按本节后文（{matrix} 处）对 `{symbol}` 的定义成立，把 `{symbol}` 当作一般的字母则不成立：它写在这个定义之前，常常是推出该定义的条件，而非其推论，因此不计为已验证（在其前加 `<!-- derivcheck: claim -->` 则作为断言检查）"),
                Reading::DefinedLater => format!("按本节后文（{matrix} 处）对 `{symbol}` 的定义不成立，把 `{symbol}` 当作一般的字母则未被驳回：该断言写在这个定义之前（在其前加 `<!-- derivcheck: claim -->` 则作为断言检查）"),
                Reading::Consequence => "作为恒等式不成立，也未能证明它由同一公式中前面的条件推出（“因此”）：在该条件成立处检查，它不成立或无法读取，但这一步也可能用到旁边文字所说的内容（在其前加 `<!-- derivcheck: claim -->` 则作为恒等式检查）".into(),
                Reading::IndexedValues => format!("把带下标的取值读作各自变量的取值（{symbol}）时不成立，但正文可能指同一变量的不同取值（C = c_i）：不判为错误（请写出变量，如 `C_i = c_i`，或标记为断言）"),
                Reading::ClassValues => format!("把 {symbol} 读作不同的事件时不成立，读作同一变量的取值（贝叶斯公式中的类别 C = 1、C = 2，且只有这些）时成立：文中没有说明是哪一种（类别请写成 C = 1，或标记为断言）"),
                Reading::MatrixForDeterminant => format!("写出的矩阵与一个数相比较：它代表自己的行列式（`{symbol}`），省略了竖线或 \\det；这样读时未能证实，而按字面读是拿矩阵与数比较，文中不会是这个意思：不判为错误（请写 \\det 或 vmatrix 竖线）"),
                Reading::ImaginaryOrLetter => format!("把 `{symbol}` 读作实数时不成立，但文中讲的是复数，且没有定义 `{symbol}`：它可能是虚数单位，derivcheck 不用它计算（标记为断言则按实数检查）"),
                Reading::EulerOrLetter => format!("把 e 读作自然常数时不成立，但 `{symbol}` 带着求和的下标，许多文本以此表示序列 e 的第 n 项（第 n 个样本的误差）：读作字母时，这个和是题中没有给出的数据的值（自然常数请写 \\exp，或标记为断言）"),
                Reading::ChangeOrProduct if *refuted => format!("把 `{symbol}` 读作数乘以其后字母时不成立，但没有定义 `{symbol}`，且它出现在不同字母之前、单独出现或在幂之前（`{symbol} x^2`：是 x 的幂，还是变化量的幂？）：读作各字母的变化量（`{symbol} x` 是一个量）时结论可能成立（定义 `{symbol}`，或标记为断言）"),
                Reading::ChangeOrProduct => format!("把 `{symbol}` 读作数乘以其后字母时成立，但 `{symbol}` 出现在不同字母之前（或单独出现），且没有定义：读作各字母的变化量（`{symbol} t` 是一个量）时结论可能不同（定义 `{symbol}`，或标记为断言）"),
                Reading::SupposedInWords => format!("依赖于文字所作的假设（“{symbol}”），没有公式表述它：不带它时不成立，这不算证据（把假设写成等式，或标记为断言）"),
                Reading::FamilyOfOneValue => format!("经由 `{symbol}` 的定义{earlier}不成立，而该定义没有写出它的下标（每一项都取同一个值，还是定义笔误？）：它的含义存疑（在定义中写出下标，或标记为断言）"),
                Reading::Hypothesis => format!("依赖于文中假设的 `{symbol}`，derivcheck 不对这种关系建模：不带它检查时，成立或不成立都不算证据（把关系写成等式，或标记为断言）"),
                Reading::SuperscriptLabel => format!("把 `{symbol}` 的上标读作幂时不成立，但没有定义的上标字母常常只是标签（供给 q^s、第 l 层 z^l）：读作标签时，这个公式定义了 `{symbol}`（标签请写成 `^{{(s)}}` 或 `^{{\\text{{s}}}}`，或标记为断言）"),
                Reading::Constraint => format!("对一般取值不成立，但它联系着正文没有给出公式、只出现在一边的字母（{symbol}），且没有一处小改动（符号、系数、指数、转置、下标）能使它成为恒等式：它只对满足它的取值成立——待解方程、条件或文字所述的性质——因此不视为笔误（定义这些字母，或标记为断言）"),
                Reading::LettersFromWords => format!("把 `{symbol}` 当作独立的字母时不成立，但 `{symbol}` 是什么由上下文文字说明，而不是由公式给出（在笔记中定义它或在 spec 中声明即可确定）"),
                Reading::EntryOf => format!("把 `{symbol}` 当作独立字母则不成立，但 `{symbol}` 可能是 `{matrix}` 的元素：取决于哪种读法（写成矩阵的元素，或定义该字母）"),
                Reading::Symmetric => format!("对一般矩阵 `{symbol}` 不成立，当 `{symbol}` 对称时成立：笔记没有说明它是哪类矩阵（声明其形状与类别，或标记为断言）"),
                Reading::Diagonal => format!("对一般矩阵 `{symbol}` 不成立，当 `{symbol}` 为对角矩阵时成立：笔记没有说明它是哪类矩阵（声明其形状与类别，或标记为断言）"),
                Reading::Orthogonal => format!("对一般矩阵 `{symbol}` 不成立，当 `{symbol}` 为正交矩阵（旋转）时成立：笔记没有说明它是哪类矩阵（在其前的文字中说明，如“对于正交矩阵”，或标记为断言）"),
                Reading::Substitutes => "作为恒等式不成立，但前文说明该推导代入了别处的公式，或用一个字母代替另一个，而 derivcheck 没有这些信息：它可能依赖于它们（在其前加 `<!-- derivcheck: claim -->` 则作为恒等式检查）".into(),
                Reading::Independent => format!("对 {symbol} 的一般联合分布不成立，在它们相互独立时成立：这是文字可能陈述的假设（标记为断言则按对任意分布成立的法则检查）"),
                Reading::IndependentIdentical => format!("对 {symbol} 的一般联合分布不成立，在它们独立同分布时成立：这是文字可能陈述的假设（标记为断言则按对任意分布成立的法则检查）"),
                Reading::ZeroOne => format!("对 {symbol} 的一般联合分布不成立，在每个变量只取 0 和 1（指示变量、伯努利变量）时成立：这是文字可能陈述的假设（标记为断言则按对任意分布成立的法则检查）"),
                Reading::EqualVariables => format!("对 {symbol} 的一般联合分布不成立，在它们相等（一个是另一个的副本或其可逆函数）时成立：这是文字可能陈述的假设（标记为断言则按对任意分布成立的法则检查）"),
                Reading::MutuallyExclusive => format!("对 {symbol} 的一般事件不成立，且式中有事件的并：在事件互斥时可能成立，derivcheck 不抽取这种分布，而文字可能作此假设（请写明，或标记为断言）"),
                Reading::DistributionValue => "对一般的分布不成立，且有一边不含概率或期望：这是文字所描述的分布的取值，不是 derivcheck 能检查的法则".into(),
                Reading::RandomOrConstant => format!("取决于 `{symbol}` 是随机变量还是常数（只出现在期望之内的小写字母，或像系数那样也写在期望之外的大写字母）：一种读法成立，另一种不成立（标记为断言即可确定：小写字母按常数读，大写字母按随机变量读）"),
                Reading::PowerOrIndex => format!("把 `{symbol}` 的上标读作幂时不成立，但同一公式也用上标给 `{symbol}` 编号（序列的成员 `{symbol}^{{(…)}}`，或相差整数的两个上标 `{symbol}^{{t+1}}` 与 `{symbol}^{{t}}`，逐步更新时这样写）：`{symbol}` 的上标可能是省略了括号的下标（成员请写 `{symbol}^{{(n)}}`，或标记为断言）"),
                Reading::MatrixKind if ["基", "向量", "basis", "vectors", "set", "columns"].iter().any(|w| matrix.contains(w)) => format!("对一般的向量 `{symbol}` 不成立，但前文称它们为{matrix}，derivcheck 不构造这种关系：它可能对这样的向量成立（标记为断言则对任意向量检查）"),
                Reading::MatrixKind if matrix.contains("factor") => format!("对一般的矩阵 `{symbol}` 不成立，但前文说 `{symbol}` 是矩阵分解的因子，与其他因子的关系（正交、对角）derivcheck 不构造：它可能对这样的矩阵成立（标记为断言则对所有矩阵检查）"),
                Reading::MatrixKind if matrix.eq_ignore_ascii_case("stochastic") => format!("对一般的矩阵 `{symbol}` 以及各行之和为一的矩阵都不成立，但前文称 `{symbol}` 为随机矩阵（stochastic），其元素还非负，derivcheck 不抽取这一条件：不判为反驳（标记为断言则对所有矩阵检查）"),
                Reading::MatrixKind => format!("对一般的矩阵 `{symbol}` 不成立，但前文称 `{symbol}` 为{matrix}矩阵，derivcheck 不构造这类矩阵：它可能对这类矩阵成立（标记为断言则对所有矩阵检查）"),
                Reading::OperatorOrProduct => format!("把 `{symbol}` 读作数乘以其后的式子时不成立；笔记没有定义 `{symbol}`，而许多文本用它表示微分运算符（`{symbol}f(x)`）：derivcheck 不这样读（写成 `\\frac{{d}}{{dx}}`，或定义 `{symbol}`）"),
                Reading::ApplicationOrProduct => format!("把 `{symbol}(…)` 读作 `{symbol}` 乘以括号时不成立，读作未指定的函数时不被推翻：笔记没有定义 `{symbol}`（定义它，或在规格中声明为函数）"),
                Reading::InverseOrPower => format!("把 `{symbol}^{{-1}}(…)` 读作 1/{symbol} 乘以括号时不成立；它可能是函数 `{symbol}` 的反函数作用于括号，derivcheck 不读这种写法：不判为错误"),
                Reading::MomentLetter => format!("把 `{symbol}` 读作常数时不成立，读作其随机变量的均值（或标准差）时成立（概率书中这个字母通常如此）：笔记没有定义它（定义它，如 `\\mu_X = E[X]`，或标记为断言）"),
                Reading::SelfReferent => format!("左边的 `{symbol}` 在右边再次出现，且前文没有断言此式：这是赋值（`{symbol} \\leftarrow …`）、关于 `{symbol}` 的方程或它的新含义，不是恒等式（写成 `\\leftarrow`，或标记为断言）"),
                Reading::RecurrenceNotRead => format!("`{symbol}` 由递推定义，但 derivcheck 在此无法展开（步标不是写成滞后项 `{symbol}_{{t-k}}`，或运算不是逐元素的）：把它当作自由字母时断言不成立，这说明不了什么（用滞后项写递推式，或标记为断言）"),
                Reading::SolvedInPart => match symbol { "?" => format!("文字说这些值是 {matrix} 处方程的解；按印出的值，方程的残差超过其舍入在一阶近似下所允许的范围，但不到其两倍：不判为错误（请多印几位数字）"), _ => format!("文字说这些值是 {matrix} 处方程的解，但方程在这些值下只对 `{symbol}` 的某些取值成立，而它们没有给出 `{symbol}`：这可能是部分解（用一个未知数表示另一个），也可能是笔误，因此不判为错误（给出每个未知数的值，或标记为断言）") },
                Reading::Approximated => format!("对定义的 `{symbol}` 不成立，但前文（{matrix} 处）已对 `{symbol}` 作近似：此后的步骤可能用 `=` 写 `{symbol}` 的近似值，如一阶（欧拉）步那样（写成 `\\approx`，或标记为断言以按 `=` 检查）"),
                Reading::Update => format!("`{symbol}` 出现在两边且被加减：这是算法的更新步骤（`{symbol} \\leftarrow …`），不是恒等式（写成 `\\leftarrow`，或标记为断言）"),
                Reading::EarlierCondition => format!("作为恒等式不成立，在本节前文（{matrix} 处）陈述的条件 `{symbol}` 下成立，而它所在段落没有重申该条件：取决于该条件在此是否仍然成立（在其前加 `<!-- derivcheck: claim -->` 则作为恒等式检查）"),
                Reading::ConditionUnused => format!("在此作为恒等式不成立，但紧接其前（{matrix} 处）陈述的条件 `{symbol}` 涉及它的字母，而 derivcheck 无法使用该条件：断言可能由它推出（在其前加 `<!-- derivcheck: claim -->` 则作为恒等式检查）"),
                Reading::OrderOfMagnitude => format!("两边不相等（{matrix}），但一边是 10 的幂 `{symbol}`，另一边与它相差不到 10%：这是用 `=` 写的数量级（请写 `\\approx`，或标记为断言以按 `=` 检查）"),
                Reading::SumsToOne => format!("对一般的 `{symbol}` 不成立，在其各分量之和为 1 时成立（独热标签或概率向量，文中别处可能已说明）：请写明，或标记为断言"),
                Reading::FunctionProperty => format!("对一般的函数 `{symbol}` 不成立：笔记没有说明 `{symbol}` 是哪个函数，也没有微积分法则使其成立，这是所指函数的性质（定义 `{symbol}`，或标记为断言）"),
            }
        }
        Reason::HoldsForPositive { symbols } => format!(
            "当 {} 为正时成立，在反例处（负值或零）不成立：请写明定义域，或用 --strict 使其判为失败",
            symbols.join("、")
        ),
        Reason::DiffersWhereNotReal { symbols } => format!(
            "两侧仅在某一侧不是实数处不同（负数的对数或根，反例处的 {}），在所试的两侧皆为实数之处都相同：请写明定义域",
            symbols.join("、")
        ),
    }
}

/// An entry's position without a letter of the notes, named by where it stands (`index`,
/// `row`, `column`); a letter as it is.
fn position_name_zh(name: &str) -> &str {
    match name {
        "index" => "下标",
        "row" => "行号",
        "column" => "列号",
        letter => letter,
    }
}

fn chinese_entry(e: &ExampleEntry) -> String {
    let f = e.finite_difference.map(|f| format!("，有限差分 {f:.6}")).unwrap_or_default();
    format!("{} 的第 ({},{}) 项：印出 {}，按反向公式算得 {:.6}{f}", e.name, e.entry.0, e.entry.1, e.printed, e.analytic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unparsed_summary_names_kinds_of_error_in_its_language() {
        use crate::listing::Construct as C;
        let constructs = [(C::EndOfFormula, 2), (C::Written("\\weird".into()), 1), (C::TooLarge, 1)];
        let zh = unparsed_summary(4, &constructs, Lang::Zh);
        assert!(zh.contains("公式提前结束 ×2") && zh.contains("`\\weird` ×1") && zh.contains("超出规模上限"), "{zh}");
        let en = unparsed_summary(4, &constructs, Lang::En);
        assert!(en.contains("the formula's end ×2") && en.contains("past a size limit ×1"), "{en}");
    }

    /// One of every reason, to word in both languages.
    fn samples() -> Vec<Reason> {
        let inner = Box::new(Reason::NotRead { kind: NotRead::Outside, detail: "\\int".into() });
        let mut out = vec![
            Reason::Checked { assignments: 3, rounded: false },
            Reason::Checked { assignments: 3, rounded: true },
            Reason::Differs {
                entry: Some((1, 2)),
                lhs: 1.0,
                rhs: 2.0,
                at: vec![("n".into(), 2)],
                difference: Some("x".into()),
            },
            Reason::ShapeMismatch { op: "a sum".into(), left: (1, 2), right: (2, 1) },
            Reason::TransposedLayout { left: (1, 2), right: (2, 1) },
            Reason::NotScalar { what: "a denominator".into(), rows: 2, cols: 2 },
            Reason::IndexOutOfRange { name: "i".into(), value: 4, max: 3 },
            Reason::UnboundIndex { name: "i".into() },
            Reason::NotALeaf { what: "x+1".into() },
            Reason::Cyclic { key: "u".into() },
            Reason::Budget { detail: "time limit for this claim".into() },
            Reason::Internal { detail: "normal form is 0 but".into() },
            Reason::SpecUnusable { detail: "`x+1` is not a symbol".into() },
            Reason::ApproxWithoutDecimals,
            Reason::NoAssignment { conditions: vec!["(< j 1)".into()] },
            Reason::Inconsistent { exact: true, float_sizes: "n = 4".into(), lhs: 1.0, rhs: 2.0 },
            Reason::Unsettled { proven_sizes: "n = 2".into(), float_sizes: "n = 4".into(), exact: inner.clone() },
            Reason::FailsAsTextSays { inner: inner.clone() },
            Reason::HeldThoughTextSaysFails,
            Reason::ExampleMatches { entries: 6, epsilon: 1e-5, epsilon_stated: true, tolerance: 5e-7, loss: 2.5 },
            Reason::ExampleShape { name: "\\bar U".into(), rows: 2, cols: 1, printed_rows: 2, printed_cols: 3 },
            Reason::ExampleDiffers {
                entries: vec![ExampleEntry {
                    name: "\\bar U".into(),
                    entry: (1, 1),
                    printed: 0.5,
                    analytic: 0.4,
                    finite_difference: Some(0.4),
                }],
            },
            Reason::ExampleClaim { loss: 2.5, largest_difference: 0.0 },
            Reason::ExampleUnusable { inner },
            Reason::ExampleSetup { detail: "target `D` is not in the vocabulary".into() },
        ];
        for kind in [
            NotRead::NotUnderstood,
            NotRead::Ambiguous,
            NotRead::NeedsSpec,
            NotRead::Malformed,
            NotRead::Outside,
            NotRead::Numeric,
        ] {
            out.push(Reason::NotRead { kind, detail: "the function `foo`".into() });
        }
        out
    }

    /// An English word of three or more letters outside `code` and TeX commands.
    fn english_word(text: &str) -> Option<String> {
        let chars: Vec<char> = text.chars().collect();
        let (mut in_code, mut word, mut k) = (false, String::new(), 0);
        let allowed = ["CAS", "spec", "derivcheck"];
        while k < chars.len() {
            let c = chars[k];
            if c == '`' {
                in_code = !in_code;
            } else if c == '\\' {
                // A TeX command is notation, not English.
                while k + 1 < chars.len() && chars[k + 1].is_ascii_alphabetic() {
                    k += 1;
                }
            } else if !in_code && c.is_ascii_alphabetic() {
                word.push(c);
                k += 1;
                continue;
            }
            if word.len() >= 3 && !allowed.contains(&word.as_str()) {
                return Some(word);
            }
            word.clear();
            k += 1;
        }
        (word.len() >= 3 && !allowed.contains(&word.as_str())).then_some(word)
    }

    #[test]
    fn every_reason_has_a_sentence_in_both_languages_and_the_chinese_has_no_english() {
        for reason in samples() {
            let (en, zh) = (describe(&reason, Lang::En), describe(&reason, Lang::Zh));
            assert!(!en.is_empty() && !zh.is_empty(), "{reason:?}");
            assert_eq!(english_word(&zh), None, "English in the Chinese sentence for {reason:?}: {zh}");
        }
        let labels = words(Lang::Zh);
        let all = [
            labels.verified,
            labels.summary,
            labels.formulas,
            labels.claims,
            labels.worked_example,
            labels.printed,
            labels.warning,
            labels.lone_dollar,
        ];
        for label in all {
            assert_eq!(english_word(label), None, "{label}");
        }
    }

    #[test]
    fn the_english_check_finds_english() {
        assert_eq!(english_word("两边 differ"), Some("differ".into()));
        assert_eq!(english_word("`\\approx` 两边"), None);
    }
}

/// The labels of the printable report (Markdown and HTML appendix), handed to the templates.
#[derive(Debug, Clone, serde::Serialize)]
pub struct AppendixWords {
    pub title: &'static str,
    pub summary: &'static str,
    pub section: &'static str,
    pub claims: &'static str,
    pub verified: &'static str,
    pub refuted: &'static str,
    pub undecided: &'static str,
    pub definitions: &'static str,
    pub not_checked: &'static str,
    pub total: &'static str,
    pub version: &'static str,
    pub spec: &'static str,
    pub no_spec: &'static str,
    pub spec_hash: &'static str,
    pub sizes: &'static str,
    pub formula: &'static str,
    pub role: &'static str,
    pub verdict: &'static str,
    pub method: &'static str,
    pub reason: &'static str,
    pub understood: &'static str,
    pub counterexample: &'static str,
    pub indices: &'static str,
    pub entry: &'static str,
    pub left: &'static str,
    pub right: &'static str,
    pub at_point: &'static str,
    pub correct: &'static str,
    pub did_you_mean: &'static str,
    pub not_written: &'static str,
    pub at_counterexample: &'static str,
    pub assuming: &'static str,
    pub worked_example: &'static str,
    pub printed: &'static str,
    pub by_formulas: &'static str,
    pub by_differences: &'static str,
    pub mismatch: &'static str,
    pub not_rendered: &'static str,
    pub role_claims: &'static str,
    pub role_definition: &'static str,
    pub role_mention: &'static str,
    /// "inline formulas that only mention symbols", after a count.
    pub inline_mentions: &'static str,
    /// The coverage table: undecided claims by why.
    pub undecided_by_why: &'static str,
    pub why: &'static str,
    pub named: &'static str,
    pub places: &'static str,
    pub role_printed: &'static str,
    pub role_ignored: &'static str,
    pub role_not_checked: &'static str,
    pub role_not_parsed: &'static str,
    pub role_binding: &'static str,
    pub role_condition: &'static str,
    pub role_example_definition: &'static str,
    pub role_spec_claim: &'static str,
    pub from_spec: &'static str,
    pub contents: &'static str,
}

pub fn appendix_words(lang: Lang) -> AppendixWords {
    match lang {
        Lang::En => AppendixWords {
            title: "Appendix: checked derivations",
            summary: "Summary",
            section: "Section",
            claims: "Claims",
            verified: "verified",
            refuted: "REFUTED",
            undecided: "undecided",
            definitions: "Definitions",
            not_checked: "Not checked",
            total: "Total",
            version: "derivcheck version",
            spec: "Spec",
            no_spec: "none (read from the notes alone)",
            spec_hash: "SHA-256",
            sizes: "Sizes",
            formula: "Formula",
            role: "Role",
            verdict: "Verdict",
            method: "Method",
            reason: "Reason",
            understood: "As derivcheck read it",
            counterexample: "Counterexample",
            indices: "Indices",
            entry: "Entry",
            left: "Left side",
            right: "Right side",
            at_point: "At the point",
            correct: "The computed side is",
            did_you_mean: "Did you mean (verified)",
            not_written: "not",
            at_counterexample: "at the counterexample's sizes and indices",
            assuming: "Assuming",
            worked_example: "Worked example",
            printed: "printed",
            by_formulas: "by the notes' formulas",
            by_differences: "by finite differences",
            mismatch: "differs",
            not_rendered: "could not be rendered as MathML",
            role_claims: "claim",
            role_definition: "definition",
            role_mention: "mention",
            inline_mentions: "inline formula(s) that only mention symbols, not listed",
            undecided_by_why: "Undecided claims, by why",
            why: "why",
            named: "constructs",
            places: "where",
            role_printed: "printed numbers",
            role_ignored: "ignored",
            role_not_checked: "not checked",
            role_not_parsed: "not parsed",
            role_binding: "binding",
            role_condition: "condition",
            role_example_definition: "example definition",
            role_spec_claim: "claim stated in the spec",
            from_spec: "Claims the spec states in words",
            contents: "Contents",
        },
        Lang::Zh => AppendixWords {
            title: "附录：推导核验",
            summary: "汇总",
            section: "节",
            claims: "断言",
            verified: "已验证",
            refuted: "已驳回",
            undecided: "未判定",
            definitions: "定义",
            not_checked: "未检查",
            total: "合计",
            version: "derivcheck 版本",
            spec: "规格文件",
            no_spec: "无（仅依据笔记本身）",
            spec_hash: "SHA-256",
            sizes: "规模",
            formula: "公式",
            role: "作用",
            verdict: "结论",
            method: "方法",
            reason: "理由",
            understood: "derivcheck 的读法",
            counterexample: "反例",
            indices: "下标",
            entry: "元素",
            left: "左边",
            right: "右边",
            at_point: "取值点",
            correct: "计算所得为",
            did_you_mean: "是否应为（已验证）",
            not_written: "而非",
            at_counterexample: "在反例的规模与下标处",
            assuming: "假设",
            worked_example: "算例",
            printed: "印出值",
            by_formulas: "按笔记公式",
            by_differences: "按有限差分",
            mismatch: "不符",
            not_rendered: "无法转为 MathML",
            role_claims: "断言",
            role_definition: "定义",
            role_mention: "提及",
            inline_mentions: "个仅提及符号的行内公式，未逐一列出",
            undecided_by_why: "未判定的断言及原因",
            why: "原因",
            named: "涉及的写法",
            places: "位置",
            role_printed: "印出数值",
            role_ignored: "已忽略",
            role_not_checked: "未检查",
            role_not_parsed: "无法解析",
            role_binding: "取值",
            role_condition: "条件",
            role_example_definition: "示例定义",
            role_spec_claim: "规格文件中的断言",
            from_spec: "规格文件以文字陈述的断言",
            contents: "目录",
        },
    }
}

/// The sentence for a formula that is not checked, in `lang`.
pub fn describe_skip(reason: &crate::model::SkipReason, lang: Lang) -> String {
    use crate::model::SkipReason;
    match (reason, lang) {
        (SkipReason::NotAnEquation, Lang::En) => "a relation other than an equation".into(),
        (SkipReason::Dependence, Lang::En) => "`u = u(x)` says that u depends on x: a declaration, not checked".into(),
        (SkipReason::Dependence, Lang::Zh) => "`u = u(x)` 表示 u 依赖于 x：是声明，不检查".into(),
        (SkipReason::Enumeration, Lang::En) => {
            "`t = 1, \\ldots, T` lists the values a letter runs through: not an equation, not checked".into()
        }
        (SkipReason::Enumeration, Lang::Zh) => "`t = 1, \\ldots, T` 列出字母的取值范围：不是等式，不检查".into(),
        (SkipReason::NotAnEquation, Lang::Zh) => "不是等式的关系".into(),
        (SkipReason::NestedRelations { env }, Lang::En) => format!("relations inside `{env}`"),
        (SkipReason::NestedRelations { env }, Lang::Zh) => format!("`{env}` 环境内的关系"),
        (SkipReason::DefinitionNotTaken, Lang::En) => {
            "a definition (:=) whose left side is not a symbol derivcheck can define".into()
        }
        (SkipReason::DefinitionNotTaken, Lang::Zh) => "定义（:=）的左边不是 derivcheck 能定义的符号".into(),
        (SkipReason::Ignored { because }, _) => because.clone(),
        (SkipReason::Interval, Lang::En) => "a side is `[a, b]`: an interval or a row of two? not read".into(),
        (SkipReason::Interval, Lang::Zh) => "一边是 `[a, b]`：区间还是两元素的行？不作判断".into(),
        (SkipReason::Marked, Lang::En) => "marked `<!-- derivcheck: skip -->` by the author".into(),
        (SkipReason::Marked, Lang::Zh) => "作者以 `<!-- derivcheck: skip -->` 标记跳过".into(),
        (SkipReason::Replaced, Lang::En) => {
            "the words after it replace it with the next formula (an erratum quoting the wrong text): not checked"
                .into()
        }
        (SkipReason::Replaced, Lang::Zh) => "其后的文字将它改为下一个公式（勘误引用的错误原文）：不检查".into(),
        (SkipReason::Denied, Lang::En) => {
            "the words deny it (`does not mean`, `is not`, struck through): the text says it does not hold, no claim that it does: not checked".into()
        }
        (SkipReason::Denied, Lang::Zh) => "文字否定了它（“并不是指”“不是”、删除线）：原文说它不成立，并非断言它成立：不检查".into(),
        (SkipReason::NamedHere { name, part }, Lang::En) => format!(
            "the step writes the expression before it with `{part}` renamed `{name}`, a letter not written before: it introduces the name (a definition from here on), not checked"
        ),
        (SkipReason::NamedHere { name, part }, Lang::Zh) => {
            format!("这一步把前式中的 `{part}` 改写为此前未出现的 `{name}`：引入记号（此后按定义使用），不检查")
        }
    }
}

/// An edit's name (`derivcheck mutate`, the suggestions' notes).
pub fn edit_name(kind: crate::model::EditKind, lang: Lang) -> &'static str {
    use crate::model::EditKind::*;
    let (en, zh) = match kind {
        FlipSign => ("a sign flipped", "改变符号"),
        SwapDifference => ("a difference swapped", "交换差的两项"),
        AddTranspose => ("a transpose added", "加上转置"),
        DropTranspose => ("a transpose dropped", "去掉转置"),
        SwapFactors => ("factors swapped", "交换因子"),
        TogglePrime => ("σ and σ′ exchanged", "σ 与 σ′ 互换"),
        DropTerm => ("a term dropped", "删去一项"),
        ConstantFactor => ("a constant changed", "改变常数"),
        IndexLetter => ("an index letter changed", "改变下标字母"),
        Exponent => ("an exponent changed by one", "指数加减一"),
        SumBound => ("a sum's bound changed by one", "求和上限加减一"),
        AddPower => ("a factor squared", "某因子取平方"),
        Reciprocal => ("a fraction turned over", "分式上下颠倒"),
        AddTerm => ("a term of the section added", "补上本节的一项"),
        Rounding => ("rounded from the computed value", "按计算值取整"),
        InsertFactor => ("a factor put before a term", "在某项前补上因子"),
        Argument => ("a function's argument replaced by another the claim writes", "换用式中另一处的函数自变量"),
    };
    in_language(lang, en, zh)
}

/// A mutant's fate as `derivcheck mutate` prints it.
pub fn fate_name(fate: crate::model::MutantFate, lang: Lang) -> &'static str {
    use crate::model::MutantFate::*;
    let (en, zh) = match fate {
        Killed => ("killed", "被驳回"),
        Survived => ("survived", "存活"),
        Equivalent => ("equivalent", "等价"),
        IllFormed => ("ill-formed", "不成立的变体"),
        Undecided => ("undecided", "未判定"),
    };
    in_language(lang, en, zh)
}

/// One line of `derivcheck mutate`'s tally: `name` is a section or the total.
pub fn mutation_tally(name: &str, t: &crate::model::Tally, lang: Lang) -> String {
    if lang == Lang::Zh {
        format!(
            "{name}\t{} 个变体：{} 被驳回，{} 存活，{} 未判定，{} 等价，{} 不成立（驳回率 {:.1}%），最慢 {:.0} 毫秒\n",
            t.mutants, t.killed, t.survived, t.undecided, t.equivalent, t.ill_formed, t.killed_percent, t.slowest_ms
        )
    } else {
        format!(
            "{name}\t{} mutants: {} killed, {} survived, {} undecided, {} equivalent, {} ill-formed ({:.1}% killed), slowest {:.0} ms\n",
            t.mutants, t.killed, t.survived, t.undecided, t.equivalent, t.ill_formed, t.killed_percent, t.slowest_ms
        )
    }
}

/// The word for the whole run in a tally.
pub fn total_name(lang: Lang) -> &'static str {
    in_language(lang, "total", "合计")
}

/// The English or the Chinese of a pair of words.
fn in_language(lang: Lang, en: &'static str, zh: &'static str) -> &'static str {
    if lang == Lang::Zh {
        zh
    } else {
        en
    }
}

/// Why a mutant survived: the check at one size past the stated ones (`reason`) shows the
/// stated sizes too small, or could not settle that the mutant equals the formula.
pub fn survivor_why(reason: &Reason, lang: Lang) -> String {
    let told = matches!(reason, Reason::Differs { .. });
    let lead = match (told, lang == Lang::Zh) {
        (true, false) => "the stated sizes cannot tell it from the formula; one size more can: ",
        (true, true) => "所给尺寸区分不出它与原式，再大一号即可：",
        (false, false) => "verified at the stated sizes; not shown equal to the formula at larger ones: ",
        (false, true) => "在所给尺寸下验证通过；更大尺寸下未能证明与原式相等：",
    };
    format!("{lead}{}", describe(reason, lang))
}
