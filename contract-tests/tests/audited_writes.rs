//! No write of a staff-facing port goes unproven: this reads the port traits (`ports/src/*.rs`,
//! parsed with `syn`) and holds them against `marque_contract_tests::audit`'s tables.
//!
//! - A method that takes an `&AuditEntry` is a staff write: it must have exactly one row in
//!   `AUDITED_WRITES`, naming a suite that `for_each_staff_write_suite!` runs (so every adapter runs
//!   it on every engine), and every row must name such a method.
//! - A port with such a method is staff-facing: each of its other methods must be listed in
//!   `NOT_AUDITED` with the reason it leaves no entry, so a new write cannot be added to one of them
//!   without either an entry (and a row) or a stated reason.
//! - The ports the back office writes through (issue 21: staff, catalog, photographs, stock, offers;
//!   issue 24: orders, grievances; issue 25: vehicles and fitment) must each be staff-facing, so dropping an `AuditEntry` parameter fails here too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use marque_contract_tests::audit::{AUDITED_WRITES, NOT_AUDITED};

/// The ports through which staff change the shop.
const STAFF_FACING: [&str; 8] = [
    "StaffStore",
    "CatalogEditor",
    "ProductPhotos",
    "StockLedger",
    "AccountStore",
    "OrderDesk",
    "GrievanceStore",
    "VehicleStore",
];

/// Every trait of the ports crate: its methods, and whether each takes an `&AuditEntry`.
fn port_traits() -> BTreeMap<String, BTreeMap<String, bool>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../ports/src");
    let mut traits = BTreeMap::new();
    for file in std::fs::read_dir(&dir).expect("ports/src") {
        let path = file.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a port file");
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for item in parsed.items {
            let syn::Item::Trait(t) = item else { continue };
            let methods = methods_of(&t).into_iter().collect();
            traits.insert(t.ident.to_string(), methods);
        }
    }
    traits
}

/// A trait's methods, in order, and whether each takes an `&AuditEntry`.
fn methods_of(t: &syn::ItemTrait) -> Vec<(String, bool)> {
    t.items
        .iter()
        .filter_map(|i| match i {
            syn::TraitItem::Fn(f) => Some((f.sig.ident.to_string(), takes_audit_entry(&f.sig))),
            _ => None,
        })
        .collect()
}

fn takes_audit_entry(sig: &syn::Signature) -> bool {
    sig.inputs.iter().any(|input| {
        let syn::FnArg::Typed(arg) = input else { return false };
        let syn::Type::Reference(r) = &*arg.ty else { return false };
        matches!(&*r.elem, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "AuditEntry"))
    })
}

/// The suites a `for_each_…_suite!` macro runs.
macro_rules! suites_of {
    ($for_each:ident) => {{
        let mut names: Vec<&str> = Vec::new();
        macro_rules! push {
            ($suite:ident) => {
                names.push(stringify!($suite));
            };
        }
        marque_contract_tests::$for_each!(push);
        names
    }};
}

#[test]
fn every_staff_write_has_a_suite_and_every_other_method_a_reason() {
    let traits = port_traits();
    assert!(traits.len() >= 10, "the port traits were read: {:?}", traits.keys());
    let mut problems = Vec::new();

    let mut rows: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for row in &AUDITED_WRITES {
        *rows.entry((row.port, row.method)).or_default() += 1;
    }
    for (port, methods) in &traits {
        for (method, audited) in methods {
            let listed = rows.get(&(port.as_str(), method.as_str())).copied().unwrap_or(0);
            if *audited && listed != 1 {
                problems.push(format!(
                    "{port}::{method} takes an AuditEntry: it needs one AUDITED_WRITES row, has {listed}"
                ));
            }
        }
    }
    for row in &AUDITED_WRITES {
        if traits.get(row.port).and_then(|m| m.get(row.method)) != Some(&true) {
            problems.push(format!(
                "AUDITED_WRITES names {}::{}, which takes no AuditEntry or is gone",
                row.port, row.method
            ));
        }
    }

    let run = suites_of!(for_each_staff_write_suite);
    for row in &AUDITED_WRITES {
        if !run.contains(&row.suite) {
            problems.push(format!(
                "{}::{} names suite {}, which for_each_staff_write_suite! does not run",
                row.port, row.method, row.suite
            ));
        }
    }
    for suite in &run {
        if !AUDITED_WRITES.iter().any(|row| row.suite == *suite) {
            problems.push(format!("suite {suite} proves no write of AUDITED_WRITES"));
        }
    }

    let mut reasons: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for &(port, methods, why) in &NOT_AUDITED {
        assert!(!why.trim().is_empty(), "{port}: a reason");
        for &method in methods {
            if !reasons.entry(port).or_default().insert(method) {
                problems.push(format!("NOT_AUDITED lists {port}::{method} twice"));
            }
        }
    }
    for (port, methods) in &traits {
        let staff_facing = methods.values().any(|audited| *audited);
        for (method, audited) in methods {
            let reasoned = reasons.get(port.as_str()).is_some_and(|r| r.contains(method.as_str()));
            match (staff_facing, *audited, reasoned) {
                (true, false, false) => problems.push(format!(
                    "{port}::{method} is a method of a staff-facing port: give it an AuditEntry (and an AUDITED_WRITES row) \
                     or a reason in NOT_AUDITED"
                )),
                (_, true, true) => problems.push(format!("{port}::{method} is audited and listed in NOT_AUDITED")),
                _ => {}
            }
        }
    }
    for (port, methods) in &reasons {
        for method in methods {
            if traits.get(*port).is_none_or(|m| !m.contains_key(*method)) {
                problems.push(format!("NOT_AUDITED names {port}::{method}, which is gone"));
            }
        }
    }
    for port in STAFF_FACING {
        if !traits.get(port).is_some_and(|m| m.values().any(|audited| *audited)) {
            problems.push(format!("{port} is how staff change the shop, but none of its methods takes an AuditEntry"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The check above is only as good as its reading of the traits: a write with an entry is found
/// however its signature is laid out, and a method without one is not taken for a write.
#[test]
fn the_reading_finds_audited_methods_in_any_layout() {
    let file: syn::File = syn::parse_str(
        "trait Port {
            async fn one_line(&self, x: &X, audit: &AuditEntry) -> Result<(), E>;
            async fn wrapped(
                &self,
                product: &ProductId,
                entry: &crate::audit::AuditEntry,
            ) -> Result<(), E>;
            async fn read(&self, id: &Id) -> Result<Option<AuditEntry>, E>;
            async fn owned(&self, entries: Vec<AuditEntry>) -> Result<(), E>;
        }",
    )
    .expect("parses");
    let syn::Item::Trait(t) = &file.items[0] else { panic!("a trait") };
    let found = methods_of(t);
    let expected = [("one_line", true), ("wrapped", true), ("read", false), ("owned", false)];
    assert_eq!(found, expected.map(|(n, a)| (n.to_owned(), a)));
}
