//! Separators written as spaces: where a formula sets two statements side by side with control
//! spaces instead of a comma or `\quad`, its TeX rewritten with the separator the grammar reads,
//! of the same length (every span stays a span of the formula's TeX). The parser tries the
//! rewrite where the formula so read is statements side by side, and keeps its first reading
//! otherwise.

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

#[cfg(test)]
mod tests {
    use super::*;

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
