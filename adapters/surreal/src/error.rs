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

/// A write lost a race with another transaction on the same records; trying again may succeed.
pub(crate) fn is_conflict(e: &surrealdb::Error) -> bool {
    let message = e.message().to_ascii_lowercase();
    message.contains("conflict") || message.contains("can be retried") || message.contains("resource busy")
}

/// How many times a write that lost a race is tried again before the store reports itself unavailable.
pub(crate) const CONFLICT_RETRIES: u32 = 40;

/// A short, growing, jittered pause between retries of a conflicting write.
pub(crate) async fn backoff(attempt: u32) {
    let jitter = u64::from(std::process::id() ^ attempt.wrapping_mul(2_654_435_761)) % 7;
    let millis = u64::from(attempt.min(10)) * 3 + jitter;
    tokio::time::sleep(std::time::Duration::from_millis(millis)).await;
}

/// What one attempt of a transaction that may lose a race decided.
pub(crate) enum Attempt<T> {
    Done(T),
    Conflict(surrealdb::Error),
}

impl<T, E> Attempt<Result<T, E>> {
    /// A statement failed: a lost race is tried again, anything else is the store's failure.
    pub(crate) fn failed(e: surrealdb::Error, unavailable: impl FnOnce(&surrealdb::Error) -> E) -> Self {
        if is_conflict(&e) {
            Attempt::Conflict(e)
        } else {
            Attempt::Done(Err(unavailable(&e)))
        }
    }
}

/// Runs `attempt` again while it loses races; after [`CONFLICT_RETRIES`] lost races, `gave_up`.
pub(crate) async fn until_settled<T, F: std::future::Future<Output = Attempt<T>>>(
    mut attempt: impl FnMut() -> F,
    gave_up: impl FnOnce(&surrealdb::Error) -> T,
) -> T {
    let mut tries = 0;
    loop {
        match attempt().await {
            Attempt::Done(outcome) => return outcome,
            Attempt::Conflict(e) if tries >= CONFLICT_RETRIES => return gave_up(&e),
            Attempt::Conflict(_) => {
                tries += 1;
                backoff(tries).await;
            }
        }
    }
}
