//! Which notifier sends customers' messages, chosen by `MARQUE_NOTIFY`: wiring only.

use std::sync::Arc;

use anyhow::Context as _;
use marque_ports::{Channel, Notification, Notifier, NotifyError};
use marque_sms::{SmsGatewayConfig, SmsGatewayNotifier};
use marque_smtp::{SmtpConfig, SmtpNotifier, SmtpSecurity};

use crate::settings::notifications::Gateways;
use crate::settings::SmtpSecurityMode;

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

/// Email by SMTP and SMS by the SMS gateway, from settings already checked by
/// [`crate::settings::notifications::Notifications::parse`]. Must run inside a Tokio runtime.
///
/// # Errors
/// When an adapter refuses its settings (a malformed sender, a half-given login, a bad URL).
pub fn gateways(g: &Gateways) -> anyhow::Result<ChannelRouter> {
    let mut smtp = SmtpConfig::new(g.smtp_host.clone(), g.smtp_from.clone());
    smtp.security = match g.smtp_security {
        SmtpSecurityMode::Plain => SmtpSecurity::Plain,
        SmtpSecurityMode::Starttls => SmtpSecurity::StartTls,
        SmtpSecurityMode::Tls => SmtpSecurity::Tls,
    };
    smtp.port = g.smtp_port;
    smtp.username = g.smtp_user.clone();
    smtp.password = g.smtp_pass.clone();
    let email = SmtpNotifier::new(smtp).context("MARQUE_SMTP_*: the SMTP settings")?;
    let mut sms = SmsGatewayConfig::msg91(
        g.sms_auth_key.clone(),
        g.sms_sender.clone(),
        g.sms_dlt_entity_id.clone(),
        g.sms_otp_template_id.clone(),
    );
    if let Some(id) = &g.sms_order_template_id {
        sms.templates.insert(marque_app::ORDER_PLACED_SMS_TEMPLATE.to_owned(), id.clone());
    }
    if let Some(id) = &g.sms_refund_template_id {
        sms.templates.insert(marque_app::PAYMENT_REFUNDED_SMS_TEMPLATE.to_owned(), id.clone());
    }
    for (kind, id) in &g.sms_notice_templates {
        sms.templates.insert(kind.template().to_owned(), id.clone());
    }
    if let Some(url) = &g.sms_base_url {
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
        Notification {
            channel,
            recipient: to.into(),
            subject: "s".into(),
            text: "t".into(),
            template: None,
            attachments: Vec::new(),
        }
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
        let flags = crate::settings::flags::GatewayFlags {
            smtp_host: s("127.0.0.1"),
            smtp_security: Some(SmtpSecurityMode::Plain),
            smtp_from: s("Marque Parts <no-reply@marqueparts.in>"),
            sms_base_url: s("http://127.0.0.1:9"),
            sms_auth_key: Some("key".into()),
            sms_sender: s("MRQPRT"),
            sms_dlt_entity_id: s("1201159000000000001"),
            sms_otp_template_id: s("tmpl-otp"),
            ..crate::settings::flags::GatewayFlags::default()
        };
        let parsed =
            crate::settings::notifications::Notifications::parse(None, &flags, crate::settings::Environment::Prod);
        let Ok(crate::settings::notifications::Notifications::Gateways(g)) = parsed else {
            panic!("gateways: {parsed:?}")
        };
        gateways(&g).expect("builds");
    }
}
