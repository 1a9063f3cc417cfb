//! The address store on SurrealDB: one `address` record per saved delivery address.

use async_trait::async_trait;
use marque_domain::address::{Address, AddressId, AddressInput, SavedAddress};
use marque_ports::{AddressStore, AddressStoreError, UserId};
use surrealdb::types::SurrealValue;

use crate::accounts::retrying;
use crate::conn::Conn;
use crate::error::{until_settled, Attempt};

/// [`AddressStore`] on a SurrealDB connection. Get one from [`crate::Database::addresses`].
///
/// Addresses are `address` records with ids the database picks, each carrying its owner and a
/// `seq` from the owner's `address_book` record. An add runs in one transaction that first
/// bumps that record, then counts and creates: two adds to one book always write the same
/// record, so one conflicts and is tried again with the other's address counted. Edits and
/// removals are single statements conditioned on the owner, so another customer's id changes nothing.
#[derive(Debug, Clone)]
pub struct SurrealAddressStore {
    db: Conn,
}

/// An address as stored: the parsed address's fields, `state` by name, `gstin` empty for none.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct AddressFields {
    house_no: String,
    street: String,
    landmark: String,
    city: String,
    state: String,
    mobile_no: String,
    pincode: String,
    gstin: String,
}

impl From<&Address> for AddressFields {
    fn from(a: &Address) -> Self {
        let input = a.to_input();
        Self {
            house_no: input.house_no,
            street: input.street,
            landmark: input.landmark,
            city: input.city,
            state: input.state,
            mobile_no: input.mobile_no,
            pincode: input.pincode,
            gstin: input.gstin,
        }
    }
}

impl From<AddressFields> for AddressInput {
    fn from(f: AddressFields) -> Self {
        Self {
            house_no: f.house_no,
            street: f.street,
            landmark: f.landmark,
            city: f.city,
            state: f.state,
            mobile_no: f.mobile_no,
            pincode: f.pincode,
            gstin: f.gstin,
        }
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct AddressRow {
    id: String,
    user: String,
    fields: AddressFields,
}

/// Sets every [`AddressFields`] field from the bound `$fields`.
const SET_FIELDS: &str = "house_no = $fields.house_no, street = $fields.street, landmark = $fields.landmark, \
    city = $fields.city, state = $fields.state, mobile_no = $fields.mobile_no, pincode = $fields.pincode, gstin = $fields.gstin";

/// Selects an [`AddressRow`].
const ROW: &str = "record::id(id) AS id, user, { house_no: house_no, street: street, landmark: landmark, city: city, \
    state: state, mobile_no: mobile_no, pincode: pincode, gstin: gstin } AS fields";

impl AddressRow {
    /// The stored fields parse again (they were written from an [`Address`]); a row that no
    /// longer does is reported rather than shown unchecked.
    fn into_saved(self) -> Result<(UserId, SavedAddress), AddressStoreError> {
        let address = Address::parse(&self.fields.into()).map_err(|e| AddressStoreError::Unavailable {
            reason: format!("stored address `{}` no longer parses: {e}", self.id),
        })?;
        Ok((UserId(self.user), SavedAddress { id: AddressId(self.id), address }))
    }
}

fn unavailable(e: &surrealdb::Error) -> AddressStoreError {
    AddressStoreError::Unavailable { reason: e.message().to_owned() }
}

impl SurrealAddressStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_add(
        &self,
        user: &str,
        fields: &AddressFields,
        limit: usize,
    ) -> Attempt<Result<SavedAddress, AddressStoreError>> {
        let fail = |e| Attempt::failed(e, unavailable);
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return fail(e),
        };
        let read = tx
            .query(
                "UPSERT type::record('address_book', $user) SET next_seq = (next_seq ?? 0) + 1 RETURN VALUE next_seq",
            )
            .query("SELECT VALUE count() FROM address WHERE user = $user GROUP ALL")
            .bind(("user", user.to_owned()))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .and_then(|mut r| Ok((r.take::<Vec<i64>>(0)?, r.take::<Vec<i64>>(1)?)));
        let (seq, count) = match read {
            Ok((seq, count)) => (seq.first().copied().unwrap_or(1), count.first().copied().unwrap_or(0)),
            Err(e) => {
                let _ = tx.cancel().await;
                return fail(e);
            }
        };
        if usize::try_from(count).unwrap_or(usize::MAX) >= limit {
            let _ = tx.cancel().await;
            return Attempt::Done(Err(AddressStoreError::Full));
        }
        let created = tx
            .query(format!("CREATE address SET user = $user, seq = $seq, {SET_FIELDS} RETURN {ROW}"))
            .bind(("fields", fields.clone()))
            .bind(("user", user.to_owned()))
            .bind(("seq", seq))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .and_then(|mut r| r.take::<Vec<AddressRow>>(0));
        let row = match created {
            Ok(rows) => rows.into_iter().next(),
            Err(e) => {
                let _ = tx.cancel().await;
                return fail(e);
            }
        };
        let Some(row) = row else {
            let _ = tx.cancel().await;
            return Attempt::Done(Err(AddressStoreError::Unavailable {
                reason: "the new address was not returned".into(),
            }));
        };
        match tx.commit().await {
            Ok(_) => Attempt::Done(row.into_saved().map(|(_, saved)| saved)),
            Err(e) => fail(e),
        }
    }
}

// An empty record key is not an id SurrealDB accepts, and no address has one: each lookup
// answers for it before asking the database.
#[async_trait]
impl AddressStore for SurrealAddressStore {
    async fn addresses(&self, user: &UserId) -> Result<Vec<SavedAddress>, AddressStoreError> {
        let rows: Vec<AddressRow> = self
            .db
            .query(format!("SELECT {ROW}, seq FROM address WHERE user = $user ORDER BY seq"))
            .bind(("user", user.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(|row| row.into_saved().map(|(_, saved)| saved)).collect()
    }

    async fn address(&self, id: &AddressId) -> Result<Option<(UserId, SavedAddress)>, AddressStoreError> {
        if id.0.is_empty() {
            return Ok(None);
        }
        let rows: Vec<AddressRow> = self
            .db
            .query(format!("SELECT {ROW} FROM type::record('address', $id)"))
            .bind(("id", id.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(AddressRow::into_saved).transpose()
    }

    async fn add(&self, user: &UserId, address: &Address, limit: usize) -> Result<SavedAddress, AddressStoreError> {
        let fields = AddressFields::from(address);
        until_settled(|| self.try_add(&user.0, &fields, limit), |e| Err(unavailable(e))).await
    }

    async fn replace(&self, user: &UserId, id: &AddressId, address: &Address) -> Result<(), AddressStoreError> {
        if id.0.is_empty() {
            return Err(AddressStoreError::NotFound);
        }
        let fields = AddressFields::from(address);
        let changed = retrying(|| {
            self.db
                .query(
                    "UPDATE type::record('address', $id) MERGE $fields WHERE user = $user RETURN VALUE record::id(id)",
                )
                .bind(("id", id.0.clone()))
                .bind(("user", user.0.clone()))
                .bind(("fields", fields.clone()))
        })
        .await;
        found(changed)
    }

    async fn remove(&self, user: &UserId, id: &AddressId) -> Result<(), AddressStoreError> {
        if id.0.is_empty() {
            return Err(AddressStoreError::NotFound);
        }
        let removed = retrying(|| {
            self.db
                .query("DELETE type::record('address', $id) WHERE user = $user RETURN BEFORE")
                .bind(("id", id.0.clone()))
                .bind(("user", user.0.clone()))
        })
        .await;
        found(removed)
    }

    async fn remove_all(&self, user: &UserId) -> Result<(), AddressStoreError> {
        let user = user.0.clone();
        let erase =
            "DELETE address WHERE user = $user RETURN NONE; DELETE type::record('address_book', $user) RETURN NONE";
        retrying(|| self.db.query(erase).bind(("user", user.clone())))
            .await
            .and_then(surrealdb::IndexedResults::check)
            .map(drop)
            .map_err(|e| unavailable(&e))
    }
}

/// A conditional single-record write: `NotFound` when it matched no record of this customer.
fn found(outcome: Result<surrealdb::IndexedResults, surrealdb::Error>) -> Result<(), AddressStoreError> {
    let touched: Vec<surrealdb::types::Value> = outcome.and_then(|mut r| r.take(0)).map_err(|e| unavailable(&e))?;
    if touched.is_empty() {
        Err(AddressStoreError::NotFound)
    } else {
        Ok(())
    }
}
