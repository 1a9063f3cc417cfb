//! The [`Notifier`] port for SMS in India, over MSG91's flow API (`POST /api/v5/flow`).
//!
//! [`SmsGatewayNotifier`] serves [`Channel::Sms`] only; an email given to it is refused, and the
//! attachments a notification carries are not sent (an SMS has none).
//!
//! # What a shop must configure for real SMS in India
//! Every commercial SMS in India passes TRAI's DLT (Distributed Ledger Technology) scrutiny, and
//! the operator drops a message that does not match what is registered. Before the first SMS:
//!
//! 1. **Register the business as a principal entity** on a DLT portal (Jio, Vi, Airtel, BSNL…,
//!    any one is enough). This gives the 19-digit **entity id** ([`SmsGatewayConfig::dlt_entity_id`]).
//! 2. **Register a sender header** of six letters, e.g. `MRQPRT`, for transactional/service
//!    messages ([`SmsGatewayConfig::sender_id`]).
//! 3. **Register each message as a content template**, category "service implicit" for one-time
//!    codes, with the variable parts written `{#var#}`, e.g.
//!    `{#var#} is your Marque code. It is valid for 10 minutes. Do not share it. - Marque Parts`.
//!    The portal gives a **template id** per approved template.
//! 4. **At the gateway (MSG91)**: add the entity id and sender header to the account, create a
//!    template (a "flow") with the same text and the DLT template id, its variable named as
//!    [`SmsGatewayConfig::code_variable`] (`##otp##` → `otp`), and create an **auth key**
//!    ([`SmsGatewayConfig::auth_key`]). Use the MSG91 template id as
//!    [`SmsGatewayConfig::otp_template_id`]. MSG91 binds the entity id to the template in its
//!    dashboard, so the flow request does not carry it; it is kept in the configuration so a
//!    missing registration is caught at start-up and for a gateway that wants it per request.
//!
//! # How a notification becomes a request
//! `template` names the message: `None` or `"otp"` is the one-time-code template; any other name
//! must be listed in [`SmsGatewayConfig::templates`]. The text itself is not sent — the operator
//! sends the registered text — only its variable: the one-time code, the first run of 4–8 digits
//! in the text. The recipient is a ten-digit Indian mobile (a `+91`, `91` or `0` prefix is dropped).

use std::collections::BTreeMap;
use std::time::Duration;

use async_trait::async_trait;
use marque_ports::{Channel, Notification, Notifier, NotifyError};
use secrecy::{ExposeSecret, SecretString};
use serde::Deserialize;

/// MSG91's production address.
pub const MSG91_BASE_URL: &str = "https://control.msg91.com";

/// The gateway account and the DLT registrations. `auth_key` never appears in `Debug` output.
#[derive(Debug, Clone)]
pub struct SmsGatewayConfig {
    /// Without a trailing path, e.g. [`MSG91_BASE_URL`]; a local fake in tests.
    pub base_url: String,
    pub auth_key: SecretString,
    /// The DLT sender header (six letters, e.g. `MRQPRT`).
    pub sender_id: String,
    /// The business's DLT principal entity id.
    pub dlt_entity_id: String,
    /// The gateway's id of the approved one-time-code template.
    pub otp_template_id: String,
    /// The template's variable that carries the code (`otp` for a template written `##otp##`).
    pub code_variable: String,
    /// Further templates by the name a notification gives (`order-shipped` → gateway template id).
    pub templates: BTreeMap<String, String>,
    pub timeout: Duration,
}

impl SmsGatewayConfig {
    /// MSG91 in production, the code in the variable `otp`, a 10-second timeout.
    #[must_use]
    pub fn msg91(
        auth_key: SecretString,
        sender_id: impl Into<String>,
        dlt_entity_id: impl Into<String>,
        otp_template_id: impl Into<String>,
    ) -> Self {
        Self {
            base_url: MSG91_BASE_URL.to_owned(),
            auth_key,
            sender_id: sender_id.into(),
            dlt_entity_id: dlt_entity_id.into(),
            otp_template_id: otp_template_id.into(),
            code_variable: "otp".to_owned(),
            templates: BTreeMap::new(),
            timeout: Duration::from_secs(10),
        }
    }
}

/// A configuration the notifier cannot be built from.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SmsConfigError {
    #[error("the gateway address `{0}` is not an http(s) URL")]
    BaseUrl(String),
    #[error("`{0}` must not be empty")]
    Missing(&'static str),
    #[error("the HTTP client cannot be built: {0}")]
    Client(String),
}

/// Sends [`Channel::Sms`] notifications through MSG91's flow API.
pub struct SmsGatewayNotifier {
    flow_url: String,
    config: SmsGatewayConfig,
    http: reqwest::Client,
}

impl std::fmt::Debug for SmsGatewayNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmsGatewayNotifier")
            .field("flow_url", &self.flow_url)
            .field("sender_id", &self.config.sender_id)
            .finish_non_exhaustive()
    }
}

impl SmsGatewayNotifier {
    /// Builds the notifier; nothing is sent until the first message.
    ///
    /// # Errors
    /// [`SmsConfigError`] for a base URL that is not http(s), an empty key, sender, entity id,
    /// template id or variable name.
    pub fn new(config: SmsGatewayConfig) -> Result<Self, SmsConfigError> {
        let base = config.base_url.trim_end_matches('/');
        match reqwest::Url::parse(base) {
            Ok(url) if matches!(url.scheme(), "http" | "https") => {}
            _ => return Err(SmsConfigError::BaseUrl(config.base_url.clone())),
        }
        for (name, value) in [
            ("auth_key", config.auth_key.expose_secret()),
            ("sender_id", config.sender_id.as_str()),
            ("dlt_entity_id", config.dlt_entity_id.as_str()),
            ("otp_template_id", config.otp_template_id.as_str()),
            ("code_variable", config.code_variable.as_str()),
        ] {
            if value.trim().is_empty() {
                return Err(SmsConfigError::Missing(name));
            }
        }
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| SmsConfigError::Client(e.to_string()))?;
        Ok(Self { flow_url: format!("{base}/api/v5/flow"), config, http })
    }

    fn template_id(&self, template: Option<&str>) -> Result<&str, NotifyError> {
        match template {
            None | Some("otp") => Ok(&self.config.otp_template_id),
            Some(name) => {
                self.config.templates.get(name).map(String::as_str).ok_or_else(|| NotifyError::Refused {
                    reason: format!("no DLT template is configured for `{name}`"),
                })
            }
        }
    }
}

/// A ten-digit Indian mobile (first digit 6–9), with any `+91`, `91` or `0` prefix, spaces or
/// dashes dropped.
fn indian_mobile(recipient: &str) -> Option<String> {
    let digits: String = recipient.chars().filter(|c| !matches!(c, ' ' | '-' | '+')).collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let ten = match digits.len() {
        10 => digits.as_str(),
        11 => digits.strip_prefix('0')?,
        12 => digits.strip_prefix("91")?,
        _ => return None,
    };
    ten.starts_with(['6', '7', '8', '9']).then(|| ten.to_owned())
}

/// The first run of 4–8 digits: the one-time code in the text.
fn code_in(text: &str) -> Option<&str> {
    text.split(|c: char| !c.is_ascii_digit()).find(|run| (4..=8).contains(&run.len()))
}

/// MSG91 answers `{"type": "success" | "error", "message": "…"}`.
#[derive(Debug, Deserialize)]
struct GatewayAnswer {
    #[serde(rename = "type")]
    kind: Option<String>,
    message: Option<serde_json::Value>,
}

fn gateway_says(body: &str) -> String {
    match serde_json::from_str::<GatewayAnswer>(body) {
        Ok(GatewayAnswer { message: Some(serde_json::Value::String(m)), .. }) => m,
        Ok(GatewayAnswer { message: Some(m), .. }) => m.to_string(),
        _ => body.chars().take(200).collect(),
    }
}

#[async_trait]
impl Notifier for SmsGatewayNotifier {
    async fn send(&self, notification: &Notification) -> Result<(), NotifyError> {
        if notification.channel != Channel::Sms {
            return Err(NotifyError::Refused {
                reason: format!("the SMS gateway sends SMS only, not {:?}", notification.channel),
            });
        }
        let mobile = indian_mobile(&notification.recipient).ok_or_else(|| NotifyError::Refused {
            reason: format!("`{}` is not an Indian mobile number", notification.recipient),
        })?;
        let template_id = self.template_id(notification.template.as_deref())?;
        let code = code_in(&notification.text).ok_or_else(|| NotifyError::Refused {
            reason: "the text holds no code for the template's variable".to_owned(),
        })?;

        let mut recipient = serde_json::Map::new();
        recipient.insert("mobiles".to_owned(), format!("91{mobile}").into());
        recipient.insert(self.config.code_variable.clone(), code.into());
        let body = serde_json::json!({
            "template_id": template_id,
            "sender": self.config.sender_id,
            "recipients": [recipient],
        });

        let response = self
            .http
            .post(&self.flow_url)
            .header("authkey", self.config.auth_key.expose_secret())
            .header(reqwest::header::ACCEPT, "application/json")
            .json(&body)
            .send()
            .await
            .map_err(|e| {
                let why = if e.is_timeout() {
                    "did not answer in time"
                } else if e.is_connect() {
                    "cannot be reached"
                } else {
                    "failed"
                };
                tracing::warn!(error = %e, "SMS gateway {why}");
                NotifyError::Unavailable { reason: format!("the SMS gateway {why}") }
            })?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|e| NotifyError::Unavailable { reason: format!("the SMS gateway's answer was cut off: {e}") })?;
        let outcome = if status.is_success() {
            match serde_json::from_str::<GatewayAnswer>(&text) {
                Ok(GatewayAnswer { kind: Some(kind), .. }) if kind == "error" => {
                    Err(NotifyError::Refused { reason: format!("the SMS gateway refused: {}", gateway_says(&text)) })
                }
                _ => Ok(()),
            }
        } else if status == reqwest::StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            Err(NotifyError::Unavailable {
                reason: format!("the SMS gateway answered {status}: {}", gateway_says(&text)),
            })
        } else {
            Err(NotifyError::Refused { reason: format!("the SMS gateway answered {status}: {}", gateway_says(&text)) })
        };
        match &outcome {
            Ok(()) => tracing::info!(template_id, "SMS handed to the gateway"),
            Err(e) => tracing::warn!(template_id, error = %e, "SMS not sent"),
        }
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indian_mobiles_are_read_with_or_without_a_prefix() {
        for given in ["9876543210", "+91 98765 43210", "919876543210", "09876543210", "98765-43210"] {
            assert_eq!(indian_mobile(given).as_deref(), Some("9876543210"), "{given}");
        }
        for refused in ["", "12345", "5876543210", "98765432101", "98765x3210", "449876543210", "asha@example.in"] {
            assert_eq!(indian_mobile(refused), None, "{refused}");
        }
    }

    #[test]
    fn the_code_is_the_first_run_of_four_to_eight_digits() {
        assert_eq!(code_in("Your Marque code is 482913. It is valid for 10 minutes."), Some("482913"));
        assert_eq!(code_in("482913 is your code"), Some("482913"));
        assert_eq!(code_in("valid for 10 minutes, code 1234"), Some("1234"));
        assert_eq!(code_in("no code here, 10 minutes"), None);
    }

    #[test]
    fn the_auth_key_never_prints() {
        let config =
            SmsGatewayConfig::msg91(SecretString::from("msg91-secret-key"), "MRQPRT", "1201160000000000001", "tmpl");
        assert!(!format!("{config:?}").contains("msg91-secret-key"));
        let notifier = SmsGatewayNotifier::new(config).expect("a valid config");
        assert!(!format!("{notifier:?}").contains("msg91-secret-key"));
    }

    #[test]
    fn a_bad_configuration_is_reported() {
        let good = SmsGatewayConfig::msg91(SecretString::from("k"), "MRQPRT", "1201160000000000001", "tmpl");
        let mut ftp = good.clone();
        ftp.base_url = "ftp://gateway".to_owned();
        assert!(matches!(SmsGatewayNotifier::new(ftp), Err(SmsConfigError::BaseUrl(_))));
        let mut no_sender = good.clone();
        no_sender.sender_id = " ".to_owned();
        assert_eq!(SmsGatewayNotifier::new(no_sender).err(), Some(SmsConfigError::Missing("sender_id")));
        let mut no_entity = good;
        no_entity.dlt_entity_id = String::new();
        assert_eq!(SmsGatewayNotifier::new(no_entity).err(), Some(SmsConfigError::Missing("dlt_entity_id")));
    }
}
