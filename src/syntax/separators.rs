//! Rewrites of a formula's TeX into what the grammar reads, each of the same length (every span
//! stays a span of the formula's TeX): separators written as spaces (where a formula sets two
//! statements side by side with control spaces instead of a comma or `\quad`; the parser tries
//! the rewrite where the formula so read is statements side by side, and keeps its first reading
//! otherwise), a row set out in columns around an operator, a bracket crossing a brace group.

/// `tex` with every run of three control spaces or more (`\ \ \ `) written as `\quad` and
/// spaces, of the same length (spans stay where they are); `None` without such a run.
pub(super) fn spaced_apart(tex: &str) -> Option<String> {
    static RUN: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"(?:\\ +){3,}").expect("valid regex"));
    RUN.is_match(tex).then(|| {
        RUN.replace_all(tex, |run: &regex::Captures| format!("{:<width$}", "\\quad", width = run[0].len())).into_owned()
    })
}

/// `tex` with each control space (`\ `, `\,`, `\;`) that follows a closing bracket, an
/// environment's end or a digit and comes before a letter (perhaps subscripted) and its equals
/// sign written as a comma (`, `, of the same length); `None` without one.
pub(super) fn space_separated(tex: &str) -> Option<String> {
    static SPACE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?P<before>(?:\\end\{[a-zA-Z*]+\}|[\])}0-9])\s*)\\[ ,;](?P<after>\s*\\?[A-Za-z]+(?:_\{?[A-Za-z0-9]+\}?)?\s*=)",
        )
        .expect("valid regex")
    });
    SPACE.is_match(tex).then(|| SPACE.replace_all(tex, "${before}, ${after}").into_owned())
}

/// `tex` with the column breaks around a cell that holds only an operator (`4 & + & 3`,
/// `-2 & \times & 3`: a row of a matrix set out in columns to align what it computes) written as
/// spaces, of the same length: the row is the one expression its cells show side by side
/// (`4 + 3`), as the reader sees it; a lone `+` or `\times` is no entry of a matrix. `None`
/// without such a cell.
pub(super) fn operators_across_cells(tex: &str) -> Option<String> {
    static LONE_OPERATOR: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"&(?P<op>\s*(?:\+|-|\\times\b|\\cdot\b|\\div\b)\s*)&").expect("valid regex")
    });
    LONE_OPERATOR
        .is_match(tex)
        .then(|| LONE_OPERATOR.replace_all(tex, |cell: &regex::Captures| format!(" {} ", &cell["op"])).into_owned())
}

/// `tex` with a bracket that crosses a brace group (`\sum_i{[a_i + b_i}]`, as formula editors
/// write the operand of a sum) closed inside the group (`{[a_i + b_i]}`), of the same length:
/// braces only group and are not typeset, so the reader sees `[a_i + b_i]`, one bracket pair.
/// `None` where no bracket crosses a brace.
pub(super) fn brackets_across_braces(tex: &str) -> Option<String> {
    let bytes = tex.as_bytes();
    let mut open: Vec<(u8, usize)> = Vec::new();
    let mut swaps = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let escaped = at > 0 && bytes[at - 1] == b'\\';
        match bytes[at] {
            b'{' | b'[' if !escaped => open.push((bytes[at], at)),
            b']' if !escaped && open.last().is_some_and(|&(c, _)| c == b'[') => {
                open.pop();
            }
            b'}' if !escaped => {
                // `{[ … }]`: the bracket opened first thing in this group closes right after it.
                let crossing = matches!(open.as_slice(), [.., (b'{', brace), (b'[', bracket)] if *bracket == brace + 1)
                    && bytes.get(at + 1) == Some(&b']');
                if crossing {
                    swaps.push(at);
                    at += 1;
                }
                // (A bracket left open in the group, `{[0, 1)}`, is a character of the group.)
                while open.pop().is_some_and(|(c, _)| c != b'{') {}
            }
            _ => {}
        }
        at += 1;
    }
    if swaps.is_empty() {
        return None;
    }
    let mut out = bytes.to_vec();
    for at in swaps {
        out.swap(at, at + 1);
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bracket_that_crosses_a_brace_closes_inside_it() {
        let closed = |tex: &str| brackets_across_braces(tex);
        assert_eq!(closed(r"\sum_{i=1}^{m}{[a_i - b_i}]"), Some(r"\sum_{i=1}^{m}{[a_i - b_i]}".to_string()));
        assert_eq!(closed(r"{[{x}^{2}}]+1"), Some(r"{[{x}^{2}]}+1".to_string()));
        // (Nested the usual way, escaped, or an interval left open: as written.)
        assert_eq!(closed(r"{[a]}"), None);
        assert_eq!(closed(r"\{[a\}]"), None);
        assert_eq!(closed(r"x \in {[0, 1)} + \left[ y \right]"), None);
    }

    #[test]
    fn spaces_that_set_statements_apart_become_separators_of_the_same_length() {
        let apart = |tex: &str| space_separated(tex).map(|t| (t.len() == tex.len(), t));
        assert_eq!(apart(r"a_1=\end{bmatrix}\ a_2=1"), Some((true, r"a_1=\end{bmatrix}, a_2=1".to_string())));
        assert_eq!(apart(r"a = 2\, b = 3"), Some((true, "a = 2,  b = 3".to_string())));
        // (A thin space inside a product, or before no equals sign, separates nothing.)
        assert_eq!(apart(r"x\,dx = 1"), None);
        assert_eq!(apart(r"f(x)\, g"), None);
        assert_eq!(spaced_apart(r"u=1 \ \ \ v=2").map(|t| t.len()), Some(r"u=1 \ \ \ v=2".len()));
    }

    #[test]
    fn a_cell_that_holds_only_an_operator_joins_its_neighbours() {
        let joined = |tex: &str| operators_across_cells(tex).map(|t| (t.len() == tex.len(), t));
        assert_eq!(joined(r"4 & + & 3 \\ -2 & + & 3"), Some((true, r"4   +   3 \\ -2   +   3".to_string())));
        assert_eq!(joined(r"-2 &\times& -7"), Some((true, r"-2  \times  -7".to_string())));
        assert_eq!(joined(r"a & + & b & + & c"), Some((true, r"a   +   b   +   c".to_string())));
        // (Entries, and operators inside an entry, are cells as they were.)
        assert_eq!(joined(r"1 & 2 \\ 3 & 4"), None);
        assert_eq!(joined(r"a+b & c \\ d & \timesx"), None);
    }
}
