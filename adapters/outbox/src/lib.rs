//! The development outbox: a [`Notifier`] that sends nothing and keeps every message.
//!
//! `MARQUE_ENV=dev` wires it in place of SMS and email gateways; `GET /api/dev/outbox` lists
//! what it holds, newest first, so a developer (or a test) reads the one-time code there.
//! It holds at most [`Outbox::CAPACITY`] messages, dropping the oldest, and of an attachment only
//! its file name.

use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use async_trait::async_trait;
use marque_ports::{Channel, Notification, Notifier, NotifyError};

/// One message as the outbox keeps it.
#[derive(Clone, PartialEq, Eq)]
pub struct OutboxMessage {
    pub channel: Channel,
    pub recipient: String,
    pub subject: String,
    pub text: String,
    /// The names of the files sent with it (their contents are not kept).
    pub attachments: Vec<String>,
    /// Seconds since the Unix epoch when it was sent.
    pub time: i64,
}

/// The text may hold a one-time code: never printed by `Debug`.
impl std::fmt::Debug for OutboxMessage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutboxMessage")
            .field("channel", &self.channel)
            .field("recipient", &self.recipient)
            .field("attachments", &self.attachments)
            .field("time", &self.time)
            .finish_non_exhaustive()
    }
}

/// Messages in memory, newest first.
#[derive(Debug, Default)]
pub struct Outbox {
    messages: Mutex<Vec<OutboxMessage>>,
}

impl Outbox {
    /// Most messages kept; older ones are dropped.
    pub const CAPACITY: usize = 1_000;

    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Every message kept, newest first.
    #[must_use]
    pub fn messages(&self) -> Vec<OutboxMessage> {
        self.messages.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

#[async_trait]
impl Notifier for Outbox {
    async fn send(&self, notification: &Notification) -> Result<(), NotifyError> {
        let time =
            SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        let message = OutboxMessage {
            channel: notification.channel,
            recipient: notification.recipient.clone(),
            subject: notification.subject.clone(),
            text: notification.text.clone(),
            attachments: notification.attachments.iter().map(|a| a.filename.clone()).collect(),
            time,
        };
        let mut messages = self
            .messages
            .lock()
            .map_err(|_| NotifyError::Unavailable { reason: "the outbox is poisoned".to_owned() })?;
        messages.insert(0, message);
        messages.truncate(Self::CAPACITY);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(recipient: &str, text: &str) -> Notification {
        Notification {
            channel: Channel::Sms,
            recipient: recipient.to_owned(),
            subject: String::new(),
            text: text.to_owned(),
            template: None,
            attachments: Vec::new(),
        }
    }

    #[tokio::test]
    async fn keeps_messages_newest_first_without_printing_them() {
        let outbox = Outbox::new();
        outbox.send(&note("9876543210", "first 123456")).await.expect("send");
        outbox.send(&note("9123456780", "second 112233")).await.expect("send");
        let texts: Vec<String> = outbox.messages().into_iter().map(|m| m.text).collect();
        assert_eq!(texts, vec!["second 112233".to_owned(), "first 123456".to_owned()]);
        assert!(!format!("{:?}", outbox.messages()).contains("112233"), "codes stay out of Debug");
    }

    #[tokio::test]
    async fn keeps_the_names_of_attachments_not_their_contents() {
        let outbox = Outbox::new();
        let invoice = marque_ports::Attachment {
            filename: "invoice.pdf".to_owned(),
            content_type: "application/pdf".to_owned(),
            bytes: vec![0; 2048],
        };
        let email = Notification {
            channel: Channel::Email,
            attachments: vec![invoice],
            ..note("asha@example.in", "Order Confirmed")
        };
        outbox.send(&email).await.expect("send");
        outbox.send(&note("9876543210", "no files")).await.expect("send");
        let kept: Vec<Vec<String>> = outbox.messages().into_iter().map(|m| m.attachments).collect();
        assert_eq!(kept, vec![vec![], vec!["invoice.pdf".to_owned()]]);
    }

    #[tokio::test]
    async fn keeps_at_most_its_capacity() {
        let outbox = Outbox::new();
        for n in 0..Outbox::CAPACITY + 5 {
            outbox.send(&note("9876543210", &n.to_string())).await.expect("send");
        }
        let messages = outbox.messages();
        assert_eq!(messages.len(), Outbox::CAPACITY);
        assert_eq!(messages[0].text, (Outbox::CAPACITY + 4).to_string());
    }
}
