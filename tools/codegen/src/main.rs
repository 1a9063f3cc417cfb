//! `cargo run -p marque-codegen`: rewrites `frontends/packages/rules/src/generated.ts` and `office.generated.ts`
//! from the domain's rules (what `make generate` calls).

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let repo_root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    match marque_codegen::write_generated(&repo_root) {
        Ok(paths) => {
            for path in paths {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("cannot write the generated modules under frontends/packages/rules/src: {e}");
            ExitCode::FAILURE
        }
    }
}
