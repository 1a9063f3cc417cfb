//! Signing in: Google (or its `dev` stand-in), and the one-time codes sent by SMS and email.

use secrecy::{ExposeSecret as _, SecretString};

use super::flags::{text, Environment, Flags};
use super::SettingsError;

/// The third-party sign-in.
#[derive(Debug, Clone)]
pub enum SignIn {
    /// Google (OpenID Connect) with this OAuth client (`Debug` shows no secret).
    Google {
        client_id: String,
        client_secret: SecretString,
        /// The issuer, when not Google's.
        issuer: Option<String>,
    },
    /// The local stand-in page (`/api/dev/signin`), `dev` without Google's keys.
    DevStandIn,
    /// None: `prod` without Google's keys.
    Off,
}

impl SignIn {
    /// Google when its client id and secret are set, else the stand-in in `dev`, else none.
    ///
    /// # Errors
    /// When only one of the client id and secret is set.
    pub fn parse(flags: &Flags, env: Environment) -> Result<Self, SettingsError> {
        let id = text(flags.google_client_id.as_ref());
        let secret =
            flags.google_client_secret.as_ref().map(|s| s.expose_secret().trim().to_owned()).filter(|v| !v.is_empty());
        match (id, secret) {
            (Some(client_id), Some(secret)) => {
                Ok(Self::Google { client_id, client_secret: secret.into(), issuer: text(flags.google_issuer.as_ref()) })
            }
            (None, None) if env == Environment::Dev => Ok(Self::DevStandIn),
            (None, None) => Ok(Self::Off),
            (id, _) => Err(SettingsError::invalid(
                if id.is_some() { "MARQUE_GOOGLE_CLIENT_SECRET" } else { "MARQUE_GOOGLE_CLIENT_ID" },
                "MARQUE_GOOGLE_CLIENT_ID and MARQUE_GOOGLE_CLIENT_SECRET must be set together",
            )),
        }
    }
}

/// The shortest `MARQUE_SECRET` `prod` accepts (it keys the one-time code hashes).
pub const MIN_SECRET_CHARS: usize = 32;

/// The one-time code key used in `dev` when `MARQUE_SECRET` is not set.
pub const DEV_SECRET: &str = "marque-dev-secret-not-for-production";

/// The key of one-time code hashes (HMAC-SHA256).
#[derive(Debug, Clone)]
pub enum OtpKey {
    /// `MARQUE_SECRET` unset: the published development key ([`DEV_SECRET`]; `prod` refuses it).
    Development,
    /// `MARQUE_SECRET`, exactly as given (never blank).
    Configured(SecretString),
}

impl OtpKey {
    /// The key's text.
    #[must_use]
    pub fn expose(&self) -> &str {
        match self {
            Self::Development => DEV_SECRET,
            Self::Configured(key) => key.expose_secret(),
        }
    }
}

/// The one-time codes, and what all sign-ups together may send.
#[derive(Debug, Clone)]
pub struct OneTimeCodes {
    pub key: OtpKey,
    /// How long a code lives, in seconds (at least 1).
    pub valid_seconds: u32,
    /// Messages all sign-ups together may send in an hour.
    pub signup_messages_per_hour: u32,
}

impl OneTimeCodes {
    #[must_use]
    pub fn parse(flags: &Flags) -> Self {
        Self {
            key: super::flags::given(flags.secret.as_ref()).map_or(OtpKey::Development, OtpKey::Configured),
            valid_seconds: flags.otp_valid_seconds.max(1),
            signup_messages_per_hour: flags.signup_messages_per_hour,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::Settings;

    #[test]
    fn prod_needs_a_secret_and_dev_has_one() {
        let mut flags = Flags::prod_for_tests(std::path::Path::new("/srv/marque"));
        flags.env = Environment::Dev;
        flags.secret = None;
        assert_eq!(Settings::from_flags(flags.clone()).expect("dev").codes.key.expose(), DEV_SECRET);
        flags.env = Environment::Prod;
        assert!(Settings::from_flags(flags.clone()).expect_err("refused").to_string().contains("MARQUE_SECRET"));
        flags.env = Environment::Dev;
        flags.secret = Some("k".into());
        assert_eq!(Settings::from_flags(flags).expect("dev").codes.key.expose(), "k");
    }

    #[test]
    fn google_needs_its_id_and_secret_together() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        assert!(matches!(SignIn::parse(&flags, Environment::Dev), Ok(SignIn::DevStandIn)));
        assert!(matches!(SignIn::parse(&flags, Environment::Prod), Ok(SignIn::Off)));
        flags.google_client_id = Some("client-1".into());
        let refused = SignIn::parse(&flags, Environment::Dev).expect_err("no secret");
        assert_eq!(refused.variables(), ["MARQUE_GOOGLE_CLIENT_SECRET"]);
        flags.google_client_secret = Some("s3cret".into());
        assert!(matches!(SignIn::parse(&flags, Environment::Prod), Ok(SignIn::Google { .. })));
    }
}
