//! Grievance tickets on SurrealDB (`grievance`, migration 22).
//!
//! Opening a ticket is one transaction: the next serial of the year's series
//! (`number_series:⟨gr-yy-yy⟩`, beside the invoices' and credit notes') and the row, so two openings
//! racing conflict and the loser is tried again: numbers are neither skipped nor repeated. A move is
//! a conditional update (`WHERE version = $version`) that also steps the version, with the audit row
//! in the same transaction.

use async_trait::async_trait;
use marque_domain::grievance::{GrievanceNumber, GrievanceState};
use marque_domain::invoice::FinancialYear;
use marque_ports::{
    AuditEntry, Grievance, GrievanceMove, GrievancePage, GrievanceQuery, GrievanceStore, GrievanceStoreError,
    NewGrievance,
};
use surrealdb::types::SurrealValue;

use crate::conn::{Conn, Tx};
use crate::error::{until_settled, Attempt};

/// [`GrievanceStore`] on a SurrealDB connection. Get one from [`crate::Database::grievances`].
#[derive(Debug, Clone)]
pub struct SurrealGrievanceStore {
    db: Conn,
}

const FIELDS: &str = "record::id(id) AS id, number, name, email, mobile, order_number, message, state, created_at, \
                      acknowledge_by, resolve_by, acknowledged_at, resolved_at, acknowledgement, resolution, \
                      handled_by, version";

/// One `grievance` row as read.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct GrievanceRow {
    id: String,
    number: String,
    name: String,
    email: String,
    mobile: String,
    order_number: Option<String>,
    message: String,
    state: String,
    created_at: i64,
    acknowledge_by: i64,
    resolve_by: i64,
    acknowledged_at: Option<i64>,
    resolved_at: Option<i64>,
    acknowledgement: Option<String>,
    resolution: Option<String>,
    handled_by: Option<String>,
    version: i64,
}

/// What a new row holds.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct NewRow {
    number: String,
    name: String,
    email: String,
    mobile: String,
    order_number: Option<String>,
    message: String,
    state: String,
    created_at: i64,
    acknowledge_by: i64,
    resolve_by: i64,
    version: i64,
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct Count {
    n: i64,
}

fn unavailable(e: &surrealdb::Error) -> GrievanceStoreError {
    GrievanceStoreError::Unavailable { reason: e.message().to_owned() }
}

fn grievance_of(row: GrievanceRow) -> Result<Grievance, GrievanceStoreError> {
    let corrupt = |what: &str| GrievanceStoreError::Unavailable {
        reason: format!("a stored grievance's {what} does not satisfy the shop's rules"),
    };
    Ok(Grievance {
        state: GrievanceState::parse(&row.state).map_err(|_| corrupt("state"))?,
        version: u64::try_from(row.version).map_err(|_| corrupt("version"))?,
        id: row.id,
        number: row.number,
        name: row.name,
        email: row.email,
        mobile: row.mobile,
        order_number: row.order_number,
        message: row.message,
        created_at: row.created_at,
        acknowledge_by: row.acknowledge_by,
        resolve_by: row.resolve_by,
        acknowledged_at: row.acknowledged_at,
        resolved_at: row.resolved_at,
        acknowledgement: row.acknowledgement,
        resolution: row.resolution,
        handled_by: row.handled_by,
    })
}

/// Ends a transaction that wrote nothing worth keeping and answers `outcome`.
async fn give_up<T>(tx: Tx, outcome: GrievanceStoreError) -> Attempt<Result<T, GrievanceStoreError>> {
    // Nothing was written that a failing cancel could keep.
    let _ = tx.cancel().await;
    Attempt::Done(Err(outcome))
}

async fn abandon<T>(tx: Tx, e: surrealdb::Error) -> Attempt<Result<T, GrievanceStoreError>> {
    let _ = tx.cancel().await;
    Attempt::failed(e, unavailable)
}

/// The next number of `year`'s grievance series, taken in `tx`; `None` when the series is exhausted.
async fn next_number(tx: &Tx, year: FinancialYear) -> Result<Option<GrievanceNumber>, surrealdb::Error> {
    let serial: Vec<i64> = tx
        .query("UPSERT type::record('number_series', $series) SET last = (last ?? 0) + 1 RETURN VALUE last")
        .bind(("series", format!("gr-{}", year.short())))
        .await
        .and_then(|mut r| r.take(0))?;
    Ok(serial.first().and_then(|s| u32::try_from(*s).ok()).and_then(|s| GrievanceNumber::new(year, s).ok()))
}

impl SurrealGrievanceStore {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_open(&self, new: &NewGrievance) -> Attempt<Result<Grievance, GrievanceStoreError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let number = match next_number(&tx, new.year).await {
            Ok(Some(number)) => number,
            Ok(None) => return give_up(tx, GrievanceStoreError::SerialExhausted).await,
            Err(e) => return abandon(tx, e).await,
        };
        let form = &new.form;
        let row = NewRow {
            number: number.to_string(),
            name: form.name.clone(),
            email: form.email.as_str().to_owned(),
            mobile: form.mobile.as_str().to_owned(),
            order_number: form.order_number.clone(),
            message: form.message.clone(),
            state: GrievanceState::Open.code().to_owned(),
            created_at: new.created_at,
            acknowledge_by: new.acknowledge_by,
            resolve_by: new.resolve_by,
            version: 0,
        };
        let created: Result<Vec<GrievanceRow>, _> = tx
            .query(format!("SELECT {FIELDS} FROM (CREATE grievance CONTENT $row)"))
            .bind(("row", row))
            .await
            .and_then(|mut r| r.take(0));
        let row = match created {
            Ok(rows) => match rows.into_iter().next() {
                Some(row) => row,
                None => {
                    let missing =
                        GrievanceStoreError::Unavailable { reason: "the new grievance was not read back".into() };
                    return give_up(tx, missing).await;
                }
            },
            Err(e) => return abandon(tx, e).await,
        };
        let grievance = match grievance_of(row) {
            Ok(g) => g,
            Err(e) => return give_up(tx, e).await,
        };
        match tx.commit().await {
            Ok(()) => Attempt::Done(Ok(grievance)),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    async fn try_change(
        &self,
        id: &str,
        version: u64,
        change: &GrievanceMove,
        audit: &AuditEntry,
    ) -> Attempt<Result<Grievance, GrievanceStoreError>> {
        let Ok(expected) = i64::try_from(version) else {
            return Attempt::Done(Err(GrievanceStoreError::Changed { version: 0 }));
        };
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let (acknowledgement, resolution) = match change.to {
            GrievanceState::Resolved => (None, change.note.clone()),
            _ => (change.note.clone(), None),
        };
        let moved: Result<Vec<GrievanceRow>, _> = tx
            .query(format!(
                "SELECT {FIELDS} FROM (UPDATE type::record('grievance', $id) SET state = $state, \
                 acknowledged_at = acknowledged_at ?? $at, \
                 resolved_at = IF $state = 'resolved' THEN $at ELSE resolved_at END, \
                 acknowledgement = IF $state = 'acknowledged' THEN $acknowledgement ELSE acknowledgement END, \
                 resolution = IF $state = 'resolved' THEN $resolution ELSE resolution END, \
                 handled_by = $handled_by, version = $version + 1 \
                 WHERE version = $version)"
            ))
            .query(crate::audit::WRITE)
            .bind(("id", id.to_owned()))
            .bind(("state", change.to.code().to_owned()))
            .bind(("at", change.at))
            .bind(("acknowledgement", acknowledgement))
            .bind(("resolution", resolution))
            .bind(("handled_by", audit.actor.label()))
            .bind(("version", expected))
            .bind(crate::audit::bind(audit))
            .await
            .and_then(|mut r| {
                let rows: Vec<GrievanceRow> = r.take(0)?;
                r.check()?;
                Ok(rows)
            });
        match moved {
            Ok(rows) if !rows.is_empty() => {
                let grievance = match rows.into_iter().next().map(grievance_of) {
                    Some(Ok(g)) => g,
                    Some(Err(e)) => return give_up(tx, e).await,
                    None => return give_up(tx, GrievanceStoreError::NotFound).await,
                };
                match tx.commit().await {
                    Ok(()) => Attempt::Done(Ok(grievance)),
                    Err(e) => Attempt::failed(e, unavailable),
                }
            }
            Ok(_) => {
                // Nothing moved: the audit row must not stay either, so the transaction is cancelled.
                let now: Result<Vec<i64>, _> = tx
                    .query("SELECT VALUE version FROM type::record('grievance', $id)")
                    .bind(("id", id.to_owned()))
                    .await
                    .and_then(|mut r| r.take(0));
                let refusal = match now {
                    Ok(v) => match v.first() {
                        None => GrievanceStoreError::NotFound,
                        Some(&now) => GrievanceStoreError::Changed { version: u64::try_from(now).unwrap_or(0) },
                    },
                    Err(e) => return abandon(tx, e).await,
                };
                give_up(tx, refusal).await
            }
            Err(e) => abandon(tx, e).await,
        }
    }
}

#[async_trait]
impl GrievanceStore for SurrealGrievanceStore {
    async fn open(&self, new: &NewGrievance) -> Result<Grievance, GrievanceStoreError> {
        until_settled(|| self.try_open(new), |e| Err(unavailable(e))).await
    }

    async fn grievances(&self, query: &GrievanceQuery) -> Result<GrievancePage, GrievanceStoreError> {
        let matching = if query.state.is_some() { "state = $state" } else { "true" };
        let (count, rows): (Vec<Count>, Vec<GrievanceRow>) = self
            .db
            .query(format!("SELECT count() AS n FROM grievance WHERE {matching} GROUP ALL"))
            .query(format!(
                "SELECT {FIELDS} FROM grievance WHERE {matching} \
                 ORDER BY created_at DESC, number DESC LIMIT $limit START $offset"
            ))
            .bind(("state", query.state.map_or("", GrievanceState::code).to_owned()))
            .bind(("limit", i64::from(query.window.limit())))
            .bind(("offset", i64::try_from(query.window.offset()).unwrap_or(i64::MAX)))
            .await
            .and_then(|mut r| Ok((r.take(0)?, r.take(1)?)))
            .map_err(|e| unavailable(&e))?;
        Ok(GrievancePage {
            grievances: rows.into_iter().map(grievance_of).collect::<Result<_, _>>()?,
            total: count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0)),
        })
    }

    async fn grievance(&self, id: &str) -> Result<Option<Grievance>, GrievanceStoreError> {
        // SurrealDB refuses an empty record key; no ticket has one.
        if id.is_empty() {
            return Ok(None);
        }
        let rows: Vec<GrievanceRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM type::record('grievance', $id)"))
            .bind(("id", id.to_owned()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().next().map(grievance_of).transpose()
    }

    async fn change(
        &self,
        id: &str,
        version: u64,
        change: &GrievanceMove,
        audit: &AuditEntry,
    ) -> Result<Grievance, GrievanceStoreError> {
        if id.is_empty() {
            return Err(GrievanceStoreError::NotFound);
        }
        until_settled(|| self.try_change(id, version, change, audit), |e| Err(unavailable(e))).await
    }

    async fn overdue(&self, now: i64) -> Result<u64, GrievanceStoreError> {
        let count: Vec<Count> = self
            .db
            .query(
                "SELECT count() AS n FROM grievance WHERE state != 'resolved' \
                 AND ((state = 'open' AND acknowledge_by <= $now) OR resolve_by <= $now) GROUP ALL",
            )
            .bind(("now", now))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        Ok(count.first().map_or(0, |c| u64::try_from(c.n).unwrap_or(0)))
    }
}
