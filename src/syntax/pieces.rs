//! A formula that does not parse whole, read piece by piece: a chain the notes wrote a line at a
//! time (`$A$` then `$=B$` on the next line, joined by the notes stage), and the rows of an
//! `aligned`/`align`/`eqnarray` display, where one row the grammar cannot read would otherwise
//! cost every row of the block. Each piece is parsed in place (the text before it blanked, so
//! every span is still a span of the formula's TeX); a piece that does not parse breaks the chain
//! there, and is reported.

use super::ast::{Chain, Span, Statement};
use super::error::{SyntaxError, SyntaxErrorKind};
use super::parser::parse_formula;

/// A formula written in pieces, each after the first opening with a relation: `cuts` are where
/// the pieces after the first begin (on character boundaries: the notes cut where a formula's
/// TeX begins). Parsed whole where it parses; otherwise piece by piece, and a piece that does not
/// parse breaks the chain there: the pieces after it, `=C` then `=D`, claim only C = D. Without
/// cuts, a display of aligned rows that does not parse whole is read row by row the same way
/// (see [`aligned_rows`]). The statement (or the whole's error, where no piece parses) and the
/// errors of the pieces left out.
pub fn parse_pieces(tex: &str, cuts: &[usize]) -> (Result<Statement, SyntaxError>, Vec<SyntaxError>) {
    let whole = parse_formula(tex);
    let recoverable = |e: &SyntaxError| {
        matches!(
            e.kind,
            SyntaxErrorKind::UnknownCommand { .. }
                | SyntaxErrorKind::Unexpected { .. }
                | SyntaxErrorKind::UnexpectedEnd { .. }
                | SyntaxErrorKind::AmbiguousBars
        )
    };
    let Err(error) = &whole else { return (whole, Vec::new()) };
    let read = match (cuts.is_empty(), recoverable(error)) {
        (false, _) => piece_by_piece(tex, cuts),
        (true, true) => match aligned_rows(tex) {
            Some((rows, cuts)) => piece_by_piece(&rows, &cuts),
            None => None,
        },
        (true, false) => None,
    };
    match read {
        Some((statement, left_out)) => (Ok(statement), left_out),
        None => (whole, Vec::new()),
    }
}

/// The pieces of `tex` between `cuts`, each parsed on its own and joined into chains: a piece
/// opening with a relation goes on with the chain above (or, after a piece left out, starts one
/// at its first side); one with a relation of its own starts a new chain; anything else (a
/// signed term continuing the expression above, a bare expression) ends the chain, as a piece
/// that does not parse does — and since it may have continued the side above, that side's link
/// is dropped, unless the piece opens with a relation. `None` where no piece gives a chain.
fn piece_by_piece(tex: &str, cuts: &[usize]) -> Option<(Statement, Vec<SyntaxError>)> {
    let bounds: Vec<usize> = std::iter::once(0).chain(cuts.iter().copied()).chain([tex.len()]).collect();
    // (Blanks before the piece, nothing after it: its spans end where they would in the whole.)
    let piece = |from: usize, to: usize| tex.get(from..to).map(|text| format!("{}{text}", " ".repeat(from)));
    let (mut chains, mut errors) = (Vec::new(), Vec::new());
    let mut current: Option<Chain> = None;
    for (k, window) in bounds.windows(2).enumerate() {
        let Some(text) = piece(window[0], window[1]) else { continue };
        if text.trim().is_empty() {
            continue;
        }
        // (The side above is whole only where this piece opens with a relation of its own.)
        let end_chain = |current: &mut Option<Chain>, chains: &mut Vec<Chain>, text: &str| {
            if let Some(mut open) = current.take() {
                if !opens_with_relation(text) {
                    open.links.pop();
                }
                chains.extend((!open.links.is_empty()).then_some(open));
            }
        };
        let statement = match parse_formula(&text) {
            Ok(statement) => statement,
            Err(error) => {
                if opens_new_equation(&text) {
                    chains.extend(current.take());
                } else {
                    end_chain(&mut current, &mut chains, &text);
                }
                errors.push(error);
                continue;
            }
        };
        for chain in statement.chains {
            match (chain.first.is_some(), &mut current) {
                (true, _) if k > 0 && chain.links.is_empty() => end_chain(&mut current, &mut chains, &text),
                (true, _) => {
                    chains.extend(current.take());
                    current = Some(chain);
                }
                (false, Some(open)) => {
                    open.span = Span::new(open.span.start, chain.span.end);
                    open.links.extend(chain.links);
                }
                // After a piece left out: the first side written is where the chain starts again.
                (false, None) => {
                    let mut links = chain.links.into_iter();
                    let Some(first) = links.next() else { continue };
                    let span = Span::new(first.rhs.span.start, chain.span.end);
                    current = Some(Chain { first: Some(first.rhs), links: links.collect(), span });
                }
            }
        }
    }
    chains.extend(current);
    (!chains.is_empty()).then(|| (Statement { chains, span: Span::new(0, tex.len()) }, errors))
}

/// Does a piece that does not parse open an equation of its own (`\delta w = N.A.`: a side that
/// parses alone, then `=`)? Then the side above ended with the row above, whatever follows.
fn opens_new_equation(text: &str) -> bool {
    let Some(at) = text.find('=') else { return false };
    let before = &text[..at];
    !before.trim().is_empty()
        && matches!(parse_formula(before), Ok(s) if s.chains.len() == 1 && s.chains[0].links.is_empty())
}

/// The environments that only lay rows out (their rows are a formula's statements).
const FRAMES: [&str; 14] = [
    "equation*",
    "equation",
    "aligned",
    "align*",
    "align",
    "alignat*",
    "alignat",
    "eqnarray*",
    "eqnarray",
    "split",
    "gathered",
    "gather*",
    "gather",
    "multline",
];

/// Relations an alignment point `&` may stand next to (a command whole: `\le` is not `\left`).
const RELATIONS: [&str; 15] = [
    "=", "<", ">", ":=", "\\approx", "\\leq", "\\le", "\\geq", "\\ge", "\\neq", "\\ne", "\\equiv", "\\sim", "\\propto",
    "\\to",
];

/// Does `text` (blanks aside, and an alignment point) open with one of [`RELATIONS`]?
fn opens_with_relation(text: &str) -> bool {
    starts_with_relation(text.trim_start().trim_start_matches('&').trim_start())
}

/// Does `text` start with one of [`RELATIONS`], a command whole?
fn starts_with_relation(text: &str) -> bool {
    RELATIONS.iter().any(|r| {
        text.strip_prefix(r)
            .is_some_and(|rest| !(r.starts_with('\\') && rest.starts_with(|c: char| c.is_ascii_alphabetic())))
    })
}

/// `\begin{aligned} a &= b \\ &= c \end{aligned}` as rows: the TeX with the frame, the row
/// breaks and the alignment points written as spaces (so every byte keeps its place), and where
/// each row after the first begins. `None` where the display is anything else: text outside the
/// frame, or an `&` that is no alignment point beside a relation (a second column, whose rows
/// side by side would read as a product).
fn aligned_rows(tex: &str) -> Option<(String, Vec<usize>)> {
    let bytes = tex.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| out[from..to].iter_mut().for_each(|b| *b = b' ');
    // `\delta x = x - t \\ \delta w = N.A.`: rows broken by `\\` with no frame around them
    // are rows all the same (the display is their frame, open from the start).
    let frameless = !FRAMES.iter().any(|f| tex.contains(&format!("\\begin{{{f}}}")));
    let (mut braces, mut nested) = (0i32, 0i32);
    let (mut frames, mut seen) = if frameless { (1i32, true) } else { (0i32, false) };
    let (mut cuts, mut row_start, mut points) = (Vec::new(), 0usize, Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        // (Within a character of several bytes: on to its end, where the text can be cut.)
        let Some(rest) = tex.get(i..) else {
            i += 1;
            continue;
        };
        if let Some(after) = rest.strip_prefix("\\begin{").or_else(|| rest.strip_prefix("\\end{")) {
            let name = &after[..after.find('}')?];
            let end = i + (rest.len() - after.len()) + name.len() + 1;
            let begin = rest.starts_with("\\begin");
            if FRAMES.contains(&name) && nested == 0 && braces == 0 {
                if begin && !seen && !tex[..i].trim().is_empty() {
                    return None;
                }
                seen = true;
                frames += if begin { 1 } else { -1 };
                // (`\begin{alignat}{2}`: the count of column pairs goes too.)
                let columns = tex[end..].strip_prefix('{').and_then(|r| r.find('}').map(|at| (at, &r[..at])));
                let end = match columns {
                    Some((at, count))
                        if begin && name.starts_with("alignat") && count.chars().all(|c| c.is_ascii_digit()) =>
                    {
                        end + at + 2
                    }
                    _ => end,
                };
                blank(&mut out, i, end);
                i = end;
                continue;
            } else {
                nested += if begin { 1 } else { -1 };
            }
            i = end;
            continue;
        }
        let top = braces == 0 && nested == 0 && frames > 0;
        match bytes[i] {
            b'\\' if bytes.get(i + 1) == Some(&b'\\') && top => {
                let mut end = i + 2;
                if tex[end..].starts_with('[') {
                    end += tex[end..].find(']')? + 1;
                }
                alignment_points_ok(tex, row_start, i, &points)?;
                points.iter().for_each(|&a| out[a] = b' ');
                points.clear();
                blank(&mut out, i, end);
                cuts.push(end);
                row_start = end;
                i = end;
                continue;
            }
            // (`\{`, `\&`, `\\` inside a group: escaped, not structure.)
            b'\\' => i += 1,
            b'{' => braces += 1,
            b'}' => braces -= 1,
            b'&' if top => points.push(i),
            _ => {}
        }
        i += 1;
    }
    alignment_points_ok(tex, row_start, tex.len(), &points)?;
    points.iter().for_each(|&a| out[a] = b' ');
    if frameless {
        // (One row is no rows: nothing to read apart.)
        return (frames == 1 && !cuts.is_empty()).then(|| String::from_utf8(out).ok()).flatten().map(|t| (t, cuts));
    }
    let after_frame = tex.rfind("\\end{").map_or("", |at| &tex[at..]);
    let trailing = after_frame.find('}').map_or("", |at| &after_frame[at + 1..]);
    if !seen || frames != 0 || !trailing.trim().trim_matches(['.', ',']).is_empty() {
        return None;
    }
    Some((String::from_utf8(out).ok()?, cuts))
}

/// Every `&` of the row `from..to` at the row's start or beside a relation.
fn alignment_points_ok(tex: &str, from: usize, to: usize, points: &[usize]) -> Option<()> {
    let beside_relation = |&at: &usize| {
        let before = tex[from..at].trim_end();
        let after = tex[at + 1..to].trim_start();
        before.is_empty() || starts_with_relation(after) || RELATIONS.iter().any(|r| before.ends_with(r))
    };
    points.iter().all(beside_relation).then_some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::print;

    #[test]
    fn a_formula_in_pieces_parses_whole_or_piece_by_piece() {
        // Whole: one chain A = B = C.
        let tex = "(a+b)^2 \n =a^2+2ab+b^2 \n =b^2+2ab+a^2";
        let cuts = [tex.find('=').unwrap() - 1, tex.rfind('=').unwrap() - 1];
        let (whole, left_out) = parse_pieces(tex, &cuts);
        assert_eq!(whole.unwrap(), parse_formula(tex).unwrap());
        assert!(left_out.is_empty());
        // A piece that does not parse breaks the chain: B = C is lost, C = D stays, at its place.
        let tex = "(a+b)^2 \n =a^2+2ab)\\frac{1} \n =a^2+2ab+b^2 \n =b^2+2ab+a^2";
        let cuts: Vec<usize> = tex.match_indices(" \n ").map(|(at, _)| at + 3).collect();
        let (statement, left_out) = parse_pieces(tex, &cuts);
        let statement = statement.unwrap();
        assert_eq!(left_out.len(), 1);
        assert!(left_out[0].span.start > cuts[0] && left_out[0].span.start < cuts[1], "{:?}", left_out[0].span);
        // (The bare first piece claims nothing and is not kept.)
        assert_eq!(statement.chains.len(), 1, "{:?}", statement.chains.iter().map(print::chain).collect::<Vec<_>>());
        assert_eq!(statement.chains[0].links.len(), 1);
        let c = statement.chains[0].first.as_ref().unwrap();
        assert_eq!(tex[c.span.start..c.span.end].trim_end(), "a^2+2ab+b^2");
        // No piece parses: the whole's error.
        let (none, _) = parse_pieces("\\frac{ \n =)", &[4]);
        assert!(none.is_err());
    }

    #[test]
    fn aligned_rows_survive_a_row_that_does_not_parse() {
        let tex = "\\begin{aligned}\nf &= (a+b)^2 \\\\\n &= a^2+2ab)+b^2 \\\\\n &= a^2+2ab+b^2 \\\\\n &= b^2+2ab+a^2\n\\end{aligned}";
        let (statement, left_out) = parse_pieces(tex, &[]);
        let statement = statement.unwrap();
        assert_eq!(left_out.len(), 1);
        let chains: Vec<String> = statement.chains.iter().map(print::chain).collect();
        assert_eq!(chains.len(), 2, "{chains:?}");
        assert_eq!(statement.chains[0].links.len(), 1, "f = (a+b)^2: {chains:?}");
        assert_eq!(statement.chains[1].links.len(), 1, "a^2+2ab+b^2 = b^2+2ab+a^2: {chains:?}");
        let row = statement.chains[1].first.as_ref().unwrap();
        assert_eq!(tex[row.span.start..row.span.end].trim_end(), "a^2+2ab+b^2");
        // A new equation in a row starts a chain; a signed row continuing the one above ends it,
        // and takes the link above along (its side went on); so does a row that does not parse
        // unless it opens an equation of its own (`y = 2)`: a side that parses alone, then `=`;
        // `+ 2)` or `\frac{ = 2` may be more of the side above).
        let tex = "\\begin{align} w &= 0 \\\\ x &= 1 \\\\ y = 2) \\\\ v &= 3 \\\\ &\\quad - 3 \\\\ &= 4 \\\\ z &= 5 \\end{align}";
        let (statement, _) = parse_pieces(tex, &[]);
        let claims: Vec<String> =
            statement.unwrap().chains.iter().filter(|c| !c.links.is_empty()).map(print::chain).collect();
        assert_eq!(claims, ["(= w 0)", "(= x 1)", "(= z 5)"]);
        let tex = "\\begin{align} w &= 0 \\\\ x &= 1 \\\\ + 2) = 3 \\\\ z &= 5 \\end{align}";
        let (statement, _) = parse_pieces(tex, &[]);
        let claims: Vec<String> =
            statement.unwrap().chains.iter().filter(|c| !c.links.is_empty()).map(print::chain).collect();
        assert_eq!(claims, ["(= w 0)", "(= z 5)"]);
        // Rows with no frame around them (`\\delta w = N.A.` beside a row that parses).
        let tex = "\\delta x = x-t\\\\ \n\\delta w = N.A.";
        let (statement, left_out) = parse_pieces(tex, &[]);
        assert_eq!(left_out.len(), 1);
        let claims: Vec<String> = statement.unwrap().chains.iter().map(print::chain).collect();
        assert_eq!(claims.len(), 1, "{claims:?}");
    }

    #[test]
    fn a_row_continuing_the_side_above_takes_that_link_with_it() {
        // `&\quad + b^2` goes on with a^2+2ab: the link (a+b)^2 = a^2+2ab is no claim.
        let tex = "\\begin{aligned}(a+b)^2 &= a^2+2ab \\\\ &\\quad + b^2 \\\\ &= \\myop{x} \\\\ x &= y\\end{aligned}";
        let (statement, _) = parse_pieces(tex, &[]);
        let claims: Vec<String> =
            statement.unwrap().chains.iter().filter(|c| !c.links.is_empty()).map(print::chain).collect();
        assert_eq!(claims, ["(= x y)"]);
        // `\begin{alignat}{2}`: the column count is no factor.
        let (rows, _) = aligned_rows("\\begin{alignat}{2} (a+b)^2 &= c \\\\ &= d \\end{alignat}").unwrap();
        assert!(!rows.contains('2') || rows.trim_start().starts_with("(a+b)^2"), "{rows}");
        // `\left` opens no relation.
        assert!(!opens_with_relation("& \\left(a\\right)") && opens_with_relation(" &\\leq b"));
    }

    #[test]
    fn only_a_display_of_rows_is_read_by_rows() {
        // A second column: its rows side by side would be a product.
        assert!(aligned_rows("\\begin{aligned} a &= b & c &= d \\\\ e &= f \\end{aligned}").is_none());
        // Text outside the frame.
        assert!(aligned_rows("L = \\begin{aligned} a &= b \\end{aligned}").is_none());
        // Rows of a matrix inside a row are the matrix's.
        let (rows, cuts) = aligned_rows(
            "\\begin{aligned} A &= \\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix} \\\\ &= B \\end{aligned}",
        )
        .unwrap();
        assert_eq!(cuts.len(), 1);
        assert!(rows.contains("1 & 2 \\\\ 3 & 4"));
        // eqnarray's two points around the relation.
        assert!(aligned_rows("\\begin{eqnarray} a &=& b \\\\ &=& c \\end{eqnarray}").is_some());
        // Text of several bytes a character, and an escape before one.
        assert!(aligned_rows("\\begin{aligned} 权重 &= \\权 \\\\ &= c \\end{aligned}").is_some());
    }
}
