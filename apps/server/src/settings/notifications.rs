//! How customers' messages are sent: the outbox, or the SMTP relay and the SMS gateway.

use std::collections::BTreeMap;

use marque_domain::order::NoticeKind;
use secrecy::{ExposeSecret as _, SecretString};

use super::flags::{text, Environment, GatewayFlags, NotifyMode, SmtpSecurityMode};
use super::SettingsError;

/// How messages are sent.
#[derive(Debug, Clone)]
pub enum Notifications {
    /// Kept in memory and listed at `GET /api/dev/outbox` (`dev` only: `prod` refuses it).
    Outbox,
    /// Email by SMTP, SMS by the SMS gateway.
    Gateways(Box<Gateways>),
}

/// The SMTP relay and the SMS gateway, every required setting given (`Debug` shows no secret).
#[derive(Debug, Clone)]
pub struct Gateways {
    pub smtp_host: String,
    /// The port (by default 587 for starttls, 465 for tls, 25 for plain).
    pub smtp_port: u16,
    pub smtp_security: SmtpSecurityMode,
    pub smtp_user: Option<String>,
    pub smtp_pass: Option<SecretString>,
    pub smtp_from: String,
    /// The SMS gateway's address, without a trailing `/`, when not MSG91's.
    pub sms_base_url: Option<String>,
    pub sms_auth_key: SecretString,
    pub sms_sender: String,
    pub sms_dlt_entity_id: String,
    pub sms_otp_template_id: String,
    /// The approved order confirmation template; `None`: no order SMS.
    pub sms_order_template_id: Option<String>,
    /// The approved refund notice template; `None`: refunds are told by email only.
    pub sms_refund_template_id: Option<String>,
    /// The approved template of each order notice (`MARQUE_SMS_TEMPLATE_<KIND>`); a notice without
    /// one goes by email only (and the start-up log warns of it).
    pub sms_notice_templates: BTreeMap<NoticeKind, String>,
}

/// The flag of each order notice's SMS template, and its variable's name.
pub fn notice_template_flags(g: &GatewayFlags) -> [(NoticeKind, &'static str, Option<&String>); 10] {
    [
        (NoticeKind::Confirmed, "MARQUE_SMS_TEMPLATE_CONFIRMED", g.sms_template_confirmed.as_ref()),
        (NoticeKind::Shipped, "MARQUE_SMS_TEMPLATE_SHIPPED", g.sms_template_shipped.as_ref()),
        (NoticeKind::Delivered, "MARQUE_SMS_TEMPLATE_DELIVERED", g.sms_template_delivered.as_ref()),
        (NoticeKind::Cancelled, "MARQUE_SMS_TEMPLATE_CANCELLED", g.sms_template_cancelled.as_ref()),
        (NoticeKind::Refunded, "MARQUE_SMS_TEMPLATE_REFUNDED", g.sms_template_refunded.as_ref()),
        (NoticeKind::ReturnRequested, "MARQUE_SMS_TEMPLATE_RETURN_REQUESTED", g.sms_template_return_requested.as_ref()),
        (NoticeKind::ReturnApproved, "MARQUE_SMS_TEMPLATE_RETURN_APPROVED", g.sms_template_return_approved.as_ref()),
        (NoticeKind::ReturnRefused, "MARQUE_SMS_TEMPLATE_RETURN_REFUSED", g.sms_template_return_refused.as_ref()),
        (NoticeKind::ReturnReceived, "MARQUE_SMS_TEMPLATE_RETURN_RECEIVED", g.sms_template_return_received.as_ref()),
        (NoticeKind::ReturnResolved, "MARQUE_SMS_TEMPLATE_RETURN_RESOLVED", g.sms_template_return_resolved.as_ref()),
    ]
}

impl Notifications {
    /// `MARQUE_NOTIFY`, by default `outbox` in `dev` and `gateways` in `prod` (which refuses the outbox).
    ///
    /// # Errors
    /// With `gateways`, naming each required gateway setting that is missing.
    pub fn parse(mode: Option<NotifyMode>, g: &GatewayFlags, env: Environment) -> Result<Self, SettingsError> {
        let mode = mode.unwrap_or(match env {
            Environment::Dev => NotifyMode::Outbox,
            Environment::Prod => NotifyMode::Gateways,
        });
        if mode == NotifyMode::Outbox {
            return Ok(Self::Outbox);
        }
        let sms_auth_key =
            g.sms_auth_key.as_ref().map(|k| k.expose_secret().trim().to_owned()).filter(|k| !k.is_empty());
        let (host, from, sender, entity, otp) = (
            text(g.smtp_host.as_ref()),
            text(g.smtp_from.as_ref()),
            text(g.sms_sender.as_ref()),
            text(g.sms_dlt_entity_id.as_ref()),
            text(g.sms_otp_template_id.as_ref()),
        );
        let required = [
            ("MARQUE_SMTP_HOST", host.is_some()),
            ("MARQUE_SMTP_FROM", from.is_some()),
            ("MARQUE_SMS_AUTH_KEY", sms_auth_key.is_some()),
            ("MARQUE_SMS_SENDER", sender.is_some()),
            ("MARQUE_SMS_DLT_ENTITY_ID", entity.is_some()),
            ("MARQUE_SMS_OTP_TEMPLATE_ID", otp.is_some()),
        ];
        let (
            Some(smtp_host),
            Some(smtp_from),
            Some(sms_auth_key),
            Some(sms_sender),
            Some(sms_dlt_entity_id),
            Some(sms_otp_template_id),
        ) = (host, from, sms_auth_key, sender, entity, otp)
        else {
            return Err(SettingsError::missing("MARQUE_NOTIFY=gateways needs ", &required).expect("one is missing"));
        };
        let smtp_security = g.smtp_security.unwrap_or(SmtpSecurityMode::Starttls);
        let default_port = match smtp_security {
            SmtpSecurityMode::Plain => 25,
            SmtpSecurityMode::Starttls => 587,
            SmtpSecurityMode::Tls => 465,
        };
        Ok(Self::Gateways(Box::new(Gateways {
            smtp_host,
            smtp_port: g.smtp_port.unwrap_or(default_port),
            smtp_security,
            smtp_user: text(g.smtp_user.as_ref()),
            smtp_pass: g.smtp_pass.clone().filter(|p| !p.expose_secret().is_empty()),
            smtp_from,
            sms_base_url: g
                .sms_base_url
                .as_ref()
                .map(|u| u.trim().trim_end_matches('/').to_owned())
                .filter(|u| !u.is_empty()),
            sms_auth_key: sms_auth_key.into(),
            sms_sender,
            sms_dlt_entity_id,
            sms_otp_template_id,
            sms_order_template_id: text(g.sms_order_template_id.as_ref()),
            sms_refund_template_id: text(g.sms_refund_template_id.as_ref()),
            sms_notice_templates: notice_template_flags(g)
                .into_iter()
                .filter_map(|(kind, _, id)| text(id).map(|id| (kind, id)))
                .collect(),
        })))
    }

    /// The order confirmation template's id, when messages go through the gateways with one.
    #[must_use]
    pub fn order_template(&self) -> Option<&str> {
        match self {
            Self::Gateways(g) => g.sms_order_template_id.as_deref(),
            Self::Outbox => None,
        }
    }

    /// Whether order notice `kind` goes by SMS too: always with the outbox (it keeps every SMS),
    /// through the gateways only with its approved template.
    #[must_use]
    pub fn notice_sms(&self, kind: NoticeKind) -> bool {
        match self {
            Self::Gateways(g) => g.sms_notice_templates.contains_key(&kind),
            Self::Outbox => true,
        }
    }

    /// The refund notice template's id, when messages go through the gateways with one.
    #[must_use]
    pub fn refund_template(&self) -> Option<&str> {
        match self {
            Self::Gateways(g) => g.sms_refund_template_id.as_deref(),
            Self::Outbox => None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::{Flags, Settings};

    pub(crate) fn gateways() -> GatewayFlags {
        let s = |v: &str| Some(v.to_owned());
        GatewayFlags {
            smtp_host: s("smtp.example.in"),
            smtp_from: s("Marque Parts <no-reply@marqueparts.in>"),
            sms_auth_key: Some("key".into()),
            sms_sender: s("MRQPRT"),
            sms_dlt_entity_id: s("1201159000000000001"),
            sms_otp_template_id: s("tmpl-otp"),
            ..GatewayFlags::default()
        }
    }

    #[test]
    fn dev_defaults_to_the_outbox_and_prod_refuses_it() {
        let mut flags = Flags::prod_for_tests(std::path::Path::new("/srv/marque"));
        flags.env = Environment::Dev;
        flags.gateways = GatewayFlags::default();
        assert!(matches!(Settings::from_flags(flags.clone()).map(|s| s.notifications), Ok(Notifications::Outbox)));
        flags.env = Environment::Prod;
        flags.gateways = gateways();
        let settings = Settings::from_flags(flags.clone()).expect("prod defaults to the gateways");
        assert!(matches!(settings.notifications, Notifications::Gateways(_)));
        flags.notify = Some(NotifyMode::Outbox);
        assert!(Settings::from_flags(flags).expect_err("refused").to_string().contains("outbox"));
    }

    #[test]
    fn each_order_notice_goes_by_sms_only_with_its_own_template_and_always_with_the_outbox() {
        let flags = GatewayFlags {
            sms_template_shipped: Some(" 1207160000000000042 ".into()),
            sms_template_refunded: Some("1207160000000000043".into()),
            sms_template_delivered: Some("  ".into()),
            ..gateways()
        };
        let Ok(parsed @ Notifications::Gateways(_)) =
            Notifications::parse(Some(NotifyMode::Gateways), &flags, Environment::Prod)
        else {
            panic!("gateways")
        };
        let by_sms: Vec<NoticeKind> = NoticeKind::ALL.into_iter().filter(|k| parsed.notice_sms(*k)).collect();
        assert_eq!(by_sms, [NoticeKind::Shipped, NoticeKind::Refunded], "a blank id is none; prod still starts");
        let Notifications::Gateways(g) = &parsed else { unreachable!() };
        assert_eq!(g.sms_notice_templates.get(&NoticeKind::Shipped).map(String::as_str), Some("1207160000000000042"));
        let outbox = Notifications::parse(Some(NotifyMode::Outbox), &flags, Environment::Dev).expect("the outbox");
        assert!(NoticeKind::ALL.into_iter().all(|k| outbox.notice_sms(k)));
    }

    #[test]
    fn gateways_need_every_setting_and_name_the_missing_ones() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.env = Environment::Prod;
        let err =
            Notifications::parse(flags.notify, &flags.gateways, flags.env).expect_err("nothing configured").to_string();
        for name in [
            "MARQUE_SMTP_HOST",
            "MARQUE_SMTP_FROM",
            "MARQUE_SMS_AUTH_KEY",
            "MARQUE_SMS_SENDER",
            "MARQUE_SMS_DLT_ENTITY_ID",
            "MARQUE_SMS_OTP_TEMPLATE_ID",
        ] {
            assert!(err.contains(name), "{err} names {name}");
        }
        flags.gateways = gateways();
        flags.gateways.sms_sender = None;
        assert_eq!(
            Notifications::parse(flags.notify, &flags.gateways, flags.env).map_err(|e| e.to_string()).err(),
            Some("MARQUE_NOTIFY=gateways needs MARQUE_SMS_SENDER".to_owned())
        );
        flags.env = Environment::Dev;
        flags.notify = Some(NotifyMode::Gateways);
        assert!(
            Notifications::parse(flags.notify, &flags.gateways, flags.env).is_err(),
            "dev asking for the gateways needs them too"
        );
    }
}
