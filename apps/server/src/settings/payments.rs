//! Card payments: Razorpay's keys, or the local sandbox.

use secrecy::{ExposeSecret as _, SecretString};

use super::flags::{text, Environment, PaymentFlags};
use super::SettingsError;

/// Which payment adapter the shop uses.
#[derive(Debug, Clone)]
pub enum Payments {
    /// Razorpay's HTTP API with these settings.
    Razorpay(Razorpay),
    /// The in-process sandbox (`dev` only: `prod` refuses it).
    Sandbox,
}

/// Razorpay's keys and addresses (`Debug` shows no secret).
#[derive(Debug, Clone)]
pub struct Razorpay {
    pub key_id: String,
    pub key_secret: SecretString,
    pub webhook_secret: SecretString,
    /// Razorpay's API, when not its own (`https://api.razorpay.com`).
    pub api_url: Option<String>,
    /// The checkout script, when not Razorpay's.
    pub script_url: Option<String>,
}

/// The three settings Razorpay needs.
pub(crate) const RAZORPAY_KEYS: [&str; 3] =
    ["MARQUE_RAZORPAY_KEY_ID", "MARQUE_RAZORPAY_KEY_SECRET", "MARQUE_RAZORPAY_WEBHOOK_SECRET"];

/// Why `prod` needs Razorpay's keys.
pub(crate) const PROD_NEEDS_RAZORPAY: &str =
    "MARQUE_ENV=prod takes payments through Razorpay only (the sandbox is for dev): set ";

impl Payments {
    /// Razorpay when its three keys are set, the sandbox when none is (`prod` refuses it).
    ///
    /// # Errors
    /// Some of the three keys set but not all (each missing one named).
    pub fn parse(p: &PaymentFlags, env: Environment) -> Result<Self, SettingsError> {
        let secret =
            |v: Option<&SecretString>| v.map(|v| v.expose_secret().trim().to_owned()).filter(|v| !v.is_empty());
        let (key_id, key_secret, webhook_secret) = (
            text(p.razorpay_key_id.as_ref()),
            secret(p.razorpay_key_secret.as_ref()),
            secret(p.razorpay_webhook_secret.as_ref()),
        );
        match (key_id, key_secret, webhook_secret) {
            (None, None, None) => Ok(Self::Sandbox),
            (Some(key_id), Some(key_secret), Some(webhook_secret)) => Ok(Self::Razorpay(Razorpay {
                key_id,
                key_secret: key_secret.into(),
                webhook_secret: webhook_secret.into(),
                api_url: text(p.razorpay_api_url.as_ref()),
                script_url: text(p.razorpay_script_url.as_ref()),
            })),
            (key_id, key_secret, webhook_secret) => {
                let context = match env {
                    Environment::Prod => PROD_NEEDS_RAZORPAY,
                    Environment::Dev => "Razorpay needs its key id and both secrets: set ",
                };
                let required = [
                    (RAZORPAY_KEYS[0], key_id.is_some()),
                    (RAZORPAY_KEYS[1], key_secret.is_some()),
                    (RAZORPAY_KEYS[2], webhook_secret.is_some()),
                ];
                Err(SettingsError::missing(context, &required).expect("one is missing"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::{Flags, Settings};

    #[test]
    fn payments_go_to_the_sandbox_only_in_dev() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        assert!(matches!(Settings::from_flags(flags.clone()).map(|s| s.payments), Ok(Payments::Sandbox)));
        flags.env = Environment::Prod;
        let refused = Settings::from_flags(flags.clone()).expect_err("prod without keys").to_string();
        assert!(
            refused.contains("MARQUE_RAZORPAY_KEY_ID")
                && refused.contains("MARQUE_RAZORPAY_KEY_SECRET")
                && refused.contains("MARQUE_RAZORPAY_WEBHOOK_SECRET"),
            "{refused}"
        );
        flags.payment.razorpay_key_id = Some("rzp_live_1".into());
        flags.payment.razorpay_key_secret = Some("s3cret-key".into());
        let refused = Payments::parse(&flags.payment, flags.env).expect_err("no webhook secret").to_string();
        assert!(refused.contains("MARQUE_RAZORPAY_WEBHOOK_SECRET") && !refused.contains("KEY_ID"), "{refused}");
        flags.payment.razorpay_webhook_secret = Some("hook-s3cret".into());
        let mode = Payments::parse(&flags.payment, flags.env).expect("all three set");
        assert!(matches!(mode, Payments::Razorpay(_)));
        assert!(!format!("{flags:?} {mode:?}").contains("s3cret"), "secrets stay out of Debug");
    }
}
