//! Turning driver errors into the ports' errors, so no SurrealDB type leaves the crate.

use marque_ports::CatalogStoreError;

/// A read failed: the store is unavailable to the caller, whatever the cause.
pub(crate) fn unavailable(e: &surrealdb::Error) -> CatalogStoreError {
    CatalogStoreError::Unavailable { reason: e.message().to_owned() }
}

/// A write failed: a schema violation is the record's fault, anything else the store's.
pub(crate) fn refused_or_unavailable(e: &surrealdb::Error) -> CatalogStoreError {
    if is_schema_violation(e) {
        CatalogStoreError::Invalid { reason: e.message().to_owned() }
    } else {
        unavailable(e)
    }
}

/// SurrealDB 3.3 reports a field's type or `ASSERT` failing as an error of the generic
/// kind, so the message is all there is to tell it apart.
fn is_schema_violation(e: &surrealdb::Error) -> bool {
    const SIGNS: [&str; 3] = ["Couldn't coerce value for field", "but field must conform to", "is not a valid id"];
    let message = e.message();
    SIGNS.iter().any(|sign| message.contains(sign))
}
