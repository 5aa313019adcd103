//! The worked example of section 15.4: all 24 printed gradient entries, edited digits, a wrong
//! backward formula, and the W_V ≠ I counterexample.

mod common;
use common::*;
use serde_json::Value;

/// The claims of a section: the notes file's, then the spec's own (listed under the spec).
fn claims_of(v: &Value, section: &str) -> Vec<Value> {
    all_claims(v).into_iter().filter(|c| c["section"] == section).cloned().collect()
}

#[test]
fn all_24_printed_gradients_are_reproduced_twice() {
    let (code, v) = check_json(CHAPTER_ZH);
    assert_eq!(code, Some(0));
    let claims = claims_of(&v, "15.4");
    let mut entries = 0;
    for c in &claims {
        assert_eq!(c["verdict"], "verified", "{c:#}");
        for m in c["example"]["matrices"].as_array().into_iter().flatten() {
            let printed = m["printed"].as_array().unwrap();
            let fd = m["finite_difference"].as_array().expect("every printed matrix is a parameter's gradient");
            for (row, fd_row) in printed.iter().zip(fd) {
                for (p, f) in row.as_array().unwrap().iter().zip(fd_row.as_array().unwrap()) {
                    assert!((p.as_f64().unwrap() - f.as_f64().unwrap()).abs() <= 5e-7 + 1e-8);
                    entries += 1;
                }
            }
            assert_eq!(m["verified"], true);
        }
    }
    assert_eq!(entries, 24, "E (6) + W_Q (2) + W_K (2) + W_V (4) + W_O (4) + U (6)");
    let loss = claims[0]["example"]["loss"].as_f64().unwrap();
    assert!((loss - 2.541928056677).abs() < 1e-11, "{loss}");
    assert_eq!(claims[0]["example"]["epsilon"].as_f64(), Some(1e-5), "ε as the notes state it");
    assert!(claims[0]["detail"].as_str().unwrap().contains("loss L = 2.541928056677"));
}

#[test]
fn the_sections_prose_claims_hold() {
    let (_, v) = check_json(CHAPTER_ZH);
    let claims = claims_of(&v, "15.4");
    let by_name = |name: &str| claims.iter().find(|c| c["id"].as_str().unwrap().ends_with(name)).unwrap().clone();
    assert_eq!(by_name("unused-embedding-row-has-zero-gradient")["verdict"], "verified");
    let u = by_name("output-column-of-C-is-not-zero");
    assert!(u["detail"].as_str().unwrap().starts_with("fails, as the text says"), "{u:#}");
    let wv = by_name("equal-gradients-need-identity-W_V");
    assert_eq!(wv["verdict"], "verified");
    assert!(
        wv["detail"].as_str().unwrap().starts_with("fails, as the text says"),
        "with W_V ≠ I the gradients differ: {wv:#}"
    );
}

#[test]
fn a_changed_digit_is_refuted_naming_the_entry() {
    // Two digits swapped in Ū's (2,2) entry.
    let (code, v, line) = check_edited_notes("0.738049", "0.738409");
    assert_eq!(code, Some(1));
    let refuted: Vec<Value> = claims_of(&v, "15.4").into_iter().filter(|c| c["verdict"] == "refuted").collect();
    assert_eq!(refuted.len(), 1);
    assert_eq!(refuted[0]["line"].as_u64(), Some(line));
    let detail = refuted[0]["detail"].as_str().unwrap();
    assert!(detail.contains("entry (2,2) of \\bar{U}: printed 0.738409, computed 0.738049"), "{detail}");
    // One digit changed in W̄_K's negative entry.
    let (code, v, _) = check_edited_notes("-0.133562", "-0.133563");
    assert_eq!(code, Some(1));
    let detail = claims_of(&v, "15.4").into_iter().find(|c| c["verdict"] == "refuted").unwrap()["detail"].clone();
    assert!(detail.as_str().unwrap().contains("entry (2,1) of \\bar{W}_K"), "{detail}");
}

#[test]
fn a_wrong_backward_formula_is_refuted_symbolically_and_by_the_example() {
    let (code, v, line) = check_edited_notes("\\bar A_{ij}-\\sum_{r\\in J_i}", "\\bar A_{ij}+\\sum_{r\\in J_i}");
    assert_eq!(code, Some(1));
    let symbolic = claims_of(&v, "15.3").into_iter().find(|c| c["verdict"] == "refuted").expect("refuted in 15.3");
    assert_eq!(symbolic["line"].as_u64(), Some(line));
    let example: Vec<Value> = claims_of(&v, "15.4").into_iter().filter(|c| c["verdict"] == "refuted").collect();
    assert!(!example.is_empty(), "the example runs the notes' S̄ formula");
    let detail = example[0]["detail"].as_str().unwrap();
    assert!(detail.contains("(backward formulas)") && detail.contains("finite differences"), "{detail}");
}
