//! The back office's staff: the first owner (`MARQUE_OWNER_EMAIL`) and the key that seals staff
//! members' authenticator secrets (`MARQUE_STAFF_SEAL_KEY`).

use clap::Args;
use marque_app::admin::staff::SealKey;
use secrecy::{ExposeSecret as _, SecretString};

use super::flags::{given, text};
use super::SettingsError;

/// The staff flags.
#[derive(Debug, Clone, Default, Args)]
pub struct StaffFlags {
    /// The first owner of the back office: with no owner in the database, the server creates this
    /// one at start-up and prints a one-time set-up link (24 hours) to its standard output.
    #[arg(long, env = "MARQUE_OWNER_EMAIL")]
    pub owner_email: Option<String>,
    /// The key that seals staff members' authenticator secrets: 64 hexadecimal digits
    /// (`openssl rand -hex 32`). `dev` has a fixed development key; `prod` refuses to start without it.
    #[arg(long, env = "MARQUE_STAFF_SEAL_KEY", hide_env_values = true, value_parser = seal_key_text)]
    pub staff_seal_key: Option<SecretString>,
}

fn seal_key_text(raw: &str) -> Result<SecretString, std::convert::Infallible> {
    Ok(SecretString::from(raw))
}

/// Which key seals authenticator secrets.
#[derive(Debug, Clone)]
pub enum SealKeySetting {
    /// `MARQUE_STAFF_SEAL_KEY` unset: the published development key (`prod` refuses it).
    Development,
    Configured(SealKey),
}

impl SealKeySetting {
    #[must_use]
    pub fn key(&self) -> SealKey {
        match self {
            Self::Development => SealKey::dev(),
            Self::Configured(key) => key.clone(),
        }
    }
}

/// The staff settings. `Debug` shows no secret.
#[derive(Debug, Clone)]
pub struct StaffSettings {
    /// `MARQUE_OWNER_EMAIL`, trimmed; `None` when unset or blank.
    pub owner_email: Option<String>,
    pub seal_key: SealKeySetting,
}

impl StaffSettings {
    /// # Errors
    /// A seal key that is not 64 hexadecimal digits; an owner email that is not an email.
    pub fn parse(flags: &StaffFlags) -> Result<Self, Vec<SettingsError>> {
        let mut problems = Vec::new();
        let owner_email = text(flags.owner_email.as_ref());
        if let Some(email) = &owner_email {
            if marque_domain::account::Email::parse(email).is_err() {
                problems
                    .push(SettingsError::invalid("MARQUE_OWNER_EMAIL", format!("`{email}` is not an email address")));
            }
        }
        let seal_key = match given(flags.staff_seal_key.as_ref()) {
            None => SealKeySetting::Development,
            Some(key) => match SealKey::from_hex(key.expose_secret()) {
                Ok(key) => SealKeySetting::Configured(key),
                Err(why) => {
                    problems.push(SettingsError::invalid(
                        "MARQUE_STAFF_SEAL_KEY",
                        format!("MARQUE_STAFF_SEAL_KEY is {why}: use `openssl rand -hex 32`"),
                    ));
                    SealKeySetting::Development
                }
            },
        };
        if problems.is_empty() {
            Ok(Self { owner_email, seal_key })
        } else {
            Err(problems)
        }
    }
}

/// What `prod` refuses: no seal key of its own.
pub(crate) fn refusals(staff: &StaffSettings) -> Vec<SettingsError> {
    match staff.seal_key {
        SealKeySetting::Development => vec![SettingsError::refused(
            "MARQUE_STAFF_SEAL_KEY",
            "MARQUE_STAFF_SEAL_KEY is not set (the key that seals staff members' authenticator secrets; \
             use `openssl rand -hex 32`)",
        )],
        SealKeySetting::Configured(_) => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::{Environment, Flags, Settings};

    #[test]
    fn prod_needs_a_seal_key_and_dev_has_one() {
        let mut flags = Flags::prod_for_tests(std::path::Path::new("/srv/marque"));
        flags.staff.staff_seal_key = None;
        let refused = Settings::from_flags(flags.clone()).expect_err("prod without a seal key").to_string();
        assert!(refused.contains("MARQUE_STAFF_SEAL_KEY"), "{refused}");
        flags.env = Environment::Dev;
        let dev = Settings::from_flags(flags).expect("dev");
        assert!(matches!(dev.staff.seal_key, SealKeySetting::Development));
    }

    #[test]
    fn a_seal_key_is_sixty_four_hex_digits_and_never_printed() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.staff.staff_seal_key = Some("abcd".into());
        let refused = StaffSettings::parse(&flags.staff).expect_err("too short");
        assert_eq!(refused[0].variables(), ["MARQUE_STAFF_SEAL_KEY"]);
        assert!(!format!("{refused:?}").contains("abcd"), "the key is not in the message");
        let key = "0f".repeat(32);
        flags.staff.staff_seal_key = Some(key.as_str().into());
        let parsed = StaffSettings::parse(&flags.staff).expect("64 hex digits");
        assert!(matches!(parsed.seal_key, SealKeySetting::Configured(_)));
        assert!(!format!("{parsed:?}").contains(&key), "Debug shows no key");
    }

    #[test]
    fn the_owner_email_is_an_email() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.staff.owner_email = Some("  owner@marque.test ".into());
        assert_eq!(
            StaffSettings::parse(&flags.staff).expect("parsed").owner_email.as_deref(),
            Some("owner@marque.test")
        );
        flags.staff.owner_email = Some("not an email".into());
        assert_eq!(StaffSettings::parse(&flags.staff).expect_err("refused")[0].variables(), ["MARQUE_OWNER_EMAIL"]);
        flags.staff.owner_email = Some("   ".into());
        assert_eq!(StaffSettings::parse(&flags.staff).expect("blank is unset").owner_email, None);
    }
}
