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
fn implicit_multiplication_one_letter_one_symbol() {
    assert_eq!(sx("hU"), "(* h U)");
    assert_eq!(sx("a_ja_k"), "(* (_ a j) (_ a k))");
    assert_eq!(sx("ZW_O"), "(* Z (_ W O))");
}

#[test]
fn fractions_with_groups_and_single_tokens() {
    assert_eq!(sx("\\frac{a}{b}"), "(frac a b)");
    assert_eq!(sx("\\frac1d"), "(frac 1 d)");
    assert_eq!(sx("\\frac1s x"), "(* (frac 1 s) x)");
}

#[test]
fn partial_derivatives() {
    assert_eq!(sx("\\frac{\\partial a_j}{\\partial s_j}"), "(deriv (_ a j) (_ s j))");
    assert_eq!(sx("\\partial L/\\partial Z"), "(deriv L Z)");
    assert_eq!(sx("\\frac{\\partial^2 f}{\\partial x^2}"), "(frac (partial 2 f) (partial _ (^ x 2)))");
}

#[test]
fn exponentials_and_powers() {
    assert_eq!(sx("e^{s_j}"), "(^ e (_ s j))");
    assert_eq!(sx("e^{2s_j}"), "(^ e (* 2 (_ s j)))");
    assert_eq!(sx("10^{-5}"), "(^ 10 (neg 5))");
    assert_eq!(sx("D^2"), "(^ D 2)");
}

#[test]
fn sums_take_the_rest_of_the_product() {
    assert_eq!(sx("\\sum_r e^{s_r}"), "(sum r _ (^ e (_ s r)))");
    assert_eq!(sx("\\sum_{ir} x_{ir}"), "(sum (* i r) _ (_ x (* i r)))");
    assert_eq!(sx("\\sum_{r\\in J_i}a_{ir}"), "(sum (in r (_ J i)) _ (_ a (* i r)))");
    assert_eq!(sx("\\sum_r h_rU_{rj}+b_j"), "(+ (sum r _ (* (_ h r) (_ U (* r j)))) (_ b j))");
    assert_eq!(sx("\\sum_{i=1}^n x_i"), "(sum (= i 1) n (_ x i))");
    assert_eq!(sx("\\prod_{i=1}^n p_i"), "(prod (= i 1) n (_ p i))");
}

#[test]
fn logarithms_roots_and_named_functions() {
    assert_eq!(sx("\\ln\\sum_r e^{l_r}"), "(apply ln (sum r _ (^ e (_ l r))))");
    assert_eq!(sx("\\ln\\frac{a}{b}"), "(apply ln (frac a b))");
    assert_eq!(sx("\\exp(o_j)"), "(apply exp (_ o j))");
    assert_eq!(sx("\\log x"), "(apply log x)");
    assert_eq!(sx("\\sqrt{v+\\varepsilon}"), "(sqrt (+ v \\varepsilon))");
    assert_eq!(sx("\\sqrt[3]{x}"), "(root 3 x)");
    assert_eq!(sx("\\operatorname{mean}(u)"), "(apply mean u)");
    assert_eq!(sx("\\operatorname{LN}_1(X)"), "(apply (_ LN 1) X)");
    assert_eq!(sx("\\operatorname{LN}(x)_r"), "(_ (apply LN x) r)");
}

#[test]
fn indicator_and_decorations() {
    assert_eq!(sx("\\mathbf1_{j=y}"), "(_ \\mathbf{1} (= j y))");
    assert_eq!(sx("\\bar X_{ir}"), "(_ \\bar{X} (* i r))");
    assert_eq!(sx("\\bar\\ell"), "\\bar{\\ell}");
    assert_eq!(sx("\\hat x"), "\\hat{x}");
    assert_eq!(sx("\\hat{y}"), "\\hat{y}");
    assert_eq!(sx("\\tilde q_i"), "(_ \\tilde{q} i)");
    assert_eq!(sx("\\hat{\\mathbf{y}}"), "\\hat{\\mathbf{y}}");
    assert_eq!(sx("\\overline{x+y}"), "(bar (+ x y))");
}

#[test]
fn transposes_in_every_spelling() {
    for tex in ["X^\\mathsf T", "X^\\mathsf{T}", "X^{\\mathsf T}", "X^\\top", "X^{\\top}", "X^T"] {
        assert_eq!(sx(tex), "(T X)", "{tex}");
    }
    assert_eq!(sx("\\bar S^\\mathsf TQ"), "(* (T \\bar{S}) Q)");
    assert_eq!(sx("x_j^\\mathsf T"), "(T (_ x j))");
}

#[test]
fn operators_hadamard_cdot_times() {
    assert_eq!(sx("g\\odot\\hat x"), "(odot g \\hat{x})");
    assert_eq!(sx("a\\cdot b"), "(cdot a b)");
    assert_eq!(sx("n\\times d"), "(times n d)");
    assert_eq!(sx("\\sigma(\\cdot)"), "(call \\sigma \\cdot)");
}

#[test]
fn delimiters_and_tuples() {
    assert_eq!(sx("\\left( a-b \\right)"), "(fenced () (- a b))");
    assert_eq!(sx("\\left[ a \\right]"), "(fenced [] a)");
    assert_eq!(sx("(1,0)"), "(fenced () (tuple 1 0))");
    assert_eq!(sx("(1,0)^\\mathsf T"), "(T (fenced () (tuple 1 0)))");
    assert_eq!(sx("\\|x\\|"), "(norm x)");
    assert_eq!(sx("|x|"), "(abs x)");
    assert_eq!(sx("P(y \\mid x)"), "(call P (mid y x))");
    assert_eq!(sx("P (y)"), "(* P (fenced () y))");
}

#[test]
fn primes_and_generic_functions() {
    assert_eq!(sx("\\sigma'(B)"), "(call (prime \\sigma) B)");
    assert_eq!(sx("\\bar C\\odot\\sigma'(B)"), "(odot \\bar{C} (call (prime \\sigma) B))");
    assert_eq!(sx("F(x, y)"), "(call F x y)");
    assert_eq!(sx("\\frac{\\partial F(x)}{\\partial x}"), "(deriv (call F x) x)");
    assert_eq!(sx("a_j(1-a_j)"), "(* (_ a j) (fenced () (- 1 (_ a j))))");
    assert_eq!(sx("f^\\prime"), "(prime f)");
}

#[test]
fn matrices_with_numbers() {
    assert_eq!(sx("\\begin{bmatrix}0\\\\0.133562\\end{bmatrix}"), "(bmatrix [0] [0.133562])");
    assert_eq!(sx("\\begin{bmatrix} 1&-2\\\\3&4 \\end{bmatrix}"), "(bmatrix [1 & (neg 2)] [3 & 4])");
}

#[test]
fn aligned_blocks() {
    assert_eq!(sx("\\begin{aligned} a &= b,\\\\ &= c. \\end{aligned}"), "(aligned [a & (= _ b)] [_ & (= _ c)])");
    assert_eq!(sx("\\begin{aligned} a =& b \\end{aligned}"), "(aligned [a = & b])");
}

#[test]
fn statements_chains_conditions_and_punctuation() {
    assert_eq!(sx("a=b=c."), "(= a b c)");
    assert_eq!(sx("x=-a,\\qquad k\\ne j."), "(= x (neg a)) ; (!= k j)");
    assert_eq!(sx("R=X+ZW_O,Z=AV"), "(= R (+ X (* Z (_ W O)))) ; (= Z (* A V))");
    assert_eq!(sx("a \\quad b"), "a ; b");
    assert_eq!(sx("\\ell_1,\\ldots,\\ell_N"), "(_ \\ell 1) ; ... ; (_ \\ell N)");
    assert_eq!(sx("\\hat\\mu \\stackrel{\\textrm{def}}{=} x"), "(:= \\hat{\\mu} x)");
}

#[test]
fn spacing_is_ignored() {
    assert_eq!(sx("\\bar X_{ir}\\,dX_{ir}"), sx("\\bar X_{ir}dX_{ir}"));
    assert_eq!(sx("a \\; b \\! c"), "(* (* a b) c)");
}

#[test]
fn differentials() {
    assert_eq!(sx("dX_{ir}"), "(d (_ X (* i r)))");
    assert_eq!(sx("d\\mu"), "(d \\mu)");
    assert_eq!(sx("d\\hat x"), "(d \\hat{x})");
    assert_eq!(sx("d_k"), "(_ d k)");
    assert_eq!(sx("\\frac1d"), "(frac 1 d)");
}

#[test]
fn corpus_constructs() {
    assert_eq!(sx("\\mathbf{x}"), "\\mathbf{x}");
    assert_eq!(sx("\\boldsymbol{\\mu}"), "\\mathbf{\\mu}");
    assert_eq!(sx("\\mathrm{softmax}(\\mathbf{o})"), "(apply softmax \\mathbf{o})");
    assert_eq!(sx("\\text{是}"), "(text \"是\")");
    assert_eq!(sx("\\mathbb{R}^{n\\times d}"), "(^ \\mathbb{R} (times n d))");
    assert_eq!(sx("\\mathbf{W}^{(l)}"), "\\mathbf{W}^{(l)}");
    assert_eq!(sx("\\max_i x_i"), "(max i _ (_ x i))");
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
fn derivative_operators_apply_to_the_rest_of_the_product() {
    assert_eq!(sx("\\frac{\\mathrm d}{\\mathrm dx}x^2"), "(dderiv (^ x 2) x)");
    assert_eq!(sx("\\frac{d}{dx}e^x"), "(dderiv (^ e x) x)");
    assert_eq!(sx("\\frac{\\mathrm{d}}{\\mathrm{d}x}\\left(x+1\\right)+2"), "(+ (dderiv (fenced () (+ x 1)) x) 2)");
    assert_eq!(sx("\\frac{\\mathrm d f}{\\mathrm d x}"), "(dderiv f x)");
    assert_eq!(sx("\\frac{\\mathrm d(x^2)}{\\mathrm dx}"), "(dderiv (^ x 2) x)");
    assert_eq!(sx("\\frac{df}{dx}"), "(dderiv f x)");
    assert_eq!(
        sx("\\frac{\\partial}{\\partial w}\\frac\\lambda2\\|w\\|^2"),
        "(deriv (* (frac \\lambda 2) (^ (norm w) 2)) w)"
    );
    assert_eq!(sx("\\nabla_w L"), "(grad L w)");
    assert_eq!(sx("\\frac{d}{2}"), "(frac d 2)", "a fraction with d over a number is a fraction");
    assert_eq!(
        sx("\\frac{\\mathrm d}{\\mathrm dx}"),
        "(frac \\mathrm{d} (* \\mathrm{d} x))",
        "nothing to apply to: left for the evaluator to refuse"
    );
}

#[test]
fn labels_primes_numbers_and_brackets() {
    assert_eq!(sx("W^{(1)}x"), "(* W^{(1)} x)");
    assert_eq!(sx("x^{(i)}_j"), "(_ x^{(i)} j)");
    assert_eq!(sx("x^{(2+1)}"), "(^ x (fenced () (+ 2 1)))", "only a single number or letter is a label");
    assert_eq!(sx("\\tanh'(a)"), "(apply tanh' a)");
    assert_eq!(sx("10\\,000"), "10000");
    assert_eq!(sx("10\\,00"), "(* 10 00)", "a thin space before two digits is only a space");
    assert_eq!(sx("\\langle a,b\\rangle"), "(fenced \\langle\\rangle (tuple a b))");
    assert_eq!(sx("\\mathrm{diag}(p)"), "(apply diag p)");
    assert_eq!(sx("\\left|a-b\\right|"), "(fenced || (- a b))");
}
