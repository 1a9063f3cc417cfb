//! Which notifier sends customers' messages, chosen by `MARQUE_NOTIFY`: wiring only.

use std::sync::Arc;

use anyhow::Context as _;
use marque_ports::{Channel, Notification, Notifier, NotifyError};
use marque_sms::{SmsGatewayConfig, SmsGatewayNotifier};
use marque_smtp::{SmtpConfig, SmtpNotifier, SmtpSecurity};

use crate::config::{GatewayConfig, SmtpSecurityMode};

/// Sends each message through the notifier of its channel: email to one, SMS to the other.
pub struct ChannelRouter {
    pub email: Arc<dyn Notifier>,
    pub sms: Arc<dyn Notifier>,
}

impl std::fmt::Debug for ChannelRouter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ChannelRouter")
    }
}

#[async_trait::async_trait]
impl Notifier for ChannelRouter {
    async fn send(&self, n: &Notification) -> Result<(), NotifyError> {
        match n.channel {
            Channel::Email => self.email.send(n).await,
            Channel::Sms => self.sms.send(n).await,
        }
    }
}

fn text(v: Option<&String>) -> String {
    v.map(|v| v.trim().to_owned()).unwrap_or_default()
}

/// Email by SMTP and SMS by the SMS gateway, from settings already checked by
/// [`crate::Config::notify_mode`]. Must run inside a Tokio runtime.
///
/// # Errors
/// When an adapter refuses its settings (a malformed sender, a half-given login, a bad URL).
pub fn gateways(g: &GatewayConfig) -> anyhow::Result<ChannelRouter> {
    let mut smtp = SmtpConfig::new(text(g.smtp_host.as_ref()), text(g.smtp_from.as_ref()));
    let (security, port) = match g.smtp_security.unwrap_or(SmtpSecurityMode::Starttls) {
        SmtpSecurityMode::Plain => (SmtpSecurity::Plain, 25),
        SmtpSecurityMode::Starttls => (SmtpSecurity::StartTls, 587),
        SmtpSecurityMode::Tls => (SmtpSecurity::Tls, 465),
    };
    smtp.security = security;
    smtp.port = g.smtp_port.unwrap_or(port);
    smtp.username = g.smtp_user.as_ref().map(|u| u.trim().to_owned()).filter(|u| !u.is_empty());
    smtp.password = g
        .smtp_pass
        .as_ref()
        .filter(|p| !p.expose().is_empty())
        .map(|p| secrecy::SecretString::from(p.expose().to_owned()));
    let email = SmtpNotifier::new(smtp).context("MARQUE_SMTP_*: the SMTP settings")?;
    let mut sms = SmsGatewayConfig::msg91(
        secrecy::SecretString::from(g.sms_auth_key.as_ref().map(|k| k.expose().trim().to_owned()).unwrap_or_default()),
        text(g.sms_sender.as_ref()),
        text(g.sms_dlt_entity_id.as_ref()),
        text(g.sms_otp_template_id.as_ref()),
    );
    if let Some(id) = g.order_template() {
        sms.templates.insert(marque_app::ORDER_PLACED_SMS_TEMPLATE.to_owned(), id.to_owned());
    }
    if let Some(id) = g.refund_template() {
        sms.templates.insert(marque_app::PAYMENT_REFUNDED_SMS_TEMPLATE.to_owned(), id.to_owned());
    }
    if let Some(url) = g.sms_base_url.as_ref().map(|u| u.trim().trim_end_matches('/')).filter(|u| !u.is_empty()) {
        url.clone_into(&mut sms.base_url);
    }
    let sms = SmsGatewayNotifier::new(sms).context("MARQUE_SMS_*: the SMS gateway settings")?;
    Ok(ChannelRouter { email: Arc::new(email), sms: Arc::new(sms) })
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[derive(Default)]
    struct Recorder(Mutex<Vec<String>>);

    #[async_trait::async_trait]
    impl Notifier for Recorder {
        async fn send(&self, n: &Notification) -> Result<(), NotifyError> {
            self.0.lock().expect("lock").push(n.recipient.clone());
            Ok(())
        }
    }

    fn note(channel: Channel, to: &str) -> Notification {
        Notification { channel, recipient: to.into(), subject: "s".into(), text: "t".into(), template: None, attachments: Vec::new() }
    }

    #[tokio::test]
    async fn each_channel_goes_to_its_own_notifier() {
        let email = Arc::new(Recorder::default());
        let sms = Arc::new(Recorder::default());
        let router = ChannelRouter { email: email.clone(), sms: sms.clone() };
        router.send(&note(Channel::Email, "a@b.in")).await.expect("sent");
        router.send(&note(Channel::Sms, "9876543210")).await.expect("sent");
        router.send(&note(Channel::Email, "c@d.in")).await.expect("sent");
        assert_eq!(*email.0.lock().expect("lock"), vec!["a@b.in", "c@d.in"]);
        assert_eq!(*sms.0.lock().expect("lock"), vec!["9876543210"]);
    }

    #[tokio::test]
    async fn configured_gateways_build() {
        let s = |v: &str| Some(v.to_owned());
        let g = GatewayConfig {
            smtp_host: s("127.0.0.1"),
            smtp_security: Some(SmtpSecurityMode::Plain),
            smtp_from: s("Marque Parts <no-reply@marqueparts.in>"),
            sms_base_url: s("http://127.0.0.1:9"),
            sms_auth_key: Some("key".parse().expect("infallible")),
            sms_sender: s("MRQPRT"),
            sms_dlt_entity_id: s("1201159000000000001"),
            sms_otp_template_id: s("tmpl-otp"),
            ..GatewayConfig::default()
        };
        gateways(&g).expect("builds");
    }
}
