//! Seeds a synthetic catalog and reports how long it took: a rough gauge of bulk inserts.
//!
//! `cargo run --release -p marque-surreal --example seed_catalog -- [URL] [PRODUCTS] [PER_CALL]`
//! URL defaults to `mem://`, PRODUCTS to 100000, PER_CALL (products per `add_products`
//! call, each call one transaction) to all of them.

use std::time::Instant;

use marque_contract_tests::fixtures::product;
use marque_domain::catalog::Product;
use marque_ports::{CatalogStore, ProductQuery};
use marque_surreal::Database;

const WORDS: [&str; 12] =
    ["Front", "Rear", "Brake", "Disc", "Pad", "Filter", "Oil", "Turbocharger", "Headlamp", "Mount", "Sensor", "Pump"];

fn synthetic(i: usize) -> Product {
    let name = format!("{} {} {} {i}", WORDS[i % 12], WORDS[(i / 12) % 12], WORDS[(i / 144) % 12]);
    let seconds = i64::try_from(i).unwrap_or(i64::MAX);
    product(&format!("p{i:07}"))
        .name(&name)
        .part_no(&format!("A {:03} {:03} {:02} {:02}", i % 997, i % 991, i % 97, i % 89))
        .created_at(1_700_000_000 + seconds)
        .units_sold(u32::try_from(i % 50).unwrap_or(0))
        .build()
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let url = args.next().unwrap_or_else(|| "mem://".to_owned());
    let count: usize = args.next().map_or(Ok(100_000), |s| s.parse())?;
    let per_call: usize = args.next().map_or(Ok(count), |s| s.parse())?;

    let db = Database::connect(&url).await?;
    let catalog = db.catalog();
    let products: Vec<Product> = (0..count).map(synthetic).collect();

    let started = Instant::now();
    for batch in products.chunks(per_call.max(1)) {
        catalog.add_products(batch).await?;
    }
    let seeded = started.elapsed();
    println!("seeded {count} products in {seeded:.2?} ({per_call} per call) on {url}");

    for text in ["brake disc", "turb", "A 001 001 01 01", ""] {
        let started = Instant::now();
        let found = catalog
            .search(&ProductQuery { text: text.to_owned(), offset: 0, limit: 20, fits: None, grades: Vec::new() })
            .await?;
        println!("search {text:?}: {} of {} in {:.2?}", found.products.len(), found.total, started.elapsed());
    }
    println!("count {} ", catalog.count_products().await?);
    Ok(())
}
