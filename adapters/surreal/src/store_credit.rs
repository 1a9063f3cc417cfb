//! The store credit ledger on SurrealDB: one `store_credit` row per grant (migration 29) with what
//! remains of it. Grants are written here; credit is spent and given back by the order store in its
//! own transactions, through [`take_credit`] and [`give_back`], so a balance is spent with the stock
//! hold or not at all.

use async_trait::async_trait;
use marque_domain::store_credit::{self, GrantSource, Spendable, Take};
use marque_domain::Money;
use marque_ports::{CreditBalance, StoreCreditError, StoreCreditStore, StoredGrant, UserId};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Tx};

/// [`StoreCreditStore`] on a SurrealDB connection. Get one from [`crate::Database::store_credit`].
///
/// - A grant's record key is its `source` (`return:…`, `refund:…`), and the `source` index is
///   unique too (a row written under another key by another writer), so a retried grant is
///   written once.
/// - `customer` is the customer's user id as every other table stores it (`customer_order.user`:
///   the account's record key, without the `user:` table name).
/// - Spending is the order store's: `remaining -= n WHERE remaining >= n` in the reservation's
///   transaction, so two checkouts spending one grant conflict and the loser is tried again with
///   the winner's spend seen.
#[derive(Debug, Clone)]
pub struct SurrealStoreCredit {
    db: Conn,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct GrantRow {
    id: String,
    amount: i64,
    remaining: i64,
    granted_at: i64,
    expires_at: i64,
    source: String,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct LiveRow {
    id: String,
    remaining: i64,
    expires_at: i64,
}

/// What a reservation took from one grant, as the reservation row keeps it.
#[derive(Debug, Clone, PartialEq, Eq, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct TakeRow {
    pub(crate) grant: String,
    pub(crate) amount: i64,
}

fn unavailable(e: &surrealdb::Error) -> StoreCreditError {
    StoreCreditError::Unavailable { reason: e.message().to_owned() }
}

const LIVE: &str = "SELECT record::id(id) AS id, remaining, expires_at FROM store_credit \
     WHERE customer = $customer AND expires_at > $now AND remaining > 0";

fn spendable(rows: Vec<LiveRow>) -> Vec<Spendable> {
    rows.into_iter()
        .map(|r| Spendable { id: r.id, remaining: Money::from_paise(r.remaining), expires_at: r.expires_at })
        .collect()
}

/// Takes `amount` of the customer's credit live at `now` in `tx`, from the grants that expire
/// first: what it took from each, or `None` when the live credit is less than `amount` (then
/// nothing was taken, and the caller cancels `tx`). Zero takes nothing.
pub(crate) async fn take_credit(
    tx: &Tx,
    customer: &str,
    amount: i64,
    now: i64,
) -> Result<Option<Vec<TakeRow>>, surrealdb::Error> {
    if amount <= 0 {
        return Ok(Some(Vec::new()));
    }
    let rows: Vec<LiveRow> =
        tx.query(LIVE).bind(("customer", customer.to_owned())).bind(("now", now)).await.and_then(|mut r| r.take(0))?;
    let spend = store_credit::spend(&spendable(rows), Money::from_paise(amount), now);
    if spend.credit.paise() < amount {
        return Ok(None);
    }
    let mut taken = Vec::with_capacity(spend.takes.len());
    for Take { grant, amount } in spend.takes {
        let left: Vec<i64> = tx
            .query(
                "UPDATE type::record('store_credit', $id) SET remaining -= $n \
                 WHERE remaining >= $n AND expires_at > $now RETURN VALUE remaining",
            )
            .bind(("id", grant.clone()))
            .bind(("n", amount.paise()))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))?;
        if left.is_empty() {
            return Ok(None);
        }
        taken.push(TakeRow { grant, amount: amount.paise() });
    }
    Ok(Some(taken))
}

/// Gives back in `tx` what `takes` took, each grant exactly its part (an expired grant too: the
/// amount is there, no longer spendable).
pub(crate) async fn give_back(tx: &Tx, takes: &[TakeRow]) -> Result<(), surrealdb::Error> {
    let back: Vec<TakeRow> = store_credit::given_back(
        &takes.iter().map(|t| Take { grant: t.grant.clone(), amount: Money::from_paise(t.amount) }).collect::<Vec<_>>(),
    )
    .into_iter()
    .map(|t| TakeRow { grant: t.grant, amount: t.amount.paise() })
    .collect();
    if back.is_empty() {
        return Ok(());
    }
    tx.query(
        "FOR $t IN $back { UPDATE type::record('store_credit', $t.grant) SET remaining += $t.amount RETURN NONE; };",
    )
    .bind(("back", back))
    .await
    .and_then(surrealdb::IndexedResults::check)
    .map(drop)
}

impl SurrealStoreCredit {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }
}

#[async_trait]
impl StoreCreditStore for SurrealStoreCredit {
    async fn balance(&self, customer: &UserId, now: i64) -> Result<CreditBalance, StoreCreditError> {
        let rows: Vec<LiveRow> = self
            .db
            .query(LIVE)
            .bind(("customer", customer.0.clone()))
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let grants = spendable(rows);
        Ok(CreditBalance {
            balance: store_credit::balance_at(&grants, now),
            expires_at: store_credit::next_expiry(&grants, now),
        })
    }

    async fn grant(
        &self,
        customer: &UserId,
        amount: Money,
        source: &GrantSource,
        granted_at: i64,
    ) -> Result<bool, StoreCreditError> {
        if amount.paise() < 1 {
            return Err(StoreCreditError::BadAmount);
        }
        let key = source.key();
        let written = crate::accounts::retrying(|| {
            self.db
                .query(
                    "CREATE type::record('store_credit', $key) CONTENT { customer: $customer, amount: $amount, \
                     remaining: $amount, granted_at: $granted_at, expires_at: $expires_at, source: $key } RETURN NONE",
                )
                .bind(("key", key.clone()))
                .bind(("customer", customer.0.clone()))
                .bind(("amount", amount.paise()))
                .bind(("granted_at", granted_at))
                .bind(("expires_at", store_credit::expires_at(granted_at)))
        })
        .await
        .and_then(surrealdb::IndexedResults::check);
        match written {
            Ok(_) => Ok(true),
            Err(e) if e.is_already_exists() || e.message().contains("store_credit_source") => Ok(false),
            Err(e) => Err(unavailable(&e)),
        }
    }

    async fn grants(&self, customer: &UserId) -> Result<Vec<StoredGrant>, StoreCreditError> {
        let rows: Vec<GrantRow> = self
            .db
            .query(
                "SELECT record::id(id) AS id, amount, remaining, granted_at, expires_at, source FROM store_credit \
                 WHERE customer = $customer ORDER BY expires_at, id",
            )
            .bind(("customer", customer.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(rows
            .into_iter()
            .map(|r| StoredGrant {
                id: r.id,
                amount: Money::from_paise(r.amount),
                remaining: Money::from_paise(r.remaining),
                granted_at: r.granted_at,
                expires_at: r.expires_at,
                source: r.source,
            })
            .collect())
    }
}
