//! Grammar rule tests: each construct the notes use, parsed to its S-expression.

use super::*;
use crate::syntax::print;

fn sx(tex: &str) -> String {
    match parse_formula(tex) {
        Ok(s) => print::statement(&s),
        Err(e) => panic!("`{tex}` did not parse: {e} at {:?}", e.span),
    }
}

fn err(tex: &str) -> SyntaxError {
    parse_formula(tex).expect_err(&format!("`{tex}` should not parse"))
}

#[test]
fn transposes_in_every_spelling() {
    for tex in ["X^\\mathsf T", "X^\\mathsf{T}", "X^{\\mathsf T}", "X^\\top", "X^{\\top}", "X^T"] {
        assert_eq!(sx(tex), "(T X)", "{tex}");
    }
}

#[test]
fn spacing_is_ignored() {
    assert_eq!(sx("\\bar X_{ir}\\,dX_{ir}"), sx("\\bar X_{ir}dX_{ir}"));
}

#[test]
fn mathjax_spells_less_and_greater_as_commands() {
    assert_eq!(sx("p \\gt 1"), sx("p > 1"));
    assert_eq!(sx("x \\lt 2"), sx("x < 2"));
}

#[test]
fn a_letter_and_its_parentheses_with_space_between_are_an_application() {
    assert_eq!(sx("\\hat A ( k)"), sx("\\hat A(k)"));
    assert_eq!(sx("f (x)"), sx("f(x)"));
    // (With a power after the parentheses the space keeps the product: B times the inverse.)
    assert_eq!(sx("B (C)^{-1}"), sx("B\\,(C)^{-1}"));
    assert_ne!(sx("B (C)^{-1}"), sx("B(C)^{-1}"));
}

#[test]
fn a_tex_comment_runs_to_the_end_of_its_line() {
    assert_eq!(sx("a + b % the sum\n= b + a"), sx("a + b = b + a"));
    assert_eq!(sx("%\n%\n(x+1)^2"), sx("(x+1)^2"));
    // A comment to the end of the formula hides what follows it on its line, as TeX does.
    assert_eq!(sx("x = 1 % = 2"), sx("x = 1"));
}

#[test]
fn errors_name_the_token_and_expectation() {
    let e = err("\\foo{x}");
    assert_eq!(e.kind, SyntaxErrorKind::UnknownCommand { command: "\\foo".into() });
    assert_eq!(e.span, Span::new(0, 4));
    let e = err("a + }");
    assert!(matches!(&e.kind, SyntaxErrorKind::Unexpected { found, .. } if found == "}"), "{e:?}");
    assert_eq!(e.span.start, 4);
    let e = err("\\frac{a}");
    assert!(matches!(e.kind, SyntaxErrorKind::UnexpectedEnd { .. }), "{e:?}");
    assert!(matches!(err("").kind, SyntaxErrorKind::Empty));
}

#[test]
fn environments_must_be_closed() {
    let e = err("\\begin{bmatrix}1&2");
    assert!(matches!(e.kind, SyntaxErrorKind::UnbalancedEnvironment { .. }));
    assert_eq!(e.span.start, 0);
    assert!(matches!(err("x \\end{bmatrix}").kind, SyntaxErrorKind::UnbalancedEnvironment { .. }));
}

#[test]
fn limits_refuse_huge_and_deep_formulas_quickly() {
    let huge = "a+".repeat(600_000);
    assert!(matches!(err(&huge).kind, SyntaxErrorKind::TooLarge { .. }));
    let braces = format!("{}x{}", "{".repeat(10_000), "}".repeat(10_000));
    assert!(matches!(err(&braces).kind, SyntaxErrorKind::TooDeep { .. }));
    let fracs = format!("{}12", "\\frac".repeat(10_000));
    assert!(matches!(err(&fracs).kind, SyntaxErrorKind::TooDeep { .. }));
    let bars = format!("{}x", "\\bar".repeat(500));
    assert!(matches!(err(&bars).kind, SyntaxErrorKind::TooDeep { .. }));
}

#[test]
fn moderate_nesting_parses() {
    let nested = format!("{}x{}", "{".repeat(50), "}".repeat(50));
    assert_eq!(sx(&nested), "x");
    let fracs = format!("{}1{}", "\\frac{".repeat(30), "}{2}".repeat(30));
    assert!(parse_formula(&fracs).unwrap().chains[0].first.as_ref().unwrap().depth() > 30);
}

#[test]
fn every_node_span_lies_inside_the_formula() {
    let tex = "\\bar S_{ij}=a_{ij}\\left(\\bar A_{ij}-\\sum_{r\\in J_i}a_{ir}\\bar A_{ir}\\right).";
    let s = parse_formula(tex).unwrap();
    fn walk(e: &Expr, len: usize) {
        assert!(e.span.start <= e.span.end && e.span.end <= len, "{e:?}");
        e.children().for_each(|c| walk(c, len));
    }
    for e in s.chains.iter().flat_map(|c| c.exprs()) {
        walk(e, tex.len());
    }
    let rhs = &s.chains[0].links[0].rhs;
    assert_eq!(
        &tex[rhs.span.start..rhs.span.end],
        "a_{ij}\\left(\\bar A_{ij}-\\sum_{r\\in J_i}a_{ir}\\bar A_{ir}\\right)"
    );
}

#[test]
fn known_commands_come_from_the_grammar() {
    assert!(is_known_command("\\frac"));
    assert!(is_known_command("\\ell"));
    assert!(!is_known_command("\\fra"));
    assert!(!is_known_command("\\foo"));
}

#[test]
fn bare_bars_that_read_two_ways_are_refused() {
    // |a|·b·|c| or |a·|b|·c|: the closing bar of |a| is named.
    for (tex, at) in
        [("|a|b|c| = 1", 2), ("|a| b |c|", 2), ("x|a|b + c|d|", 3), ("|a| |b| c |d|", 2), ("|a| |b| + |c| |d|", 2)]
    {
        let e = err(tex);
        assert_eq!(e.kind, SyntaxErrorKind::AmbiguousBars, "{tex}");
        assert_eq!(e.span, Span::new(at, at + 1), "{tex}");
    }
    // One reading only: nothing between, a script, an operator, explicit or sized bars, groups.
    for (tex, reading) in [
        ("|a| |b|", "(* (abs a) (abs b))"),
        ("|a|\\,|b|", "(* (abs a) (abs b))"),
        ("|a|^2 b|c|", "(* (* (^ (abs a) 2) b) (abs c))"),
        ("|a| + |b|", "(+ (abs a) (abs b))"),
        ("|a| b + |c|", "(+ (* (abs a) b) (abs c))"),
        ("|a|\\cdot b|c|", "(* (cdot (abs a) b) (abs c))"),
        ("\\lvert a\\rvert b \\lvert c\\rvert", "(* (* (abs a) b) (abs c))"),
        ("\\frac{|a| b}{|c|}", "(frac (* (abs a) b) (abs c))"),
        ("|x| y", "(* (abs x) y)"),
        ("|a|\\,|b|\\,|c|", "(* (* (abs a) (abs b)) (abs c))"),
    ] {
        assert_eq!(sx(tex), reading, "{tex}");
    }
}

#[test]
fn a_power_of_a_derivative_before_its_parenthesis_is_the_power_of_the_call() {
    assert_eq!(sx("f'^2(x)"), "(^ (call (prime f) x) 2)");
    assert_eq!(sx("\\eta f''^3(x+1)"), "(* \\eta (^ (call (prime (prime f)) (+ x 1)) 3))");
    // Without a prime, `f^2(x)` may be f(f(x)): left a product for later stages to refuse.
    assert_eq!(sx("f^2(x)"), "(* (^ f 2) (fenced () x))");
}

#[test]
fn the_hessian_and_doubled_bold_are_read() {
    // `\nabla^2 f(\mathbf x)`: the gradient of the gradient of the call.
    assert_eq!(sx("\\nabla^2 f(\\mathbf x)"), "(grad (grad (call f \\mathbf{x}) \\mathbf{x}) \\mathbf{x})");
    // `\mathbf{\boldsymbol{\epsilon}}` is the bold letter, as d2l writes it.
    assert_eq!(sx("\\mathbf{\\boldsymbol{\\epsilon}}"), sx("\\boldsymbol{\\epsilon}"));
    // A word before a parenthesis stays the word times the parenthesis for the parser.
    assert_eq!(sx("\\textrm{MSE}(a, b)"), "(* (text \"MSE\") (fenced () (tuple a b)))");
}

#[test]
fn both_scripts_on_one_letter_read_as_the_members_power() {
    // TeX sets `x^2_i` as `x_i^2`; the member is squared, transposed.
    assert_eq!(sx("x^2_i"), sx("x_i^2"));
    assert_eq!(sx("\\sigma^2_X"), sx("\\sigma_X^2"));
    assert_eq!(sx("\\mathbf{a}^\\top_{i}"), sx("\\mathbf{a}_{i}^\\top"));
    // A label is the letter's, whichever script comes first (`x_j^{(i)}`: the j-th entry of the
    // i-th sample, never a power of the entry).
    assert_eq!(sx("W^{(1)}_{ij}"), sx("W_{ij}^{(1)}"));
    assert_eq!(sx("x_j^{(i)}"), "(_ x^{(i)} j)");
    // A step of a sequence labels its member too; Euler's e takes a power.
    assert_eq!(sx("\\mu_j^{(i+1)}"), "(_ \\mu^{(i+1)} j)");
    assert!(sx("e^{(x+1)}").starts_with("(^ e"), "{}", sx("e^{(x+1)}"));
    // Not a capital's two indices, nor a capital's transpose.
    assert_ne!(sx("\\mathbf{A}^2_{ij}"), sx("\\mathbf{A}_{ij}^2"));
    assert_ne!(sx("\\mathbf{A}^\\top_{ij}"), sx("\\mathbf{A}_{ij}^\\top"));
    assert_ne!(sx("\\mathbf{A}^\\top_{i}"), sx("\\mathbf{A}_{i}^\\top"));
}

#[test]
fn bold_capitals_side_by_side_are_a_product() {
    assert_eq!(sx("\\mathbf{AB}"), sx("\\mathbf{A}\\mathbf{B}"));
    assert_eq!(sx("\\mathbf{QKV}"), sx("\\mathbf{Q}\\mathbf{K}\\mathbf{V}"));
    // With a script it could be the product's or the last letter's: one name, as before.
    assert_eq!(sx("\\mathbf{AB}^\\top"), "(T \\mathbf{AB})");
    // A bold word stays a name.
    assert_ne!(sx("\\mathbf{softmax}"), sx("\\mathbf{s}\\mathbf{o}"));
    // Letters multiplied, or with an index, inside one style: each letter's.
    assert_eq!(sx("\\mathbf{B X}"), sx("\\mathbf{B}\\mathbf{X}"));
    assert_eq!(sx("\\mathbf{X\\cdot X}"), sx("\\mathbf{X}\\cdot\\mathbf{X}"));
    assert_eq!(sx("\\boldsymbol{{w}_{i}}"), sx("\\boldsymbol{w}_{i}"));
    // A script after such a group (the product's, or the last letter's?) is left as written.
    assert_eq!(sx("\\mathbf{X X}^{\\top}"), "(T (mathbf (* \\mathbf{X} \\mathbf{X})))");
    // A sum inside is no letters of a style.
    assert_ne!(sx("\\mathbf{a + b}"), sx("\\mathbf{a} + \\mathbf{b}"));
}

#[test]
fn vert_is_the_bar_and_vert_capital_the_double_bar() {
    assert_eq!(sx("\\vert x \\vert"), sx("|x|"));
    assert_eq!(sx("\\left\\vert a-b \\right\\vert"), sx("\\left|a-b\\right|"));
    assert_eq!(sx("\\Vert u \\Vert^2"), sx("\\|u\\|^2"));
    assert_eq!(sx("p(x \\vert \\theta)"), sx("p(x | \\theta)"));
    // As ambiguous as the bare bar it names: |a|·b·|c| or |a·|b|·c|.
    assert_eq!(err("\\vert a\\vert b\\vert c\\vert = 1").kind, SyntaxErrorKind::AmbiguousBars);
    // `\vertical` is no bar.
    assert!(crate::syntax::parse_formula("\\vertical x").is_err());
}

#[test]
fn a_colour_is_read_through() {
    assert_eq!(sx("\\color{red}{a+b}"), sx("{a+b}"));
    assert_eq!(sx("\\textcolor{blue}{x^2} + 1"), sx("{x^2} + 1"));
    assert_eq!(sx("f(z) = \\color{red}\\frac{e^z}{e^z+1}\\color{black}"), sx("f(z) = \\frac{e^z}{e^z+1}"));
}

#[test]
fn an_upright_d_before_a_letter_is_its_differential() {
    assert_eq!(sx("\\int_0^1 x \\, \\mathrm{d}x"), sx("\\int_0^1 x \\, dx"));
    assert_eq!(sx("\\mathrm d\\theta"), sx("d\\theta"));
    assert_eq!(sx("\\frac{\\mathrm{d}y}{\\mathrm{d}x}"), sx("\\frac{dy}{dx}"));
    // An italic d is a letter (a dimension): `d x` stays a product.
    assert_eq!(sx("d \\, x"), "(* d x)");
}

#[test]
fn an_escaped_underscore_is_a_subscript() {
    assert_eq!(sx("\\sum\\_{i=1}^N w\\_i x\\_{i0}"), sx("\\sum_{i=1}^N w_i x_{i0}"));
}

#[test]
fn unicode_letters_signs_and_invisible_spaces_read_as_their_commands() {
    assert_eq!(sx("−π\u{200b}·2 × λ"), sx("-\\pi\\cdot 2\\times\\lambda"));
    assert_eq!(sx("\u{feff}x\u{a0}+\u{3000}∞"), sx("x+\\infty"));
    assert_eq!(sx("\\bigtriangledown J"), sx("\\nabla J"));
    assert_eq!(sx("a \\centerdot b"), sx("a\\cdot b"));
    assert_eq!(sx("1\\text{+}e^x"), sx("1+e^x"));
    assert_eq!(sx("f^{'}(x)"), sx("f'(x)"));
}

#[test]
fn katex_short_names_and_old_font_switches() {
    assert_eq!(sx("x\\in\\R^n"), sx("x\\in\\mathbb{R}^n"));
    assert_eq!(sx("\\N"), sx("\\mathbb N"));
    assert_eq!(sx("\\cal{Y}"), sx("\\mathcal{Y}"));
    assert_eq!(sx("\\lbrack a+b\\rbrack c"), sx("[a+b]c"));
    assert_eq!(sx("\\left\\lbrack a\\right\\rbrack"), sx("\\left[a\\right]"));
}

#[test]
fn secant_cosecant_cotangent_and_equation_editor_limits() {
    assert_eq!(sx("\\sec^2 x"), sx("\\cos^2 x").replace("cos", "sec"));
    assert_eq!(sx("\\cot x + \\csc x"), sx("\\cos x + \\sin x").replace("cos", "cot").replace("sin", "csc"));
    assert_eq!(sx("\\underset{x\\to 0}{\\mathop{\\lim}}\\,f(x)"), sx("\\lim_{x\\to 0}f(x)"));
    assert_eq!(sx("\\arg\\min_x f(x)"), sx("\\argmin_x f(x)"));
    assert_eq!(sx("\\arg \\max_x f(x)"), sx("\\argmax_x f(x)"));
}

#[test]
fn a_leibniz_numerator_is_the_differential_of_everything_after_its_d() {
    assert_eq!(sx(r"\frac{dF(t)}{dt}"), "(dderiv (call F t) t)");
    assert_eq!(sx(r"\frac{dPe^{rt}}{dt}"), "(dderiv (* P (^ e (* r t))) t)");
    // The partial of everything after the ∂; two partials stay two.
    assert_eq!(sx(r"\frac{\partial x^T B x}{\partial x}"), "(deriv (* (* (T x) B) x) x)");
    assert_eq!(sx(r"\frac{\partial^2 f}{\partial x \partial y}"), sx(r"\frac{\partial^2 f}{\partial x\,\partial y}"));
    // Two differentials over one stay a fraction of differentials.
    assert_eq!(sx(r"\frac{dx\,dy}{dt}"), "(frac (* (d x) (d y)) (d t))");
}

#[test]
fn mathtype_spellings_read_as_their_plain_forms() {
    assert_eq!(sx("{{\\cos }^{2}}x"), sx("\\cos^2 x"));
    assert_eq!(sx("{{\\log }_{a}}x"), sx("\\log_a x"));
    assert_eq!(sx("{\\sec}^{2} x"), sx("\\sec^2 x"));
    assert_eq!(sx("(\\ln x{)}'"), sx("(\\ln x)'"));
    assert_eq!(sx("\\sum_{i}^{}{x_{i}p_{i}}"), sx("\\sum_{i}{x_{i}p_{i}}"));
    // In a formula that writes differentials, `d(…)` is one; elsewhere d is a letter applied.
    assert_eq!(sx("d(uv)=udv"), "(= (d (* u v)) (* u (d v)))");
    assert_eq!(sx("d(uv)"), "(call d (* u v))");
}

#[test]
fn a_wide_gap_separates_statements_and_a_thin_one_is_space() {
    let chains = |tex: &str| parse_formula(tex).expect("parses").chains.len();
    assert_eq!(chains("\\frac{\\partial a}{\\partial x} = 1\\hspace{1cm} \\frac{\\partial b}{\\partial a} = 2a"), 2);
    assert_eq!(chains("a = 1 \\hspace*{2em} b = 2"), 2);
    assert_eq!(sx("x\\hspace{2pt}y = 1"), sx("x y = 1"));
    assert_eq!(sx("x\\hspace{0.5em}y = 1"), sx("x y = 1"));
    // A wide gap before a statement (an aligned row's `& \hspace{2cm} a = 1`) is space.
    assert_eq!(chains("\\hspace{2cm} a = 1"), 1);
}

#[test]
fn a_bare_argument_that_ends_in_a_call_is_whole() {
    // `\log p(x) f(x)` is (log p(x))·f(x); `\ln xy` is ln(xy) still.
    assert_eq!(sx("\\log p(x) f(x)"), "(* (apply log (call p x)) (call f x))");
    assert_eq!(sx("\\ln xy"), sx("\\ln(xy)"));
    assert_ne!(sx("\\ln xy"), sx("(\\ln x)y"));
}

#[test]
fn a_sign_after_a_written_product_sign_belongs_to_the_factor() {
    assert_eq!(sx("-2 \\times -7"), "(neg (times 2 (neg 7)))");
    assert_eq!(sx("a \\cdot -b"), "(cdot a (neg b))");
    assert_eq!(sx("a / +b"), sx("a / b"));
    // (A matrix row set out in columns around an operator is the one expression it shows.)
    assert_eq!(
        sx("\\begin{bmatrix} 4 & + & 3 \\\\ -2 & \\times & -7 \\end{bmatrix}"),
        sx("\\begin{bmatrix} 4 + 3 \\\\ -2 \\times -7 \\end{bmatrix}")
    );
}
