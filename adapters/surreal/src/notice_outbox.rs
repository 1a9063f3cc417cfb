//! The outbox of customers' order notices on SurrealDB (`notice_outbox`, migration 27).
//!
//! The order desk's writes append [`ENQUEUE`] to their transaction, bound with [`bind`]: the
//! notices are kept exactly when the order change is. The worker's side ([`NoticeOutbox`]):
//! `claim` selects the due rows and leases them with a conditional update in one transaction (of
//! two workers claiming at once, one transaction conflicts and, tried again, finds the rows leased);
//! `sent` and `attempt_failed` change a row only under the worker's own lease.

use async_trait::async_trait;
use marque_domain::order::NoticeKind;
use marque_ports::{
    Channel, NewNotice, NoticeCounts, NoticeOutbox, NoticeOutboxError, NoticeState, OrderId, QueuedNotice,
};
use surrealdb::types::SurrealValue;

use crate::conn::Conn;
use crate::error::{until_settled, Attempt};

/// Appended to an order write's transaction: queues `$notices` ([`bind`]), due at once.
pub(crate) const ENQUEUE: &str = "FOR $notice IN $notices { CREATE notice_outbox CONTENT $notice RETURN NONE; };";

/// What [`ENQUEUE`] reads.
pub(crate) fn bind(notices: &[NewNotice]) -> (&'static str, Vec<NoticeWriteRow>) {
    ("notices", notices.iter().enumerate().map(|(n, notice)| NoticeWriteRow::new(notice, n)).collect())
}

fn channel_code(channel: Channel) -> &'static str {
    match channel {
        Channel::Email => "email",
        Channel::Sms => "sms",
    }
}

/// One `notice_outbox` row as written.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
pub(crate) struct NoticeWriteRow {
    order_id: String,
    kind: String,
    channel: String,
    recipient: String,
    subject: String,
    text: String,
    template: Option<String>,
    created_at: i64,
    n: i64,
    state: String,
    attempts: i64,
    due_at: i64,
    lease_until: i64,
}

impl NoticeWriteRow {
    fn new(notice: &NewNotice, n: usize) -> Self {
        Self {
            order_id: notice.order.0.clone(),
            kind: notice.kind.template().to_owned(),
            channel: channel_code(notice.channel).to_owned(),
            recipient: notice.recipient.clone(),
            subject: notice.subject.clone(),
            text: notice.text.clone(),
            template: notice.template.clone(),
            created_at: notice.at,
            n: i64::try_from(n).unwrap_or(i64::MAX),
            state: NoticeState::Waiting.code().to_owned(),
            attempts: 0,
            due_at: notice.at,
            lease_until: 0,
        }
    }
}

const FIELDS: &str = "record::id(id) AS id, order_id, kind, channel, recipient, subject, text, template, created_at, \
                      n, seq, state, attempts, due_at, last_error";

/// One `notice_outbox` row as read.
#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct NoticeRow {
    id: String,
    order_id: String,
    kind: String,
    channel: String,
    recipient: String,
    subject: String,
    text: String,
    template: Option<String>,
    created_at: i64,
    state: String,
    attempts: i64,
    due_at: i64,
    last_error: Option<String>,
}

fn corrupt(what: &str) -> NoticeOutboxError {
    NoticeOutboxError::Unavailable { reason: format!("a stored notice has an unknown {what}") }
}

fn unavailable(e: &surrealdb::Error) -> NoticeOutboxError {
    NoticeOutboxError::Unavailable { reason: e.message().to_owned() }
}

impl TryFrom<NoticeRow> for QueuedNotice {
    type Error = NoticeOutboxError;

    fn try_from(row: NoticeRow) -> Result<Self, Self::Error> {
        let kind = NoticeKind::ALL.into_iter().find(|k| k.template() == row.kind).ok_or_else(|| corrupt("kind"))?;
        let channel = match row.channel.as_str() {
            "email" => Channel::Email,
            "sms" => Channel::Sms,
            _ => return Err(corrupt("channel")),
        };
        Ok(QueuedNotice {
            id: row.id,
            notice: NewNotice {
                order: OrderId(row.order_id),
                kind,
                channel,
                recipient: row.recipient,
                subject: row.subject,
                text: row.text,
                template: row.template,
                at: row.created_at,
            },
            state: NoticeState::from_code(&row.state).ok_or_else(|| corrupt("state"))?,
            attempts: u32::try_from(row.attempts).unwrap_or(0),
            due_at: row.due_at,
            last_error: row.last_error,
        })
    }
}

#[derive(Debug, Clone, SurrealValue)]
#[surreal(crate = "surrealdb::types")]
struct StateCount {
    state: String,
    n: i64,
}

/// [`NoticeOutbox`] on a SurrealDB connection. Get one from [`crate::Database::notice_outbox`].
#[derive(Debug, Clone)]
pub struct SurrealNoticeOutbox {
    db: Conn,
}

/// Claimable now: waiting, due, and under no lease that holds.
const CLAIMABLE: &str = "state = 'waiting' AND due_at <= $now AND lease_until < $now";

impl SurrealNoticeOutbox {
    pub(crate) fn new(db: Conn) -> Self {
        Self { db }
    }

    async fn try_claim(
        &self,
        worker: &str,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Attempt<Result<Vec<QueuedNotice>, NoticeOutboxError>> {
        let tx = match self.db.begin().await {
            Ok(tx) => tx,
            Err(e) => return Attempt::failed(e, unavailable),
        };
        let claimed: Result<Vec<NoticeRow>, _> = tx
            .query(format!(
                "LET $due = (SELECT id, due_at, created_at, n FROM notice_outbox WHERE {CLAIMABLE} \
                 ORDER BY due_at, created_at, n LIMIT $limit).id;"
            ))
            .query(format!(
                "LET $won = (UPDATE $due SET claimed_by = $worker, lease_until = $until WHERE {CLAIMABLE} \
                 RETURN VALUE id);"
            ))
            .query(format!("SELECT {FIELDS} FROM $won ORDER BY due_at, created_at, n;"))
            .bind(("now", now))
            .bind(("until", lease_until))
            .bind(("worker", worker.to_owned()))
            .bind(("limit", i64::from(limit)))
            .await
            .and_then(|mut r| r.take(2));
        let rows = match claimed {
            Ok(rows) => rows,
            Err(e) => {
                let _ = tx.cancel().await;
                return Attempt::failed(e, unavailable);
            }
        };
        let notices = rows.into_iter().map(QueuedNotice::try_from).collect::<Result<Vec<_>, _>>();
        if notices.is_err() {
            let _ = tx.cancel().await;
            return Attempt::Done(notices);
        }
        match tx.commit().await {
            Ok(()) => Attempt::Done(notices),
            Err(e) => Attempt::failed(e, unavailable),
        }
    }

    /// Runs a conditional update of one row (which answers the ids it changed) in its own
    /// transaction; whether it changed it.
    async fn conditional(
        &self,
        surql: &'static str,
        vars: Vec<(&'static str, surrealdb::types::Value)>,
    ) -> Result<bool, NoticeOutboxError> {
        until_settled(
            || async {
                let tx = match self.db.begin().await {
                    Ok(tx) => tx,
                    Err(e) => return Attempt::failed(e, unavailable),
                };
                let mut request = tx.query(surql);
                for var in vars.clone() {
                    request = request.bind(var);
                }
                let ids: Result<Vec<String>, _> = request.await.and_then(|mut r| r.take(0));
                match ids {
                    Ok(ids) => match tx.commit().await {
                        Ok(()) => Attempt::Done(Ok(!ids.is_empty())),
                        Err(e) => Attempt::failed(e, unavailable),
                    },
                    Err(e) => {
                        let _ = tx.cancel().await;
                        Attempt::failed(e, unavailable)
                    }
                }
            },
            |e| Err(unavailable(e)),
        )
        .await
    }
}

fn value<T: SurrealValue>(v: T) -> surrealdb::types::Value {
    surrealdb::types::Value::from_t(v)
}

#[async_trait]
impl NoticeOutbox for SurrealNoticeOutbox {
    async fn claim(
        &self,
        worker: &str,
        now: i64,
        lease_until: i64,
        limit: u32,
    ) -> Result<Vec<QueuedNotice>, NoticeOutboxError> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        until_settled(|| self.try_claim(worker, now, lease_until, limit), |e| Err(unavailable(e))).await
    }

    async fn sent(&self, id: &str, worker: &str, now: i64) -> Result<bool, NoticeOutboxError> {
        if id.is_empty() {
            return Ok(false);
        }
        self.conditional(
            "UPDATE type::record('notice_outbox', $id) SET state = 'sent', sent_at = $now, lease_until = 0 \
             WHERE state = 'waiting' AND claimed_by = $worker RETURN VALUE record::id(id)",
            vec![("id", value(id.to_owned())), ("worker", value(worker.to_owned())), ("now", value(now))],
        )
        .await
    }

    async fn attempt_failed(
        &self,
        id: &str,
        worker: &str,
        error: &str,
        retry_at: Option<i64>,
    ) -> Result<bool, NoticeOutboxError> {
        if id.is_empty() {
            return Ok(false);
        }
        let error: String = error.chars().take(500).collect();
        self.conditional(
            "UPDATE type::record('notice_outbox', $id) SET attempts += 1, last_error = $error, lease_until = 0, \
             claimed_by = NONE, state = $state, due_at = $retry_at ?? due_at \
             WHERE state = 'waiting' AND claimed_by = $worker RETURN VALUE record::id(id)",
            vec![
                ("id", value(id.to_owned())),
                ("worker", value(worker.to_owned())),
                ("error", value(error)),
                ("retry_at", value(retry_at)),
                (
                    "state",
                    value(
                        if retry_at.is_some() { NoticeState::Waiting } else { NoticeState::Failed }.code().to_owned(),
                    ),
                ),
            ],
        )
        .await
    }

    async fn notices_of(&self, order: &OrderId) -> Result<Vec<QueuedNotice>, NoticeOutboxError> {
        let rows: Vec<NoticeRow> = self
            .db
            .query(format!("SELECT {FIELDS} FROM notice_outbox WHERE order_id = $order ORDER BY created_at, seq, n"))
            .bind(("order", order.0.clone()))
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        rows.into_iter().map(QueuedNotice::try_from).collect()
    }

    async fn counts(&self) -> Result<NoticeCounts, NoticeOutboxError> {
        let rows: Vec<StateCount> = self
            .db
            .query("SELECT state, count() AS n FROM notice_outbox WHERE state IN ['waiting', 'failed'] GROUP BY state")
            .await
            .and_then(|mut r| r.take(0))
            .map_err(|e| unavailable(&e))?;
        let mut counts = NoticeCounts::default();
        for row in rows {
            let n = u64::try_from(row.n).unwrap_or(0);
            if row.state == NoticeState::Failed.code() {
                counts.failed += n;
            } else {
                counts.waiting += n;
            }
        }
        Ok(counts)
    }
}
