use std::time::Instant;
use surrealdb::types::{SurrealValue, Value};

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Row { id: String, name: String, part_norm: String }

const WORDS: [&str; 12] = ["Front", "Rear", "Brake", "Disc", "Pad", "Filter", "Oil", "Turbocharger", "Headlamp", "Mount", "Sensor", "Pump"];

fn rows(from: usize, n: usize) -> Vec<Row> {
    (from..from + n).map(|i| Row { id: format!("p{i:07}"), name: format!("{} {} {} {i}", WORDS[i % 12], WORDS[(i / 12) % 12], WORDS[(i / 144) % 12]), part_norm: format!("A{i}") }).collect()
}

async fn run(label: &str, fulltext: bool, interactive: bool) {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("a").use_db("b").await.unwrap();
    let mut schema = "DEFINE ANALYZER an TOKENIZERS blank,class FILTERS lowercase,ascii,edgengram(2,10); DEFINE TABLE product SCHEMAFULL; DEFINE FIELD name ON product TYPE string; DEFINE FIELD part_norm ON product TYPE string; DEFINE INDEX pn ON product FIELDS part_norm;".to_string();
    if fulltext { schema.push_str("DEFINE INDEX ft ON product FIELDS name FULLTEXT ANALYZER an BM25;"); }
    db.query(schema).await.unwrap().check().unwrap();
    let started = Instant::now();
    if interactive {
        let tx = db.clone().begin().await.unwrap();
        for c in 0..4 {
            let t = Instant::now();
            tx.query("INSERT INTO product $rows RETURN NONE").bind(("rows", rows(c * 1000, 1000))).await.unwrap().check().unwrap();
            println!("{label}: chunk {c} {:.2?}", t.elapsed());
        }
        let t = Instant::now();
        tx.commit().await.unwrap();
        println!("{label}: commit {:.2?}", t.elapsed());
    } else {
        for c in 0..4 {
            let t = Instant::now();
            db.query("INSERT INTO product $rows RETURN NONE").bind(("rows", rows(c * 1000, 1000))).await.unwrap().check().unwrap();
            println!("{label}: chunk {c} {:.2?}", t.elapsed());
        }
    }
    println!("{label}: total {:.2?}", started.elapsed());
    let _ = Value::None;
}

#[tokio::test]
async fn probe() {
    run("ft, one tx", true, true).await;
    run("ft, tx per chunk", true, false).await;
    run("no ft, one tx", false, true).await;
}
