//! Matrix claims (sections 15.3, 15.5, 15.6, 15.8, 15.9 and the spec's prose claims): the seed is
//! verified whole, and each kind of edit is refuted at the edited line.

mod common;
use common::*;
use serde_json::Value;

const MATRIX_SECTIONS: [&str; 4] = ["15.3", "15.5", "15.6", "15.8"];

fn is_matrix_claim(c: &Value) -> bool {
    let section = c["section"].as_str().unwrap();
    MATRIX_SECTIONS.contains(&section)
        || section.starts_with("15.3-")
        || section.starts_with("15.6-")
        || section.starts_with("15.8-")
        || section.starts_with("15.9-")
}

#[test]
fn seed_matrix_sections_all_verified() {
    let (code, v) = check_json(CHAPTER_ZH);
    assert_eq!(code, Some(0));
    let matrix: Vec<&Value> = all_claims(&v).into_iter().filter(|c| is_matrix_claim(c)).collect();
    for c in &matrix {
        assert_eq!(c["verdict"], "verified", "{c:#}");
    }
    let count = |section: &str| matrix.iter().filter(|c| c["section"] == section).count();
    assert_eq!(count("15.3"), 18, "Ū, h̄, b̄, ℓ_j, ∂L/∂U, W̄_O, Z̄, Ā, V̄, S̄, Q̄, K̄, W̄_Q, W̄_K, W̄_V, X̄, Z̄ notation, dL");
    assert!(count("15.5") >= 13, "FFN, LN backward, differentials, γ̄, β̄, biases");
    assert_eq!(count("15.6"), 2);
    assert!(count("15.3-embedding") == 3 && count("15.6-permutation") == 2 && count("15.6-tied-weights") == 1);
    assert!(count("15.8-example") == 3 && count("15.9-cross-attention") == 2);
    let sbar = matrix.iter().find(|c| c["id"] == "15.3#10").unwrap();
    assert_eq!(sbar["method"], "randomized");
    assert!(sbar["error_bound_log2"].as_f64().unwrap() <= -60.0);
    assert_eq!(sbar["sizes"], "N = 8; d = 16; d_k = 4; n = 8, 16", "and at the cross-check size");
    let ln = matrix.iter().find(|c| c["id"] == "15.5#12").unwrap();
    assert_eq!(
        (ln["method"].as_str(), ln["sizes"].as_str()),
        (Some("randomized"), Some("d = 2, 3, 4; h = 3; n = 2 | d = 8; h = 6; n = 4"))
    );
    let causal =
        matrix.iter().find(|c| c["id"].as_str().unwrap().ends_with("causal-mask-breaks-equivariance")).unwrap();
    assert!(causal["detail"].as_str().unwrap().starts_with("fails, as the text says"), "{causal:#}");
}

/// The refuted claims' details (refuted at the edited line).
fn refuted_at(from: &str, to: &str) -> Vec<String> {
    refuted_at_edit(from, to).iter().map(|c| c["detail"].as_str().unwrap().to_string()).collect()
}

#[test]
fn dropped_transposes_are_refuted() {
    // Only the shapes break: 1×2 times 1×3.
    let details = refuted_at("\\bar U=h^\\mathsf T\\bar\\ell", "\\bar U=h\\bar\\ell");
    assert!(details.iter().any(|d| d.contains("1×16 and 1×8")), "{details:?}");
    // Shapes still fit (W_O is square), values do not.
    let details = refuted_at("\\bar Z=\\bar RW_O^\\mathsf T", "\\bar Z=\\bar RW_O");
    assert!(details.iter().any(|d| d.contains("sides differ")), "{details:?}");
}

#[test]
fn flipped_signs_are_refuted() {
    refuted_at("\\bar A_{ij}-\\sum_{r\\in J_i}", "\\bar A_{ij}+\\sum_{r\\in J_i}");
    refuted_at("u-\\operatorname{mean}(u)\\mathbf1 -\\hat x", "u-\\operatorname{mean}(u)\\mathbf1 +\\hat x");
}

#[test]
fn missing_path_in_x_bar_is_refuted() {
    refuted_at("+\\bar KW_K^\\mathsf T+\\bar VW_V^\\mathsf T.", "+\\bar VW_V^\\mathsf T.");
}

#[test]
fn sigma_for_sigma_prime_is_refuted() {
    refuted_at("\\bar C\\odot\\sigma'(B)", "\\bar C\\odot\\sigma(B)");
}

#[test]
fn wrong_rotation_direction_is_refuted() {
    refuted_at("R((j-i)\\omega)", "R((i-j)\\omega)");
}

#[test]
fn swapped_projections_are_refuted() {
    refuted_at("x_iW_QW_K^\\mathsf T x_j^\\mathsf T", "x_iW_KW_Q^\\mathsf T x_j^\\mathsf T");
}

#[test]
fn equivalent_matrix_rewrites_stay_verified() {
    for (from, to) in [
        ("\\bar Q=\\bar SK/\\sqrt{d_k}", "\\bar Q=\\frac{1}{\\sqrt{d_k}}\\bar SK"),
        ("\\bar X=\\bar R+\\bar QW_Q^\\mathsf T+", "\\bar X=\\bar QW_Q^\\mathsf T+\\bar R+"),
        ("\\bar V=A^\\mathsf T\\bar Z", "\\bar V=(\\bar Z^\\mathsf TA)^\\mathsf T"),
    ] {
        let (code, v, _) = check_edited_notes(from, to);
        assert_eq!(code, Some(0), "{to}: {v}");
    }
}
