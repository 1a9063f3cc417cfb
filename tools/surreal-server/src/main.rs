//! `surreal start ...`: the community server, as the upstream binary composes it.
fn main() -> std::process::ExitCode {
    surrealdb_server::init(surrealdb_server::core::CommunityComposer())
}
