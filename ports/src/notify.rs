//! Notifications to customers: one-time codes now, order messages later.

use async_trait::async_trait;

/// How a message reaches the customer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Channel {
    Sms,
    Email,
}

/// One message: its channel, recipient (ten-digit mobile or email address) and text.
/// `template` names the registered template an SMS gateway needs (India's DLT rules).
#[derive(Clone, PartialEq, Eq)]
pub struct Notification {
    pub channel: Channel,
    pub recipient: String,
    pub subject: String,
    pub text: String,
    pub template: Option<String>,
}

/// The text may hold a one-time code: never printed by `Debug`.
impl std::fmt::Debug for Notification {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notification")
            .field("channel", &self.channel)
            .field("recipient", &self.recipient)
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
    /// Sends one message.
    ///
    /// # Errors
    /// [`NotifyError::Refused`] when the recipient is refused; [`NotifyError::Unavailable`] when the
    /// service cannot be reached. A channel the adapter does not serve is `Refused`.
    async fn send(&self, notification: &Notification) -> Result<(), NotifyError>;
}
