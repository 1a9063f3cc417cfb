//! What `MARQUE_ENV=prod` refuses in settings that parse: development adapters, published or
//! weak secrets, a missing or plain public address, a database that forgets, a database server's
//! `root`.

use secrecy::{ExposeSecret as _, SecretString};

use super::database::DatabaseSettings;
use super::flags::{DbAuth, Environment};
use super::notifications::Notifications;
use super::payments::{Payments, PROD_NEEDS_RAZORPAY, RAZORPAY_KEYS};
use super::sign_in::{OneTimeCodes, OtpKey, SignIn, DEV_SECRET, MIN_SECRET_CHARS};
use super::storefront::PublicUrl;
use super::{Settings, SettingsError};

/// Secrets that are published in this repository (the `dev` defaults and the payment sandbox's),
/// refused in `prod` wherever a secret is configured.
const PUBLISHED_SECRETS: &[&str] = &[DEV_SECRET, "marque-sandbox-webhook-secret", "marque-sandbox-key-secret"];

/// Everything `MARQUE_ENV=prod` refuses in these settings, each naming the variable to set or
/// change; empty in `dev` and for settings fit for production.
#[must_use]
pub fn prod_refusals(settings: &Settings) -> Vec<SettingsError> {
    if settings.env != Environment::Prod {
        return Vec::new();
    }
    refusals(&Parts {
        codes: &settings.codes,
        public_url: settings.public_url.as_ref(),
        client_validation: settings.client_validation.as_ref(),
        database: &settings.database,
        payments: Some(&settings.payments),
        notifications: Some(&settings.notifications),
        sign_in: Some(&settings.sign_in),
    })
}

/// The parts of the settings the refusals look at; `None` for a part that did not parse (its
/// own problems are reported instead), so that every refusal is reported with them.
pub(crate) struct Parts<'a> {
    pub codes: &'a OneTimeCodes,
    pub public_url: Option<&'a PublicUrl>,
    pub client_validation: Option<&'a SecretString>,
    pub database: &'a DatabaseSettings,
    pub payments: Option<&'a Payments>,
    pub notifications: Option<&'a Notifications>,
    pub sign_in: Option<&'a SignIn>,
}

pub(crate) fn refusals(s: &Parts<'_>) -> Vec<SettingsError> {
    let mut refusals = Vec::new();
    if let Some(Payments::Sandbox) = s.payments {
        refusals.push(SettingsError::Missing { context: PROD_NEEDS_RAZORPAY, variables: RAZORPAY_KEYS.to_vec() });
    }
    if let Some(Notifications::Outbox) = s.notifications {
        refusals.push(SettingsError::refused(
            "MARQUE_NOTIFY",
            "MARQUE_ENV=prod refuses MARQUE_NOTIFY=outbox: messages must reach customers",
        ));
    }
    match &s.codes.key {
        OtpKey::Development => refusals.push(SettingsError::refused("MARQUE_SECRET", "MARQUE_SECRET is not set (the key of one-time code hashes)")),
        OtpKey::Configured(key) if PUBLISHED_SECRETS.contains(&key.expose_secret().trim()) => {
            refusals.push(SettingsError::refused("MARQUE_SECRET", "MARQUE_SECRET is the published development key: set a random one"));
        }
        OtpKey::Configured(key) if key.expose_secret().trim().chars().count() < MIN_SECRET_CHARS => refusals.push(SettingsError::refused(
            "MARQUE_SECRET",
            format!("MARQUE_SECRET is shorter than {MIN_SECRET_CHARS} characters: set a long random key (openssl rand -hex 32)"),
        )),
        OtpKey::Configured(_) => {}
    }
    match s.public_url {
        None => refusals.push(SettingsError::refused(
            "MARQUE_PUBLIC_URL",
            "MARQUE_PUBLIC_URL is not set (the shop's https:// address for links in emails, the sitemap, canonical \
             links and Google sign-in; without it they would follow each request's Host header)",
        )),
        Some(u) if !u.as_str().starts_with("https://") => refusals.push(SettingsError::refused(
            "MARQUE_PUBLIC_URL",
            format!("MARQUE_PUBLIC_URL `{}` is not https:// (the shop is served over HTTPS in prod)", u.as_str()),
        )),
        Some(_) => {}
    }
    let (razorpay, gateways, google) = (
        match s.payments {
            Some(Payments::Razorpay(r)) => Some(r),
            _ => None,
        },
        match s.notifications {
            Some(Notifications::Gateways(g)) => Some(g),
            _ => None,
        },
        match s.sign_in {
            Some(SignIn::Google { client_secret, .. }) => Some(client_secret),
            _ => None,
        },
    );
    for (name, secret) in [
        ("MARQUE_RAZORPAY_KEY_SECRET", razorpay.map(|r| &r.key_secret)),
        ("MARQUE_RAZORPAY_WEBHOOK_SECRET", razorpay.map(|r| &r.webhook_secret)),
        ("MARQUE_CLIENT_VALIDATION", s.client_validation),
        ("MARQUE_DB_PASS", s.database.password.as_ref()),
        ("MARQUE_SMTP_PASS", gateways.and_then(|g| g.smtp_pass.as_ref())),
        ("MARQUE_SMS_AUTH_KEY", gateways.map(|g| &g.sms_auth_key)),
        ("MARQUE_GOOGLE_CLIENT_SECRET", google),
    ] {
        if secret.is_some_and(|s| PUBLISHED_SECRETS.contains(&s.expose_secret().trim())) {
            refusals.push(SettingsError::refused(
                name,
                format!("{name} is a published development secret: set the real one"),
            ));
        }
    }
    if s.client_validation.is_none() {
        refusals.push(SettingsError::refused(
            "MARQUE_CLIENT_VALIDATION",
            "MARQUE_CLIENT_VALIDATION is not set (the x-client-validation value authorized calls carry)",
        ));
    }
    let db = s.database;
    if db.url.is_memory() {
        refusals.push(SettingsError::refused(
            "MARQUE_DB",
            "MARQUE_DB is mem://: the catalog, the customers and their orders would be lost at every restart",
        ));
    }
    if db.url.is_server() {
        match db.user.as_deref() {
            None => refusals.push(SettingsError::refused(
                "MARQUE_DB_USER",
                "MARQUE_DB_USER is not set: a database server needs the shop's own user",
            )),
            Some(u) if u.eq_ignore_ascii_case("root") => refusals.push(SettingsError::refused(
                "MARQUE_DB_USER",
                "MARQUE_DB_USER is `root`: give the shop a user of its own on the database server",
            )),
            Some(_) => {}
        }
        if db.password.is_none() {
            refusals.push(SettingsError::refused(
                "MARQUE_DB_PASS",
                "MARQUE_DB_PASS is not set: the database server's user needs a password",
            ));
        }
        if db.auth == DbAuth::Root {
            refusals.push(SettingsError::refused(
                "MARQUE_DB_AUTH",
                "MARQUE_DB_AUTH is `root`: sign in as a user of the shop's database (MARQUE_DB_AUTH=database)",
            ));
        }
    }
    refusals
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::{Flags, NotifyMode};

    /// `prod` flags with nothing to refuse.
    fn ready() -> Flags {
        Flags::prod_for_tests(std::path::Path::new("/srv/marque"))
    }

    fn all_problems(c: &Flags) -> Vec<String> {
        match Settings::from_flags(c.clone()) {
            Ok(settings) => prod_refusals(&settings).iter().map(ToString::to_string).collect(),
            Err(e) => e.errors.iter().map(ToString::to_string).collect(),
        }
    }

    fn refused_for(c: &Flags, needle: &str) {
        let all = all_problems(c);
        assert!(all.iter().any(|r| r.contains(needle)), "{needle} in {all:?}");
    }

    #[test]
    fn a_complete_configuration_passes_and_dev_refuses_nothing() {
        let settings = Settings::from_flags(ready()).expect("fit for production");
        assert_eq!(prod_refusals(&settings), Vec::new());
        let dev = Settings::from_flags(Flags::for_tests(PathBuf::from("web"))).expect("dev");
        assert!(prod_refusals(&dev).is_empty());
    }

    #[test]
    fn every_refusal_is_collected_and_printed_together() {
        let mut c = Flags::for_tests(PathBuf::from("web"));
        c.env = Environment::Prod;
        let err = Settings::from_flags(c).expect_err("nothing configured").to_string();
        for name in [
            "MARQUE_SHOP_LEGAL_NAME",
            "MARQUE_RAZORPAY_KEY_ID",
            "MARQUE_SMTP_HOST",
            "MARQUE_SECRET",
            "MARQUE_CLIENT_VALIDATION",
        ] {
            assert!(err.contains(name), "{name} in {err}");
        }
        assert!(err.starts_with("MARQUE_ENV=prod refuses to start:\n  - "), "{err}");
        assert!(err.lines().count() >= 6, "one line each: {err}");
    }

    #[test]
    fn dev_only_adapters_are_refused() {
        let mut c = ready();
        c.notify = Some(NotifyMode::Outbox);
        refused_for(&c, "outbox");
        let mut c = ready();
        c.payment = crate::settings::flags::PaymentFlags::default();
        refused_for(&c, "MARQUE_RAZORPAY_KEY_ID");
    }

    #[test]
    fn default_secrets_are_refused() {
        let mut c = ready();
        c.secret = Some(DEV_SECRET.into());
        refused_for(&c, "published development key");
        c.secret = None;
        refused_for(&c, "MARQUE_SECRET is not set");
        let mut c = ready();
        c.payment.razorpay_webhook_secret = Some("marque-sandbox-webhook-secret".into());
        refused_for(&c, "MARQUE_RAZORPAY_WEBHOOK_SECRET is a published");
    }

    #[test]
    fn a_short_secret_a_missing_or_plain_public_address_and_a_memory_database_are_refused() {
        let mut c = ready();
        c.secret = Some("prod-secret".into());
        refused_for(&c, "MARQUE_SECRET is shorter than 32 characters");
        let mut c = ready();
        c.public_url = None;
        refused_for(&c, "MARQUE_PUBLIC_URL is not set");
        c.public_url = Some("http://www.marqueparts.in".into());
        refused_for(&c, "is not https://");
        let mut c = ready();
        c.db = Some("mem://".into());
        refused_for(&c, "MARQUE_DB is mem://");
    }

    #[test]
    fn the_client_validation_value_is_required() {
        let mut c = ready();
        c.client_validation = Some("  ".into());
        refused_for(&c, "MARQUE_CLIENT_VALIDATION is not set");
    }

    #[test]
    fn a_database_server_needs_a_user_of_the_shops_own() {
        let mut c = ready();
        c.db = Some("ws://db.internal:8000".into());
        refused_for(&c, "MARQUE_DB_USER is not set");
        refused_for(&c, "MARQUE_DB_PASS is not set");
        c.db_user = Some("root".into());
        c.db_pass = Some("pw".into());
        refused_for(&c, "MARQUE_DB_USER is `root`");
        c.db_user = Some("marque".into());
        assert!(all_problems(&c).is_empty(), "{:?}", all_problems(&c));
        c.db_auth = DbAuth::Root;
        refused_for(&c, "MARQUE_DB_AUTH is `root`");
        c.db_auth = DbAuth::Namespace;
        assert!(all_problems(&c).is_empty(), "{:?}", all_problems(&c));
    }

    #[test]
    fn refusals_come_with_the_problems_of_parts_that_do_not_parse() {
        let mut c = ready();
        c.db = Some("mem://".into());
        c.identity.gstin = None;
        c.gateways.smtp_host = None;
        let err = Settings::from_flags(c).expect_err("refused").to_string();
        for needle in ["MARQUE_SHOP_GSTIN", "MARQUE_SMTP_HOST", "MARQUE_DB is mem://"] {
            assert!(err.contains(needle), "{needle} in {err}");
        }
    }
}
