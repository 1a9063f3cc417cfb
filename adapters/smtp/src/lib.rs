//! The [`Notifier`] port for email: one-time codes and order messages (the invoice attached) over SMTP.
//!
//! [`SmtpNotifier`] serves [`Channel::Email`] only; an SMS given to it is refused. A message with
//! attachments goes as `multipart/mixed`: the text, then each file in base64. It keeps a
//! small pool of connections to one relay (a mail provider's submission server in production,
//! a local sink in tests).
//!
//! What a shop needs for real email in India (or anywhere): an SMTP relay account (Amazon SES
//! in ap-south-1, Zoho Mail, Google Workspace, Postmark, …) with the sending domain verified,
//! SPF and DKIM records published for that domain and a DMARC policy, and a `from` address on
//! that domain. Use port 587 with [`SmtpSecurity::StartTls`] or 465 with [`SmtpSecurity::Tls`];
//! [`SmtpSecurity::Plain`] is for a local server only.

use std::time::Duration;

use async_trait::async_trait;
use lettre::message::header::ContentType;
use lettre::message::{Attachment as MailAttachment, Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use marque_ports::{Channel, Notification, Notifier, NotifyError};
use secrecy::{ExposeSecret, SecretString};

/// How the connection to the relay is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// No TLS at all: a local test server only.
    Plain,
    /// Plain connection upgraded with STARTTLS, which must succeed (port 587).
    StartTls,
    /// TLS from the first byte (port 465).
    Tls,
}

/// Where and as whom to send mail. `password` never appears in `Debug` output.
#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    pub username: Option<String>,
    pub password: Option<SecretString>,
    /// The sender, e.g. `Marque Parts <no-reply@marque.example>`.
    pub from: String,
    /// The longest one message may take, connecting included, before it is given up as
    /// [`NotifyError::Unavailable`].
    pub timeout: Duration,
}

impl SmtpConfig {
    /// A relay with the usual defaults: STARTTLS on 587, no credentials, a 10-second timeout.
    #[must_use]
    pub fn new(host: impl Into<String>, from: impl Into<String>) -> Self {
        Self {
            host: host.into(),
            port: 587,
            security: SmtpSecurity::StartTls,
            username: None,
            password: None,
            from: from.into(),
            timeout: Duration::from_secs(10),
        }
    }
}

/// A configuration the notifier cannot be built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SmtpConfigError {
    #[error("the sender address `{0}` is not a mailbox (expected e.g. `Marque Parts <no-reply@marque.example>`)")]
    From(String),
    #[error("a username needs a password and a password needs a username")]
    Credentials,
    #[error("the SMTP host `{host}` cannot be used with TLS: {reason}")]
    Tls { host: String, reason: String },
}

/// Sends [`Channel::Email`] notifications through an SMTP relay.
pub struct SmtpNotifier {
    from: Mailbox,
    outbox: Outbox,
    timeout: Duration,
}

impl std::fmt::Debug for SmtpNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpNotifier").field("from", &self.from.to_string()).finish_non_exhaustive()
    }
}

/// The seam between building a message and handing it over: the relay, or lettre's stub in tests.
enum Outbox {
    Relay(AsyncSmtpTransport<Tokio1Executor>),
    #[cfg(test)]
    Stub(lettre::transport::stub::AsyncStubTransport),
}

impl SmtpNotifier {
    /// Builds the notifier; no connection is made until the first message. Call it inside a
    /// Tokio runtime: the connection pool starts a task of its own.
    ///
    /// # Errors
    /// [`SmtpConfigError`] when `from` is not a mailbox, credentials are half given, or the host
    /// cannot be used for TLS.
    pub fn new(config: SmtpConfig) -> Result<Self, SmtpConfigError> {
        let from = parse_from(&config.from)?;
        let tls_error = |e: lettre::transport::smtp::Error| SmtpConfigError::Tls {
            host: config.host.clone(),
            reason: e.to_string(),
        };
        let builder = match config.security {
            SmtpSecurity::Plain => AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(config.host.as_str()),
            SmtpSecurity::StartTls => {
                AsyncSmtpTransport::<Tokio1Executor>::starttls_relay(&config.host).map_err(tls_error)?
            }
            SmtpSecurity::Tls => AsyncSmtpTransport::<Tokio1Executor>::relay(&config.host).map_err(tls_error)?,
        };
        let mut builder = builder.port(config.port).timeout(Some(config.timeout));
        match (config.username, config.password) {
            (Some(user), Some(password)) => {
                builder = builder.credentials(Credentials::new(user, password.expose_secret().to_owned()));
            }
            (None, None) => {}
            _ => return Err(SmtpConfigError::Credentials),
        }
        Ok(Self { from, outbox: Outbox::Relay(builder.build()), timeout: config.timeout })
    }

    #[cfg(test)]
    fn with_stub(from: &str, stub: lettre::transport::stub::AsyncStubTransport) -> Self {
        Self {
            from: parse_from(from).expect("a valid sender in the test"),
            outbox: Outbox::Stub(stub),
            timeout: Duration::from_secs(1),
        }
    }

    fn message(&self, notification: &Notification) -> Result<Message, NotifyError> {
        let to: Mailbox = notification.recipient.trim().parse().map_err(|e| NotifyError::Refused {
            reason: format!("`{}` is not an email address: {e}", notification.recipient),
        })?;
        let builder = Message::builder().from(self.from.clone()).to(to).subject(notification.subject.as_str());
        let built = if notification.attachments.is_empty() {
            builder.header(ContentType::TEXT_PLAIN).body(notification.text.clone())
        } else {
            builder.multipart(with_attachments(notification)?)
        };
        built.map_err(|e| NotifyError::Refused { reason: format!("the message cannot be built: {e}") })
    }
}

/// `multipart/mixed`: the text first, then each attachment (base64) under its file name.
fn with_attachments(notification: &Notification) -> Result<MultiPart, NotifyError> {
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(notification.text.clone()));
    for file in &notification.attachments {
        let content_type = ContentType::parse(&file.content_type).map_err(|e| NotifyError::Refused {
            reason: format!("`{}` is not a content type for {}: {e}", file.content_type, file.filename),
        })?;
        parts = parts.singlepart(MailAttachment::new(file.filename.clone()).body(file.bytes.clone(), content_type));
    }
    Ok(parts)
}

fn parse_from(from: &str) -> Result<Mailbox, SmtpConfigError> {
    from.parse().map_err(|_| SmtpConfigError::From(from.to_owned()))
}

/// The relay's answer, in the port's words: a refused mailbox is `Refused`, anything a retry
/// (or an operator) could fix is `Unavailable`.
fn relay_error(e: &lettre::transport::smtp::Error) -> NotifyError {
    // 550/551/553: no such mailbox or not allowed; 501/553: the address is malformed.
    const RECIPIENT_REFUSED: [&str; 4] = ["501", "550", "551", "553"];
    match e.status() {
        Some(code) if e.is_permanent() && RECIPIENT_REFUSED.contains(&code.to_string().as_str()) => {
            NotifyError::Refused { reason: format!("the mail server refused the recipient ({code})") }
        }
        Some(code) => NotifyError::Unavailable { reason: format!("the mail server answered {code}") },
        None if e.is_timeout() => {
            NotifyError::Unavailable { reason: "the mail server did not answer in time".to_owned() }
        }
        None => NotifyError::Unavailable { reason: format!("the mail server cannot be reached: {e}") },
    }
}

#[async_trait]
impl Notifier for SmtpNotifier {
    async fn send(&self, notification: &Notification) -> Result<(), NotifyError> {
        if notification.channel != Channel::Email {
            return Err(NotifyError::Refused {
                reason: format!("the SMTP notifier sends email only, not {:?}", notification.channel),
            });
        }
        let message = self.message(notification)?;
        let outcome = match &self.outbox {
            // lettre's own timeout covers each command but not the wait for the greeting: a
            // server that accepts and stays silent would hold the caller for as long as it likes.
            Outbox::Relay(relay) => match tokio::time::timeout(self.timeout, relay.send(message)).await {
                Ok(sent) => sent.map(|_| ()).map_err(|e| relay_error(&e)),
                Err(_) => Err(NotifyError::Unavailable { reason: "the mail server did not answer in time".to_owned() }),
            },
            #[cfg(test)]
            Outbox::Stub(stub) => stub
                .send(message)
                .await
                .map_err(|e| NotifyError::Unavailable { reason: format!("the stub refused: {e}") }),
        };
        match &outcome {
            Ok(()) => tracing::info!(recipient = %notification.recipient, "email sent"),
            Err(e) => tracing::warn!(recipient = %notification.recipient, error = %e, "email not sent"),
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use lettre::transport::stub::AsyncStubTransport;
    use marque_ports::Attachment;

    use super::*;

    const FROM: &str = "Marque Parts <no-reply@marque.example>";

    fn email(recipient: &str) -> Notification {
        Notification {
            channel: Channel::Email,
            recipient: recipient.to_owned(),
            subject: "Your Marque code".to_owned(),
            text: "Your Marque code is 482913. It is valid for 10 minutes.".to_owned(),
            template: None,
            attachments: Vec::new(),
        }
    }

    #[tokio::test]
    async fn an_email_goes_to_the_recipient_from_the_shop_with_the_code() {
        let stub = AsyncStubTransport::new_ok();
        let notifier = SmtpNotifier::with_stub(FROM, stub.clone());
        notifier.send(&email("asha@example.in")).await.expect("sent");
        let messages = stub.messages().await;
        assert_eq!(messages.len(), 1);
        let (envelope, raw) = &messages[0];
        assert_eq!(envelope.to().iter().map(ToString::to_string).collect::<Vec<_>>(), ["asha@example.in"]);
        assert_eq!(envelope.from().map(ToString::to_string).as_deref(), Some("no-reply@marque.example"));
        assert!(raw.contains("Subject: Your Marque code"), "{raw}");
        assert!(
            raw.contains("From: \"Marque Parts\" <no-reply@marque.example>")
                || raw.contains("From: Marque Parts <no-reply@marque.example>"),
            "{raw}"
        );
        assert!(raw.contains("482913"), "{raw}");
    }

    #[tokio::test]
    async fn attachments_go_as_a_multipart_message_after_the_text() {
        let stub = AsyncStubTransport::new_ok();
        let notifier = SmtpNotifier::with_stub(FROM, stub.clone());
        let invoice = Attachment {
            filename: "invoice.pdf".into(),
            content_type: "application/pdf".into(),
            bytes: b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n".to_vec(),
        };
        let order = Notification {
            subject: "Order Confirmed".into(),
            text: "Your order MQ-000042 is confirmed.".into(),
            attachments: vec![invoice],
            ..email("asha@example.in")
        };
        notifier.send(&order).await.expect("sent");
        let messages = stub.messages().await;
        let (_, raw) = &messages[0];
        assert!(raw.contains("Content-Type: multipart/mixed"), "{raw}");
        let text_at = raw.find("Your order MQ-000042 is confirmed.").expect("the text is there");
        let file_at = raw.find("Content-Disposition: attachment; filename=\"invoice.pdf\"").expect("the file is named");
        assert!(text_at < file_at, "the text comes first: {raw}");
        assert!(raw.contains("Content-Type: application/pdf"), "{raw}");
        // A PDF's binary bytes travel in base64.
        assert!(raw.contains("Content-Transfer-Encoding: base64") && raw.contains("JVBERi0xLjcKJeLjz9MK"), "{raw}");
    }

    #[tokio::test]
    async fn an_attachment_with_a_malformed_content_type_is_refused() {
        let stub = AsyncStubTransport::new_ok();
        let notifier = SmtpNotifier::with_stub(FROM, stub.clone());
        let odd = Attachment { filename: "x".into(), content_type: "not a type".into(), bytes: vec![1] };
        let n = Notification { attachments: vec![odd], ..email("asha@example.in") };
        assert!(matches!(notifier.send(&n).await, Err(NotifyError::Refused { .. })));
        assert!(stub.messages().await.is_empty());
    }

    #[tokio::test]
    async fn an_sms_is_refused_and_nothing_is_sent() {
        let stub = AsyncStubTransport::new_ok();
        let notifier = SmtpNotifier::with_stub(FROM, stub.clone());
        let sms = Notification { channel: Channel::Sms, recipient: "9876543210".to_owned(), ..email("") };
        assert!(matches!(notifier.send(&sms).await, Err(NotifyError::Refused { .. })));
        assert!(stub.messages().await.is_empty());
    }

    #[tokio::test]
    async fn a_malformed_recipient_is_refused_and_nothing_is_sent() {
        let stub = AsyncStubTransport::new_ok();
        let notifier = SmtpNotifier::with_stub(FROM, stub.clone());
        for bad in ["", "asha", "asha@", "@example.in", "asha@@example.in", "asha example.in"] {
            assert!(matches!(notifier.send(&email(bad)).await, Err(NotifyError::Refused { .. })), "{bad:?}");
        }
        assert!(stub.messages().await.is_empty());
    }

    #[tokio::test]
    async fn a_failing_transport_is_unavailable() {
        let notifier = SmtpNotifier::with_stub(FROM, AsyncStubTransport::new_error());
        assert!(matches!(notifier.send(&email("asha@example.in")).await, Err(NotifyError::Unavailable { .. })));
    }

    #[tokio::test]
    async fn the_password_never_prints() {
        let mut config = SmtpConfig::new("smtp.example.in", FROM);
        config.username = Some("shop".to_owned());
        config.password = Some(SecretString::from("hunter2-very-secret"));
        let printed = format!("{config:?}");
        assert!(!printed.contains("hunter2"), "{printed}");
        let notifier = SmtpNotifier::new(config).expect("a valid config");
        assert!(!format!("{notifier:?}").contains("hunter2"));
    }

    #[tokio::test]
    async fn a_bad_configuration_is_reported() {
        assert!(matches!(
            SmtpNotifier::new(SmtpConfig::new("smtp.example.in", "no-reply")),
            Err(SmtpConfigError::From(_))
        ));
        let mut half = SmtpConfig::new("smtp.example.in", FROM);
        half.username = Some("shop".to_owned());
        assert_eq!(SmtpNotifier::new(half).err(), Some(SmtpConfigError::Credentials));
    }
}
