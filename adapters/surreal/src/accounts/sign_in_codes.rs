//! The codes external sign-ins end with (`sign_in_code` records, keyed by the code's hash): kept a
//! minute, taken once.

use marque_ports::{AccountStoreError, SignInCode, UserId};
use surrealdb::types::SurrealValue;

use super::{text, unavailable, SurrealAccountStore};

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct CodeRow {
    code_hash: String,
    user: String,
    browser_hash: String,
    expires_at: i64,
}

impl SurrealAccountStore {
    pub(super) async fn put_code(&self, code: &SignInCode) -> Result<(), AccountStoreError> {
        let c = code.clone();
        self.write_retrying(|| {
            self.db
                .query(
                    "UPSERT type::record('sign_in_code', $hash) SET user = $user, browser_hash = $browser, \
                     expires_at = $expires RETURN NONE",
                )
                .bind(("hash", text(&c.code_hash)))
                .bind(("user", c.user.0.clone()))
                .bind(("browser", c.browser_hash.clone()))
                .bind(("expires", c.expires_at))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))?;
        // Codes never exchanged are swept as new ones are kept.
        let swept = self
            .db
            .query("DELETE sign_in_code WHERE expires_at < $before RETURN NONE")
            .bind(("before", code.expires_at - 86_400))
            .await
            .and_then(surrealdb::IndexedResults::check);
        if let Err(e) = swept {
            tracing::debug!(error = %e.message(), "sweeping old sign-in codes failed; the next one tries again");
        }
        Ok(())
    }

    pub(super) async fn take_code(&self, code_hash: &str, now: i64) -> Result<Option<SignInCode>, AccountStoreError> {
        if code_hash.is_empty() || code_hash.len() > 128 {
            return Ok(None);
        }
        let hash = text(code_hash);
        // DELETE is atomic per record: of racing callers only one gets the record back.
        let rows: Vec<CodeRow> = self
            .write_retrying(|| {
                self.db
                    .query(
                        "LET $gone = (DELETE type::record('sign_in_code', $hash) RETURN BEFORE); \
                         SELECT record::id(id) AS code_hash, user, browser_hash, expires_at FROM $gone",
                    )
                    .bind(("hash", hash.clone()))
            })
            .await
            .and_then(|mut r| r.take(1))
            .map_err(|e| unavailable(&e))?;
        Ok(rows.into_iter().find(|r| r.expires_at > now).map(|r| SignInCode {
            code_hash: r.code_hash,
            user: UserId(r.user),
            browser_hash: r.browser_hash,
            expires_at: r.expires_at,
        }))
    }
}
