//! Erasing a customer's account (the Digital Personal Data Protection Act's erasure): the `user`
//! record, every session, the one-time codes of both channels, the external identities linked to it and any sign-in code, in one transaction.

use marque_ports::{AccountStoreError, UserId};

use super::{text, unavailable, SurrealAccountStore};

impl SurrealAccountStore {
    pub(super) async fn erase(&self, id: &UserId) -> Result<(), AccountStoreError> {
        let id = text(&id.0);
        self.write_retrying(|| {
            self.db
                .query(
                    "BEGIN TRANSACTION; \
                     DELETE session WHERE user = $id RETURN NONE; \
                     DELETE type::record('otp_challenge', [$id, 'email']) RETURN NONE; \
                     DELETE type::record('otp_challenge', [$id, 'sms']) RETURN NONE; \
                     DELETE external_identity WHERE user = $id RETURN NONE; \
                     DELETE sign_in_code WHERE user = $id RETURN NONE; \
                     DELETE type::record('user', $id) RETURN NONE; \
                     COMMIT TRANSACTION;",
                )
                .bind(("id", id.clone()))
        })
        .await
        .map(drop)
        .map_err(|e| unavailable(&e))
    }
}
