//! Notifications to customers: one-time codes and order messages (with their invoices attached).

use async_trait::async_trait;

/// How a message reaches the customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    Sms,
    Email,
}

/// A file sent with an email, e.g. the tax invoice as `invoice.pdf`.
#[derive(Clone, PartialEq, Eq)]
pub struct Attachment {
    /// The name the recipient's mail program shows and saves it under.
    pub filename: String,
    /// Its MIME type, e.g. `application/pdf`.
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// An invoice is the customer's business: `Debug` names the file and its size, never its contents.
impl std::fmt::Debug for Attachment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Attachment")
            .field("filename", &self.filename)
            .field("content_type", &self.content_type)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

/// One message: its channel, recipient (ten-digit mobile or email address) and text.
/// `template` names the registered template an SMS gateway needs (India's DLT rules).
/// `attachments` go with an email; an SMS adapter ignores them.
#[derive(Clone, PartialEq, Eq)]
pub struct Notification {
    pub channel: Channel,
    pub recipient: String,
    pub subject: String,
    pub text: String,
    pub template: Option<String>,
    pub attachments: Vec<Attachment>,
}

/// The text may hold a one-time code: never printed by `Debug` (attachments only by name and size).
impl std::fmt::Debug for Notification {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notification")
            .field("channel", &self.channel)
            .field("recipient", &self.recipient)
            .field("attachments", &self.attachments)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotifyError {
    /// The recipient cannot be reached on this channel (a malformed address, a refused number).
    #[error("the recipient was refused: {reason}")]
    Refused { reason: String },
    /// The gateway or server could not be reached or failed; the caller may retry later.
    #[error("the notification service is unavailable: {reason}")]
    Unavailable { reason: String },
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait Notifier: Send + Sync {
    /// Sends one message. An email adapter sends its attachments with it; other channels ignore them.
    ///
    /// # Errors
    /// [`NotifyError::Refused`] when the recipient is refused; [`NotifyError::Unavailable`] when the
    /// service cannot be reached. A channel the adapter does not serve is `Refused`.
    async fn send(&self, notification: &Notification) -> Result<(), NotifyError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_prints_neither_the_text_nor_an_attachments_contents() {
        let n = Notification {
            channel: Channel::Email,
            recipient: "asha@example.in".into(),
            subject: "Order Confirmed".into(),
            text: "Your code is 482913".into(),
            template: None,
            attachments: vec![Attachment {
                filename: "invoice.pdf".into(),
                content_type: "application/pdf".into(),
                bytes: b"%PDF-secret-bytes".to_vec(),
            }],
        };
        let printed = format!("{n:?}");
        assert!(printed.contains("invoice.pdf") && printed.contains("17"), "{printed}");
        assert!(!printed.contains("482913") && !printed.contains("secret"), "{printed}");
    }
}
