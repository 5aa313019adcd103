//! Whole Markdown documents (issue 47) through what `derivcheck check` does before the CAS: the
//! notes reader, the plan (sema, no spec) and the floating-point cross-check of every claim (as
//! `sema_float`; never the CAS). Never a panic, a hang or an abort.
//!
//! The input is either text or a program that writes a document:
//!
//! - raw text mode: an input whose first byte is not a control byte (or is a tab, LF or CR) is
//!   the document itself (invalid UTF-8 replaced by U+FFFD), so real chapters are seeds;
//! - generated mode: an input whose first byte is a control byte other than tab, LF and CR
//!   (0x00-0x08, 0x0B, 0x0C, 0x0E-0x1F) is a program: its low bits choose the line ending
//!   (LF mostly, CRLF, lone CR), then each byte is an opcode choosing a fragment (headings,
//!   Chinese and English prose, inline and display math in every delimiter, formula pieces, code
//!   fences, HTML, tables, lists, full-width punctuation, zero-width and other odd characters,
//!   raw bytes copied as text), the bytes after it choosing its variants.
//!
//! `FUZZ_PRINT_DOCUMENT=FILE` writes the document each input becomes to FILE (to decode a
//! finding: `FUZZ_PRINT_DOCUMENT=/tmp/doc.md cargo fuzz run ... document ARTIFACT`).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::run_on_big_stack(data, check));

fn check(data: &[u8]) {
    let text = document(data);
    if let Some(path) = print_path() {
        let _ = std::fs::write(path, &text);
    }
    let doc = derivcheck::notes::Document::parse("fuzz.md", text);
    let Ok(planned) = derivcheck::driver::plan(std::slice::from_ref(&doc), None, "") else { return };
    common::float_crosscheck(&planned);
}

fn print_path() -> Option<&'static str> {
    static PATH: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    PATH.get_or_init(|| std::env::var("FUZZ_PRINT_DOCUMENT").ok()).as_deref()
}

/// The document an input stands for (see the module's docs).
fn document(data: &[u8]) -> String {
    match data.first() {
        Some(&first) if first < 0x20 && !matches!(first, b'\t' | b'\n' | b'\r') => Gen::new(first, &data[1..]).run(),
        _ => String::from_utf8_lossy(data).into_owned(),
    }
}

/// Longest document generated, in bytes. A 1 KB program stays below it but for repetitions;
/// sema's time grows with the document's length (about 2 ms a KB here), and a longer document
/// is more sections of the same fragments, so the cap buys executions.
const LONGEST: usize = 1 << 14;

/// Deepest nesting of generated formulas.
const DEEPEST: u32 = 4;

struct Gen<'a> {
    data: &'a [u8],
    at: usize,
    out: String,
    eol: &'static str,
}

impl<'a> Gen<'a> {
    fn new(first: u8, data: &'a [u8]) -> Self {
        let eol = match first % 8 {
            6 => "\r\n",
            7 => "\r",
            _ => "\n",
        };
        Gen { data, at: 0, out: String::new(), eol }
    }

    fn done(&self) -> bool {
        self.at >= self.data.len() || self.out.len() >= LONGEST
    }

    /// The next byte of the program (0 past its end).
    fn byte(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    fn pick<T: Copy>(&mut self, list: &[T]) -> T {
        list[self.byte() as usize % list.len()]
    }

    /// Appends `text`, each `\n` written as the document's line ending.
    fn push(&mut self, text: &str) {
        if self.eol == "\n" || !text.contains('\n') {
            self.out.push_str(text);
        } else {
            self.out.push_str(&text.replace('\n', self.eol));
        }
    }

    fn nl(&mut self) {
        self.out.push_str(self.eol);
    }

    /// A line break unless the output is at the start of a line.
    fn line_start(&mut self) {
        if !(self.out.is_empty() || self.out.ends_with('\n') || self.out.ends_with('\r')) {
            self.nl();
        }
    }

    /// The next `1..=max` bytes of the program as text.
    fn raw(&mut self, max: usize) -> String {
        let len = 1 + self.byte() as usize % max;
        let end = (self.at + len).min(self.data.len());
        let text = String::from_utf8_lossy(self.data.get(self.at..end).unwrap_or(&[])).into_owned();
        self.at = end.max(self.at);
        text
    }

    fn run(mut self) -> String {
        while !self.done() {
            self.op();
        }
        self.out
    }

    fn op(&mut self) {
        match self.byte() % 32 {
            0 => self.heading(),
            1 | 2 | 3 => {
                let w = self.pick(ZH_WORDS);
                self.push(w)
            }
            4 | 5 | 6 => {
                let w = self.pick(EN_WORDS);
                self.push(w);
                self.push(" ")
            }
            7 | 8 | 9 => self.inline_math(),
            10 | 11 => self.display_math(),
            12 => {
                let f = self.formula(0);
                self.push(&f)
            }
            13 => {
                let p = self.pick(PUNCTUATION);
                self.push(p)
            }
            14 => {
                let c = self.pick(ODD_CHARACTERS);
                self.push(c)
            }
            15 | 16 => self.newline(),
            17 => self.code(),
            18 => {
                let h = self.pick(HTML);
                self.push(h)
            }
            19 => self.table(),
            20 => {
                self.line_start();
                let m = self.pick(LIST_MARKERS);
                self.push(m)
            }
            21 => {
                let t = self.raw(48);
                self.push(&t)
            }
            22 => {
                let d = self.pick(LOOSE_DELIMITERS);
                self.push(d)
            }
            23 => {
                let w = self.pick(MISC_WORDS);
                self.push(w)
            }
            24 | 25 => {
                // A whole claim or definition in display math, on its own line.
                let f = self.pick(FORMULAS);
                let (open, close) = self.pick(DISPLAY_DELIMITERS);
                self.line_start();
                self.push(open);
                self.push(f);
                self.push(close);
                self.nl();
            }
            26 => {
                let f = self.pick(FORMULAS);
                let (open, close) = self.pick(INLINE_DELIMITERS);
                self.push(open);
                self.push(f);
                self.push(close)
            }
            27 => self.repeat(),
            28 => {
                let s = self.pick(SENTENCES);
                self.push(s)
            }
            29 => self.push(" "),
            30 => {
                let w = self.pick(HEADING_TITLES);
                self.push(w)
            }
            _ => {
                let c = self.pick(LETTERS);
                self.push(c)
            }
        }
    }

    fn heading(&mut self) {
        self.line_start();
        let style = self.byte();
        let number = self.pick(SECTION_NUMBERS);
        let title = self.pick(HEADING_TITLES);
        match style % 8 {
            // Setext headings.
            0 => {
                self.push(&format!("{number} {title}\n"));
                let underline = if style & 0x10 == 0 { "===" } else { "---" };
                self.push(underline);
            }
            // A numbered title line without `#` (a section all the same).
            1 => self.push(&format!("{number} {title}")),
            // `#` with no space after it (no heading in CommonMark).
            2 => self.push(&format!("#{number}{title}")),
            // Closing `#`s and leading spaces.
            3 => self.push(&format!("  ## {number} {title} ##")),
            _ => {
                let level = 1 + (style as usize / 8) % 6;
                self.push(&format!("{} {number} {title}", "#".repeat(level)));
            }
        }
        self.nl();
        if style & 0x80 != 0 {
            self.nl();
        }
    }

    fn newline(&mut self) {
        match self.byte() % 8 {
            0 | 1 => self.nl(),
            2 => self.push("\n\n"),
            3 => self.out.push_str("\r\n"),
            4 => self.out.push('\r'),
            5 => self.push("  \n"),
            6 => self.push("\\\n"),
            _ => self.out.push_str("\n\r\n"),
        }
    }

    fn inline_math(&mut self) {
        let (open, close) = self.pick(INLINE_DELIMITERS);
        let f = self.formula(0);
        self.push(open);
        self.push(&f);
        self.push(close);
    }

    fn display_math(&mut self) {
        let variant = self.byte();
        let f = self.formula(0);
        let g = self.formula(0);
        let own_line = variant & 0x80 != 0;
        if own_line {
            self.line_start();
        }
        match variant % 16 {
            0 => self.push(&format!("$${f}$$")),
            1 => self.push(&format!("$$\n{f}\n$$")),
            2 => self.push(&format!("$$\n{f} \\\\\n{g}\n$$")),
            3 => self.push(&format!("\\[{f}\\]")),
            4 => self.push(&format!("\\\\[{f}\\\\]")),
            5 => self.push(&format!("\\begin{{equation}}\n{f}\n\\end{{equation}}")),
            6 => self.push(&format!("\\begin{{align}}\n{f} \\\\\n{g}\n\\end{{align}}")),
            7 => self.push(&format!("$$\\begin{{aligned}}\n{f} \\\\\n&{g}\n\\end{{aligned}}$$")),
            8 => self.push(&format!("\\begin{{align*}}{f} &= {g}\\end{{align*}}")),
            9 => self.push(&format!("```{{math}}\n{f}\n```")),
            10 => self.push(&format!("```{{math}}\n:label: eq-{}\n\n{f}\n```", variant / 16)),
            11 => self.push(&format!(":::{{math}}\n{f}\n:::")),
            12 => self.push(&format!("$$\n{f}\n$$ (eq:{})", variant / 16)),
            13 => self.push(&format!("> $${f}$$")),
            14 => self.push(&format!("$$ {f} \\tag{{{}}} $$", variant / 16)),
            _ => self.push(&format!("\\begin{{eqnarray}}\n{f} &=& {g}\n\\end{{eqnarray}}")),
        }
        if own_line {
            self.nl();
        }
    }

    /// A formula: a few atoms, some of them nested formulas.
    fn formula(&mut self, depth: u32) -> String {
        let mut out = String::new();
        let atoms = 1 + self.byte() % 6;
        for _ in 0..atoms {
            if self.done() {
                break;
            }
            let which = self.byte();
            match which % 16 {
                0..=7 => out.push_str(self.pick(ATOMS)),
                8 | 9 => out.push_str(self.pick(FORMULAS)),
                10 => out.push_str(self.pick(LETTERS)),
                11 => out.push_str(self.pick(RELATIONS)),
                12 => {
                    let t = self.raw(12);
                    out.push_str(&t)
                }
                _ if depth >= DEEPEST => out.push_str(self.pick(LETTERS)),
                13 => {
                    let (open, close) = self.pick(GROUPS);
                    let inner = self.formula(depth + 1);
                    out.push_str(open);
                    out.push_str(&inner);
                    out.push_str(close);
                }
                14 => {
                    let a = self.formula(depth + 1);
                    let b = self.formula(depth + 1);
                    let form = self.pick(BINARY_FORMS);
                    out.push_str(&form.replace("A", &a).replace("B", &b));
                }
                _ => {
                    let a = self.formula(depth + 1);
                    let b = self.formula(depth + 1);
                    let env = self.pick(&["aligned", "cases", "bmatrix", "pmatrix", "array}{cc", "split"]);
                    let name = env.split('}').next().unwrap_or(env);
                    out.push_str(&format!("\\begin{{{env}}}{a} & {b} \\\\ {b} & {a}\\end{{{name}}}"));
                }
            }
        }
        out
    }

    fn code(&mut self) {
        let variant = self.byte();
        let fence = self.pick(FENCES);
        let body = self.formula(0);
        match variant % 8 {
            // Inline code.
            0 => self.push(&format!("`{body}`")),
            1 => self.push("``a`$x$`b``"),
            // A block without its closing fence.
            2 => {
                self.line_start();
                self.push(&format!("{fence}\n$${body}$$\n"));
            }
            // A closing fence alone.
            3 => {
                self.line_start();
                let close = fence.trim_start().split(|c: char| c != '`' && c != '~').next().unwrap_or("```");
                self.push(&format!("{close}\n"));
            }
            // An indented code block.
            4 => {
                self.line_start();
                self.push(&format!("\n    $${body}$$\n    x = 1\n\n"));
            }
            _ => {
                self.line_start();
                let close = fence.trim_start().split(|c: char| c != '`' && c != '~').next().unwrap_or("```");
                self.push(&format!("{fence}\n{body}\nx = $y$ # $z$\n{close}\n"));
            }
        }
    }

    fn table(&mut self) {
        self.line_start();
        let columns = 1 + self.byte() as usize % 4;
        let rows = self.byte() as usize % 4;
        let mut header = String::from("|");
        for _ in 0..columns {
            let cell = self.cell();
            header.push_str(&format!(" {cell} |"));
        }
        self.push(&header);
        self.nl();
        let mut delimiter = String::from("|");
        for _ in 0..columns {
            delimiter.push_str(self.pick(&["---|", ":--|", "--:|", ":-:|", "-|"]));
        }
        self.push(&delimiter);
        self.nl();
        for _ in 0..rows {
            let mut row = String::from("|");
            for _ in 0..columns {
                let cell = self.cell();
                row.push_str(&format!(" {cell} |"));
            }
            self.push(&row);
            self.nl();
        }
    }

    fn cell(&mut self) -> String {
        match self.byte() % 5 {
            0 => self.pick(ZH_WORDS).to_string(),
            1 => self.pick(EN_WORDS).to_string(),
            2 => format!("${}$", self.formula(DEEPEST - 1)),
            3 => format!("${}$", self.pick(FORMULAS)),
            _ => self.pick(&["1", "0.01", "0.99", "\\|", "$|x|$", "$p(y|x)$", "", "`a|b`"]).to_string(),
        }
    }

    /// The last few bytes written, written again a few times.
    fn repeat(&mut self) {
        let back = 1 + self.byte() as usize;
        let times = 1 + self.byte() as usize % 8;
        let mut start = self.out.len().saturating_sub(back);
        while !self.out.is_char_boundary(start) {
            start -= 1;
        }
        let piece = self.out[start..].to_string();
        for _ in 0..times {
            if self.out.len() >= LONGEST {
                break;
            }
            self.out.push_str(&piece);
        }
    }
}

const HEADING_TITLES: &[&str] = &[
    "",
    "1",
    "逻辑回归",
    "单个样本",
    "批量与 L2 正则",
    "损失函数",
    "反向传播",
    "Rules",
    "Logistic regression",
    "Softmax and cross-entropy",
    "Problem",
    "Derivatives",
    "Appendix: $x^2$",
    "第 3 章：逻辑回归",
    "$\\theta$ 的梯度",
    "Notes {#sec-notes}",
    "（续）",
    "Exercise 1.",
];

const SECTION_NUMBERS: &[&str] = &[
    "", "1", "2", "3.2", "1.2.3", "15.1", "15.5", "3.1.", "第3章", "第 2 节", "A.1", "1)", "（1）", "0", "99.99.99", "1.",
];

const ZH_WORDS: &[&str] = &[
    "假设",
    "集合",
    "参数",
    "因此",
    "其中",
    "令",
    "则",
    "得到",
    "如果",
    "设",
    "损失函数",
    "对于所有",
    "是",
    "为",
    "满足",
    "矩阵",
    "向量",
    "随机变量",
    "独立",
    "相互独立",
    "独立同分布",
    "例如",
    "对任意",
    "我们有",
    "于是",
    "所以",
    "那么",
    "当且仅当",
    "定义",
    "记",
    "取值为",
    "以概率",
    "代入",
    "式(6.9)",
    "一般地，",
    "很小的",
    "对称矩阵",
    "常数",
    "实数",
    "改为",
    "应为",
    "的",
    "和",
    "与",
    "是集合",
    "给定",
    "不",
    "熵",
    "梯度",
    "导数",
    "可得",
    "假定",
    "若",
    "即",
    "也就是说",
    "设置为0.9。",
    "是两个独立的随机变量",
    "是对称矩阵",
    "等于其转置：",
    "足够小时",
    "注意到",
    "由于",
    "求解",
    "正定",
    "交叉熵损失为",
    "逻辑函数定义为",
];

const EN_WORDS: &[&str] = &[
    "suppose that",
    "let",
    "where",
    "hence",
    "for all",
    "we have",
    "is a set",
    "has",
    "denote",
    "assume",
    "then",
    "so",
    "thus",
    "therefore",
    "is",
    "be",
    "are",
    "a matrix",
    "symmetric matrix",
    "random variable",
    "random variables",
    "independent",
    "i.i.d.",
    "for example",
    "e.g.",
    "i.e.",
    "that is,",
    "is small",
    "is set to 0.1, and",
    "takes the values",
    "with probability",
    "substituting",
    "in general",
    "given",
    "not",
    "if and only if",
    "denote by",
    "the loss",
    "loss",
    "gradient",
    "derivative of",
    "should read",
    "is replaced by",
    "deterministic",
    "constant",
    "real numbers",
    "and",
    "or",
    "Eq. (3)",
    "using equation 2",
    "is a diagonal matrix",
    "whose columns are orthogonal",
    "tends to 0",
    "entropy",
    "conditional on",
    "we get",
    "the cross-entropy is",
];

const MISC_WORDS: &[&str] = &[
    "problem:",
    "problem: ",
    "loss",
    " l : loss ",
    "Solution.",
    "Proof.",
    "**",
    "*",
    "_",
    "[link](http://a.b/$x$)",
    "![img](a.png)",
    "[^1]",
    "[^1]: $x=1$",
    "{eq}`eq-1`",
    "{prf:theorem}",
    ":label: thm",
    "---\ntitle: $x$\n---\n",
    "<https://example.com>",
    "\\",
    "\\\\",
    "%",
    "{",
    "}",
    "0",
    "1",
    "2",
    "0.5",
    "1e-3",
    "100",
    "(1)",
    "（3.2）",
    "式(3.7)",
    ":eqref:`eq`",
];

const SENTENCES: &[&str] = &[
    "problem: $ l : loss $ 参数 假设$\\theta$是集合：suppose that $\\theta$ has $\\theta_1=2$",
    "参数：，assume that $x$ 满足 $x_1=2$，suppose 假设 $y$：$y=1$",
    "设样本特征为 $x\\in\\mathbb R^{d}$，标签 $y\\in\\{0,1\\}$。",
    "Let $w\\in\\mathbb R^d$ be the weights, where $d$ is the dimension.",
    "若$X$与$Y$相互独立，则",
    "设随机变量$Y$以概率$q$取值$1$，以概率$1-q$取值$0$。",
    "For all $x$, we have $(x+1)^2 = x^2+2x+1$.",
    "Hence $\\frac{\\partial L}{\\partial w} = X^\\top(Xw - y)$.",
    "The learning rate $\\eta$ is set to 0.1, and",
    "$\\theta$ is a set, and $l$ denotes the loss.",
    "其中 $\\mathbf{W}\\in\\mathbb{R}^{m\\times n}$ 是矩阵，",
    "so $x = 2$ and $y = 3$, i.e. $x + y = 5$.",
    "$A$ is a symmetric matrix, so $A^\\top = A$.",
    "对于所有 $i$，令 $a_i = 1$，则 $\\sum_{i=1}^n a_i = n$。",
    "Substituting $z = 1$ gives $\\sigma(z) \\approx 0.731$.",
    "US$5 and US$6",
    "cost \\$5, not $x$",
];

const PUNCTUATION: &[&str] = &[
    "，", "。", "：", "；", "（", "）", "“", "”", "、", "！", "？", "「", "」", "《", "》", "【", "】", "…", "——", "．", ",", ".",
    ":", ";", "(", ")", "\"", "'", "!", "?", "-", "—", "·", "～",
];

const ODD_CHARACTERS: &[&str] = &[
    "\u{3000}", "\u{200B}", "\u{200C}", "\u{200D}", "\u{FEFF}", "\u{00A0}", "\t", "\u{2028}", "\u{2029}", "\u{00AD}", "😀",
    "𝑥", "𝔼", "𠀀", "👍🏽", "é", "e\u{0301}", "\u{FFFD}", "\u{0}", "\u{7F}", "\u{202E}", "ﬁ", "Ω", "∑", "∂", "≤", "≈", "→",
    "×", "√", "∈", "λ", "θ",
];

const LIST_MARKERS: &[&str] =
    &["- ", "* ", "+ ", "1. ", "2) ", "（1）", "(1) ", "> ", "> > ", "    ", "\t", "- [ ] ", "1.  ", "10. ", "- > "];

const HTML: &[&str] = &[
    "<div>",
    "</div>",
    "<div class=\"math\">\n",
    "<!-- derivcheck: skip -->",
    "<!-- derivcheck: claim -->",
    "<!-- derivcheck: binding -->",
    "<!-- derivcheck: condition -->",
    "<!-- derivcheck: wrong -->",
    "<!-- derivcheck: maybe -->",
    "<!--derivcheck:Skip-->",
    "<!-- derivcheck: -->",
    "<!-- verified -->",
    "<!-- definition -->",
    "<!-- refuted -->",
    "<!-- a note",
    "-->",
    "<br>",
    "<br/>",
    "<span>$x$</span>",
    "<details><summary>$x=1$</summary>",
    "</details>",
    "<script>var a = '$x$';</script>",
    "<p align=\"center\">",
    "<img src=\"a.png\">",
    "&nbsp;",
    "&lt;",
    "<",
    ">",
];

const FENCES: &[&str] = &[
    "```",
    "~~~",
    "```python",
    "```{math}",
    "```{code-cell} ipython3",
    "````",
    "~~~~",
    "```math",
    "```{prf:theorem}",
    "```{admonition} $x$",
    "   ```",
    "```latex",
];

const LOOSE_DELIMITERS: &[&str] = &[
    "$",
    "\\$",
    "$$",
    "$$$",
    " $ ",
    "\\(",
    "\\)",
    "\\[",
    "\\]",
    "\\\\(",
    "\\\\)",
    "\\\\[",
    "\\\\]",
    "\\begin{equation}",
    "\\end{equation}",
    "\\begin{align}",
    "\\end{align}",
    "\\begin{aligned}",
    "\\end{aligned}",
    "\\begin{gather*}",
    "\\begin{unknown}",
    "$`",
    "`$",
];

const INLINE_DELIMITERS: &[(&str, &str)] = &[
    ("$", "$"),
    ("$", "$"),
    ("$", "$"),
    ("$ ", " $"),
    ("$  ", "$"),
    ("\\(", "\\)"),
    ("\\\\(", "\\\\)"),
    ("$$", "$$"),
    ("$`", "`$"),
    ("\\$", "$"),
    ("$", "\\$"),
    ("$", ""),
    ("", "$"),
    ("\u{200B}$", "$\u{200B}"),
    ("\u{3000}$", "$。"),
];

const DISPLAY_DELIMITERS: &[(&str, &str)] = &[
    ("$$", "$$"),
    ("$$", "$$"),
    ("$$\n", "\n$$"),
    ("$$ ", " $$"),
    ("\\[", "\\]"),
    ("\\\\[", "\\\\]"),
    ("\\begin{equation}\n", "\n\\end{equation}"),
    ("\\begin{align}", "\\end{align}"),
    ("$$\\begin{aligned}", "\\end{aligned}$$"),
    ("```{math}\n", "\n```"),
    ("$$", "$$ <!-- verified -->"),
    ("<!-- derivcheck: skip -->\n$$", "$$"),
    ("$$", "。$$"),
];

const LETTERS: &[&str] = &[
    "x", "y", "z", "w", "b", "a", "n", "i", "j", "k", "L", "W", "X", "l", "p", "q", "\\theta", "\\sigma", "\\lambda", "\\eta",
    "\\mu", "\\alpha", "\\beta", "\\gamma", "1", "2", "0", "3", "x_i", "y_j", "w_{ij}", "\\ell",
];

const RELATIONS: &[&str] = &[
    "=", "\\approx", "\\le", "\\leq", "\\ge", "<", ">", "\\ne", ":=", "\\equiv", "\\sim", "\\propto", "\\in", "\\to", "&=", "=&",
    ":", "\\Rightarrow", "\\iff", "\\perp",
];

const ATOMS: &[&str] = &[
    "\\theta_1=2",
    "x^2+y",
    "\\frac{a}{b}",
    "\\sum_{i=1}^n x_i",
    "\\partial",
    "\\mathbf{W}",
    "=",
    "\\approx",
    "\\le",
    "&",
    "\\\\",
    "+",
    "-",
    "\\cdot",
    "\\times",
    "^2",
    "^{-1}",
    "_i",
    "_{i,j}",
    "^\\top",
    "^\\mathsf T",
    "'",
    "\\frac{\\partial L}{\\partial w}",
    "\\frac{\\mathrm d}{\\mathrm dz}",
    "\\nabla_w",
    "\\log",
    "\\ln",
    "\\exp",
    "e^{x}",
    "\\sigma(z)",
    "\\operatorname{softmax}(x)",
    "\\mathbb{R}^{n}",
    "\\mathbb{E}[X]",
    "\\mathrm{Var}(X)",
    "P(A\\mid B)",
    "\\mathcal{N}(0, 1)",
    "\\sqrt{2}",
    "\\det A",
    "\\operatorname{tr}(A)",
    "\\|w\\|^2",
    "|x|",
    "\\left(",
    "\\right)",
    "\\bigl(",
    "\\bigr)",
    "(",
    ")",
    "[",
    "]",
    "\\{",
    "\\}",
    "{",
    "}",
    ",",
    ".",
    "\\quad",
    "\\qquad",
    "\\,",
    "\\text{if }",
    "\\text{其中}",
    "\\textrm{ where }",
    "\\mathbf 1",
    "\\odot",
    "\\otimes",
    "\\int_0^1",
    "dx",
    "\\prod_{k=1}^{K}",
    "\\lim_{h\\to 0}",
    "\\infty",
    "\\ldots",
    "\\cdots",
    "\\hat x",
    "\\bar Y",
    "\\tilde{w}",
    "\\boldsymbol{\\mu}",
    "W_{ij}^{(1)}",
    "x_j^{(i)}",
    "\\tag{1}",
    "\\label{eq:1}",
    "\\nonumber",
    "\\\\[2pt]",
    "%comment\n",
    "\n",
    " ",
    "，",
    "。",
    "\u{3000}",
    "\u{200B}",
];

const GROUPS: &[(&str, &str)] = &[
    ("{", "}"),
    ("(", ")"),
    ("\\left(", "\\right)"),
    ("\\left[", "\\right]"),
    ("\\left|", "\\right|"),
    ("\\sqrt{", "}"),
    ("\\mathbf{", "}"),
    ("\\text{", "}"),
    ("e^{", "}"),
    ("_{", "}"),
    ("^{", "}"),
    ("\\sigma(", ")"),
    ("\\log(", ")"),
    ("\\hat{", "}"),
    ("|", "|"),
    ("\\|", "\\|"),
];

const BINARY_FORMS: &[&str] = &[
    "\\frac{A}{B}",
    "A=B",
    "A = B",
    "A\\approx B",
    "A\\le B",
    "A + B",
    "A B",
    "A^{B}",
    "A_{B}",
    "\\sum_{A}^{B}",
    "\\frac{\\partial A}{\\partial B}",
    "\\frac{d A}{d B}",
    "A &= B \\\\",
    "\\int_{A}^{B}",
    "A, B",
    "A\\mid B",
    "\\binom{A}{B}",
];

/// Formulas from the test chapters, the notation suite and the shipped chapter (whole claims,
/// definitions and slips), so that generated documents reach sema and the cross-check.
const FORMULAS: &[&str] = &[
    r#"PQ=QP"#,
    r#"\sum_i\hat x_i^3=0"#,
    r#"w = a + b"#,
    r#"r(X, X) = 2 r(X, 3X)"#,
    r#"E[Y] = q"#,
    r#"\frac{\mathrm{d}}{\mathrm{d}x}\left(x+0.044715x^3\right)=1+0.134145x^2"#,
    r#"P(A\mid B) = \frac{P(A, B)}{P(B)}"#,
    r#"\operatorname{softmax}(x)_1=\frac{e^{x_1}}{\sum_i e^{x_i}}"#,
    r#"q_ik_j^\mathsf T=x_iW_QW_K^\mathsf T x_j^\mathsf T"#,
    r#"\mathrm{Var}(X+Y) = \mathrm{Var}(X) + \mathrm{Var}(Y)"#,
    r#"\mu_X = \frac{n}{2}"#,
    r#"a_j=e^{s_j}/D"#,
    r#"\log_2 q = \frac{\ln 2}{\ln q}"#,
    r#"u^\top v = v^\top u"#,
    r#"\delta = -\eta g'(w)"#,
    r#"L(w) = \sum_{i=1}^N \left[y_i (w x_i) - \log(1+\exp(w x_i))\right]"#,
    r#"\nabla_w\frac\lambda2\|w\|^2=2\lambda w"#,
    r#"1 + \gamma + \gamma^2 + \ldots, = \frac{1}{1-\gamma}"#,
    r#"\mathbb{E}[(Y-\mu)^2] = \mathbb{E}[Y^2] - \mu^2"#,
    r#"\mathbf{v}_0 = \mathbf{s}_0 = 0"#,
    r#"\textrm{MSE}(\hat{\theta}_n, \theta) = E[(\hat{\theta}_n - \theta)^2]"#,
    r#"r + s := w"#,
    r#"r(x - \eta r'(x)) = r(x) - \eta r'^2(x) + \mathcal{O}(\eta^2 r'^2(x))"#,
    r#"(AB)^\top=B^\top A^\top"#,
    r#"g'(t)=\frac{1}{1+e^{-t}}"#,
    r#"\mathrm{Cov}(X, X) = \mathrm{Var}[X]"#,
    r#"\frac{\partial L}{\partial y_2}=s_2-y_2"#,
    r#"h(x) = (x/c)^\alpha"#,
    r#"|a||b|=|ab|"#,
    r#"\epsilon^2 = 10^{-12}"#,
    r#"\sum_{k=1}^n \mathbf{u}_k = 0"#,
    r#"L=\sum_{i=1}^{n}h_i^2+\bar h_1"#,
    r#"\frac{d}{dx}\left(g(x)q(x)\right) = g'(x)"#,
    r#"1-\beta_1^2=0.19"#,
    r#"(u+v)^2=u^2+2uv+v^2"#,
    r#"0 = (2-\lambda)(3-\lambda)-2 = (4-\lambda)(2-\lambda)"#,
    r#"a_1 + a_2 = a_3 a_4"#,
    r#"\sigma_X^2 = n p^2"#,
    r#"(\mathbf{P}\mathbf{Q})_{il} = \sum_j p_{ij}q_{jl}"#,
    r#"\log_{10} 1000 = 3"#,
    r#"f(\mathbf{x}) = x_1^2 + 2x_2^2"#,
    r#"\det(A^\top)=\det(A)"#,
    r#"\mathbf{c} = \mathbf{U}\mathbf{c}"#,
    r#"j=1,\dots,K"#,
    r#"y_0 + y_1 + \ldots + y_m = y_0 + \sum_{i=1}^m y_i"#,
    r#"\sigma(0)=0.5"#,
    r#"\ell=hU+b"#,
    r#"|a|b|c|=|abc|"#,
    r#"\mathbf{x} = [x_1, x_2]^\top"#,
    r#"|a-b|=|b-a|"#,
    r#"\sin(\pi)=1"#,
    r#"\exp(x) = a_0 + a_1 x + a_2 x^2 + \cdots"#,
    r#"\int_a^b f(x)\,dx = F(b)-F(a)"#,
    r#"\epsilon^{2}= 0.00000000000001"#,
    r#"e^{(\ln x)^2-\frac12}=\frac{e^{(\ln x)^2}}{e^{1/2}}"#,
    r#"\det(\mathbf{V}) = \det(\mathbf{V}^\top)"#,
    r#"|a-b|=a-b"#,
    r#"\max(0,a)=-a"#,
    r#"\frac{\partial}{\partial w}\frac\lambda2\|w\|^2=\lambda w"#,
    r#"x = (x_1, \ldots, x_n)"#,
    r#"\mathbf{W}^\top\mathbf{1} = \mathbf{W}\mathbf{1}"#,
    r#"\sqrt{2} = 1.414213"#,
    r#"\|u\|^2=u^\top u"#,
    r#"L=\operatorname{sum}(G\odot Y)"#,
    r#"\bar b=\mathbf 1^\top\bar Y W"#,
    r#"\|\mathbf{O}\|_F = \sqrt{\sum_{i=1}^m \sum_{j=1}^n o_{ij}^2}"#,
    r#"h=W^{(2)}W^{(1)}x"#,
    r#"\frac{dG}{dx} = 2 h(x)"#,
    r#"P(C_1|x) = \frac{P(C_1)P(x|C_1)}{P(C_1)P(x|C_1) + P(C_2)P(x|C_2)}"#,
    r#"p=\operatorname{softmax}(s)"#,
    r#"\int P(Y) P(X \mid Y) dY = P(X)"#,
    r#"x_a=(1,0),x_b=(0,1)"#,
    r#"g(x)=\ln(1+e^x)"#,
    r#"\operatorname{swish}(x)=x\,\sigma(x)"#,
    r#"w = 0"#,
    r#"\partial_{x} (x^2 y)=x^2"#,
    r#"d\mu=\operatorname{mean}(dx)"#,
    r#"\bar{\hat y}=\hat y-t,\qquad \bar v=H^\top\bar{\hat y},\qquad \bar H=\bar{\hat y}v^\top"#,
    r#"\frac{d}{dx} g(h(x)) = g'(h(x))\,h'(x)"#,
    r#"\frac{\partial\ell}{\partial w}=(y-p)\,x"#,
    r#"\sum_{j=1}^K\hat y_j=1"#,
    r#"\operatorname{sum}(x)=15"#,
    r#"\partial f/\partial x=x^3"#,
    r#"\mathbf 1\mathbf 1^\top w=w"#,
    r#"\sum_{j=1}^{q} y_j = m"#,
    r#"10^{-30}=0"#,
    r#"\nabla f(\mathbf{x}) = [2x_1, 4x_2]^\top"#,
    r#"\frac{1}{2}\sum_{i=1}^2 X_i = \frac{X_1 + X_2}{2}"#,
    r#"p=\sigma(a)"#,
    r#"\mathbf u^\top\mathbf u=\|\mathbf u\|^2"#,
    r#"\mathbf{S}\mathbf{h} = \lambda\mathbf{h}"#,
    r#"c^2 = 4"#,
    r#"\bar E=\begin{bmatrix} 1.055387&0.425203\\1.466503&0.871611\\0&0 \end{bmatrix}"#,
    r#"\ln(a^2)=2\ln a"#,
    r#"\sigma_{X+Y} = \sqrt{\sigma_{X}^2 + \sigma_{Y}^2}"#,
    r#"g(3) = 9"#,
    r#"e^x = 1 + x + \frac{x^2}{2} + \frac{x^3}{3} + \cdots"#,
    r#"m_t = (1-\beta) g_t + m_{t-1}"#,
    r#"\log(1+x) = x + \frac{x^2}{2} + \frac{x^3}{3} - \cdots"#,
    r#"I(X, Y) = H(X) + H(Y) + H(X, Y)"#,
    r#"\mathbf{x} = \mathbf{U}\mathbf{x}"#,
    r#"c^2 = 2c"#,
    r#"\partial_{y} (x^2 y)=x^2"#,
    r#"P P^k \mathbf 1 = P \mathbf 1 = \mathbf 1"#,
    r#"[b_{11}, b_{22}] = (2, 4)"#,
    r#"\rho_0 = [0.15, 0.62, 0.23]"#,
    r#"q_1^s = -15 + 15p_1"#,
    r#"\ln\frac{e^a}{e^a+e^b}=a-\ln(e^a+e^b)"#,
    r#"\operatorname{LN}(x)_r=\gamma_r\frac{x_r-\mu}{\sqrt{v+\varepsilon}}+\beta_r"#,
    r#"m^3=8"#,
    r#"1 + xy + x^2y^2 + \cdots = \frac{1}{1-xy}"#,
    r#"\mu_X = 2\mu"#,
    r#"3 \cdot 10^9 \cdot 16 = 10^{12}"#,
    r#"\frac{d}{dx}\cos x=\sin x"#,
    r#"g(\mathbf{y}) = \mathbf{y}^\top\mathbf{y}"#,
    r#"\textrm{Var}(Z) = c^2\textrm{Var}(X)"#,
    r#"\sum_{k=1}^{n}x_k=1"#,
    r#"\sum_{i=1}^m \boldsymbol{y}_i = 0"#,
    r#"\mathbf 1^\top \mathbf 1=3"#,
    r#"a + \Delta t\, a = (1 + \Delta t) a"#,
    r#"\Delta x + \Delta y = \Delta(x + y)"#,
    r#"[u, v] = (u, v)"#,
    r#"\operatorname{tr}(AB)=\operatorname{tr}(BA)"#,
    r#"\epsilon = 10^{-7}"#,
    r#"(a+b)^2 = a^2 + b^2"#,
    r#"\bigl(a+b\bigr)^2=a^2+2ab+b^2"#,
    r#"\sigma_X^2 = \lambda^2"#,
    r#"p_X(x) = \int_{-\infty}^{\infty} p_{X, Y}(x, y) \, dy"#,
    r#"\eta=0.2"#,
    r#"\mathbf{A}\mathbf{v} = \lambda \mathbf{v}"#,
    r#"\rho = 0.9"#,
    r#"\int_0^{x} ny^{n-1} \; dy = x^n"#,
    r#"\sum_{i=1}^N l_i = l"#,
    r#"\langle u,v\rangle=u^\top u"#,
    r#"u(2x) = 2u(x)"#,
    r#"\frac{\partial L}{\partial z}=\frac1n(p-y)"#,
    r#"c = 2 \;\text{且}\; h = 4"#,
    r#"h = -\eta q'(t)"#,
    r#"\textrm{Var}(X) = 0"#,
    r#"(\alpha+\beta)^m = \alpha^m + \beta^m"#,
    r#"\lvert a\rvert b\lvert c\rvert=b|ac|"#,
    r#"\psi Q^2 = \psi Q = \psi"#,
    r#"P(H=1) = 0.01"#,
    r#"\rho(X, Y) = \rho(Y, X)"#,
    r#"\sqrt{x^2}=|x|"#,
    r#"\boldsymbol{h}_{\text{inv}} + \boldsymbol{h}_{\text{inv}} = 3\boldsymbol{h}_{\text{inv}}"#,
    r#"\mathbf{r} = [0.25,0.25,0.25,0.25]"#,
    r#"E[X \mid Y] = E[X]"#,
    r#"\nabla g(\mathbf{y}) = [2y_1, 2y_2, \ldots, 2y_d]^\top"#,
    r#"\ln(\theta^3(1-\theta)^2) = 3\ln\theta + 2\ln(1-\theta)"#,
    r#"\sum_i\operatorname{softmax}(x)_i=1"#,
    r#"\sqrt{2} = 1.41421"#,
    r#"h(\mathbf{z})=z_1^2+2z_2^2"#,
    r#"\partial L/\partial U_{rj}=h_r\bar\ell_j"#,
    r#"\mathbf{P}\mathbf{g} = \mathbf{g}"#,
    r#"\nabla_w L=\frac1n X^\top(p-y)+\lambda w"#,
    r#"\left(\sqrt{q-1}\right)^2 = q-1"#,
    r#"q(x) = a_0 + a_1 x + a_2 x^2 + \cdots"#,
    r#"\int_a^b u(x)\,dx = U(b) - U(a)"#,
    r#"(AB)^\top=A^\top B^\top"#,
];
