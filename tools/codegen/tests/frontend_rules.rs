//! Drift check for the frontends' copy of the rules.
//!
//! `frontends/packages/rules/src/generated.ts` and `office.generated.ts` must
//! equal what `marque_codegen::generated_files()` gives. When a rule changes this test fails;
//! regenerate with `make generate` (or
//! `UPDATE_GENERATED=1 cargo test -p marque-codegen --test frontend_rules`),
//! then run the rules package's tests, which check the TypeScript against the
//! new vectors.

use std::path::PathBuf;

use marque_codegen::generated_files;

#[test]
fn the_committed_typescript_rules_are_current() {
    for (relative, expected) in generated_files() {
        check(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(relative), &expected);
    }
}

fn check(path: &std::path::Path, expected: &str) {
    if std::env::var_os("UPDATE_GENERATED").is_some_and(|v| v == "1") {
        std::fs::write(path, expected).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    if committed != expected {
        let first_difference = committed
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| "one file is longer".to_owned(), |i| format!("line {}", i + 1));
        panic!(
            "{} is out of date with the Rust rules (first difference: {first_difference}).\n\
             Regenerate it: make generate (UPDATE_GENERATED=1 cargo test -p marque-codegen --test frontend_rules)",
            path.display()
        );
    }
}
