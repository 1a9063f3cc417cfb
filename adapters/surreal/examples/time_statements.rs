//! Times SurrealQL statements one by one against a stored catalog (issue 22's measurements): each
//! statement is run `RUNS` times on a freshly opened store, the first run being the cold one.
//!
//! `cargo run --release -p marque-surreal --example time_statements -- <surrealkv dir> [RUNS] [FILE]`
//!
//! FILE holds the statements, one a line (`#` starts a comment, `--` a label kept in the output);
//! without it a built-in list of the catalog adapter's search and listing statements is timed.
//! The directory must not be open in another process (stop the server first). `FULL=1` prints whole
//! answers (an `EXPLAIN`) instead of their first 70 characters.

use std::sync::Arc;
use std::time::Instant;

use surrealdb::engine::local::Db;
use surrealdb::Surreal;
use surrealdb_cnf::ConfigMap;
use surrealdb_core::kvs::Datastore;

const BUILT_IN: &str = include_str!("time_statements.surql");

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: time_statements <surrealkv dir> [RUNS] [FILE]")?;
    let runs: usize = args.next().map_or(Ok(3), |s| s.parse())?;
    let statements = match args.next() {
        Some(file) => std::fs::read_to_string(file)?,
        None => BUILT_IN.to_owned(),
    };
    let config = ConfigMap::empty()
        .with_key_value("surrealkv_block_cache_capacity", (16u64 << 20).to_string())
        .with_key_value("surrealkv_max_memtable_size", (64u64 << 20).to_string());
    let datastore: Arc<Datastore> =
        Datastore::builder().with_config(config).build_with_path(&format!("surrealkv://{dir}")).await?;
    let db: Surreal<Db> = Surreal::<Db>::unstable_from_datastore(datastore, None).await?;
    db.use_ns("marque").use_db("shop").await?;

    let mut label = String::new();
    for line in statements.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(text) = line.strip_prefix("--") {
            label = text.trim().to_owned();
            continue;
        }
        let mut times = Vec::new();
        let mut shown = String::new();
        for _ in 0..runs {
            let started = Instant::now();
            let mut response = db.query(line).await?;
            let elapsed = started.elapsed();
            let last = response.num_statements().saturating_sub(1);
            let value: surrealdb::types::Value = response.take(last)?;
            times.push(format!("{:.1}", elapsed.as_secs_f64() * 1000.0));
            let json = value.into_json_value();
            let size = json.as_array().map_or(1, Vec::len);
            let mut text = json.to_string();
            if std::env::var_os("FULL").is_none() {
                text.truncate(70);
            }
            shown = format!("{size} value(s) {text}");
        }
        println!("{label:<44} ms {:<24} -> {shown}", times.join(" "));
    }
    Ok(())
}
