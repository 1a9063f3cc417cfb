//! The server's settings: the raw flags and `MARQUE_*` variables ([`Flags`], read by clap) parsed
//! once, at start, into [`Settings`], whose every part is a type that holds only a usable value.
//! Every problem is collected and reported together ([`SettingsErrors`]); with `MARQUE_ENV=prod`,
//! [`prod::prod_refusals`] adds what production does not run with.

pub mod blobs;
pub mod catalog;
pub mod database;
mod error;
pub mod flags;
pub mod identity;
pub mod imports;
pub mod limits;
pub mod notifications;
pub mod orders;
pub mod payments;
pub mod prod;
pub mod sign_in;
pub mod staff;
pub mod storefront;
#[cfg(any(test, feature = "test-hooks"))]
pub mod testing;

use std::path::PathBuf;

use secrecy::SecretString;

pub use error::{SettingsError, SettingsErrors};
pub use flags::{BlobsMode, DbAuth, Environment, Flags, NotifyMode, SmtpSecurityMode};

use error::Problems;

/// Everything the server runs with, parsed from [`Flags`]. `Debug` shows no secret.
#[derive(Debug, Clone)]
pub struct Settings {
    /// `dev` or `prod`.
    pub env: Environment,
    /// The address to listen on (`MARQUE_ADDR`).
    pub addr: String,
    /// The data directory (`MARQUE_DATA_DIR`): the embedded database, pictures, backups.
    pub data_dir: PathBuf,
    pub database: database::DatabaseSettings,
    pub blobs: blobs::Blobs,
    pub payments: payments::Payments,
    pub notifications: notifications::Notifications,
    pub sign_in: sign_in::SignIn,
    /// The one-time codes and the sign-ups' shop-wide message budget.
    pub codes: sign_in::OneTimeCodes,
    /// The shop's identity: names, GSTIN, contacts.
    pub identity: identity::IdentitySettings,
    /// The shop's `https://` origin (`MARQUE_PUBLIC_URL`), without a trailing `/`; `None`: each
    /// request's host.
    pub public_url: Option<storefront::PublicUrl>,
    pub storefront: storefront::StorefrontSettings,
    /// The `x-client-validation` value authorized calls carry; `None`: not required.
    pub client_validation: Option<SecretString>,
    pub catalog: catalog::CatalogCache,
    pub limits: limits::Limits,
    pub orders: orders::Orders,
    /// Products in the demo catalog (`MARQUE_SEED_PRODUCTS`).
    pub seed_products: u32,
    /// Where `GET /metrics` is served (`MARQUE_METRICS`).
    pub metrics: crate::metrics::MetricsAt,
    /// The back office's first owner and the key that seals authenticator secrets.
    pub staff: staff::StaffSettings,
    /// Catalog imports: the photograph fetcher's test-only allowlist.
    pub imports: imports::ImportSettings,
}

impl Settings {
    /// Parses every flag, collecting every problem; with `MARQUE_ENV=prod` also every refusal of
    /// [`prod::prod_refusals`].
    ///
    /// # Errors
    /// Every problem found, each naming its variable.
    pub fn from_flags(flags: Flags) -> Result<Self, SettingsErrors> {
        let env = flags.env;
        let mut problems = Problems::default();
        let identity = problems.take(identity::IdentitySettings::parse(&flags));
        let payments = problems.take(payments::Payments::parse(&flags.payment, env).map_err(|e| vec![e]));
        let notifications =
            problems.take(notifications::Notifications::parse(flags.notify, &flags.gateways, env).map_err(|e| vec![e]));
        let sign_in = problems.take(sign_in::SignIn::parse(&flags, env).map_err(|e| vec![e]));
        let blobs = problems.take(blobs::Blobs::parse(&flags).map_err(|e| vec![e]));
        let storefront = problems.take(storefront::StorefrontSettings::parse(&flags));
        let limits = problems.take(limits::Limits::parse(&flags.limits, flags.rate_limits).map_err(|e| vec![e]));
        let catalog = problems.take(catalog::CatalogCache::parse(&flags).map_err(|e| vec![e]));
        let metrics = problems.take(
            crate::metrics::MetricsAt::parse(&flags.metrics)
                .map_err(|e| vec![SettingsError::invalid("MARQUE_METRICS", e)]),
        );
        let staff = problems.take(staff::StaffSettings::parse(&flags.staff));
        let imports = imports::ImportSettings::parse(&flags).unwrap_or_else(|e| {
            problems.0.push(e);
            imports::ImportSettings::default()
        });
        let codes = sign_in::OneTimeCodes::parse(&flags);
        let database = database::DatabaseSettings::parse(&flags);
        let public_url = storefront::PublicUrl::parse(flags.public_url.as_ref());
        let client_validation = flags::given(flags.client_validation.as_ref());
        if env == Environment::Prod {
            problems.0.extend(prod::refusals(&prod::Parts {
                codes: &codes,
                public_url: public_url.as_ref(),
                client_validation: client_validation.as_ref(),
                database: &database,
                payments: payments.as_ref(),
                notifications: notifications.as_ref(),
                sign_in: sign_in.as_ref(),
            }));
            problems.0.extend(staff.as_ref().map(staff::refusals).unwrap_or_default());
        }
        let (
            Some(identity),
            Some(payments),
            Some(notifications),
            Some(sign_in),
            Some(blobs),
            Some(storefront),
            Some(limits),
            Some(catalog),
            Some(metrics),
            Some(staff),
        ) = (identity, payments, notifications, sign_in, blobs, storefront, limits, catalog, metrics, staff)
        else {
            return Err(SettingsErrors { env, errors: problems.0 });
        };
        if !problems.0.is_empty() {
            return Err(SettingsErrors { env, errors: problems.0 });
        }
        Ok(Self {
            env,
            addr: flags.addr,
            data_dir: flags.data_dir,
            database,
            blobs,
            payments,
            notifications,
            sign_in,
            codes,
            identity,
            public_url,
            storefront,
            client_validation,
            catalog,
            limits,
            orders: orders::Orders::parse(&flags.orders),
            seed_products: flags.seed_products,
            metrics,
            staff,
            imports,
        })
    }
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory as _, Parser};

    use super::*;

    #[test]
    fn several_bad_settings_are_reported_together() {
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.remotes = "catalog".into();
        flags.limits.trusted_proxies = "proxy.internal".into();
        flags.identity.gstin = Some("27AAPFU0939F1ZW".into());
        flags.google_client_id = Some("client-1".into());
        flags.blobs = BlobsMode::S3;
        flags.csp_extra_origins = "cdn.example".into();
        let errors = Settings::from_flags(flags).expect_err("six problems").errors;
        let named: Vec<&str> = errors.iter().flat_map(SettingsError::variables).collect();
        for variable in [
            "MARQUE_REMOTES",
            "MARQUE_TRUSTED_PROXIES",
            "MARQUE_SHOP_GSTIN",
            "MARQUE_GOOGLE_CLIENT_SECRET",
            "MARQUE_S3_BUCKET",
            "MARQUE_CSP_EXTRA_ORIGINS",
        ] {
            assert!(named.contains(&variable), "{variable} in {errors:?}");
        }
        let text = SettingsErrors { env: Environment::Dev, errors }.to_string();
        assert!(text.lines().count() >= 7, "a line each: {text}");
    }

    #[test]
    fn debug_never_shows_a_secret() {
        let mut flags = Flags::prod_for_tests(std::path::Path::new("/srv/marque"));
        flags.db = Some("ws://db.internal:8000".into());
        flags.db_user = Some("marque".into());
        flags.db_pass = Some("hunter2-db-pass".into());
        flags.secret = Some("otp-key-42-0123456789abcdef-0123456789".into());
        flags.client_validation = Some("client-77-validation".into());
        flags.payment.razorpay_key_secret = Some("rzp-key-s3cret".into());
        flags.payment.razorpay_webhook_secret = Some("rzp-hook-s3cret".into());
        flags.gateways.smtp_user = Some("mailer".into());
        flags.gateways.smtp_pass = Some("smtp-pass-s3cret".into());
        flags.gateways.sms_auth_key = Some("sms-auth-s3cret".into());
        flags.google_client_id = Some("google-client".into());
        flags.google_client_secret = Some("google-s3cret".into());
        flags.blobs = BlobsMode::S3;
        flags.s3.s3_bucket = Some("marque-pictures".into());
        flags.s3.s3_region = Some("ap-south-1".into());
        flags.s3.s3_access_key_id = Some("AKIA1".into());
        flags.s3.s3_secret_access_key = Some("s3-access-s3cret".into());
        let secrets = [
            "hunter2-db-pass",
            "otp-key-42",
            "client-77-validation",
            "rzp-key-s3cret",
            "rzp-hook-s3cret",
            "smtp-pass-s3cret",
            "sms-auth-s3cret",
            "google-s3cret",
            "s3-access-s3cret",
        ];
        let printed = format!("{flags:?}");
        for secret in secrets {
            assert!(!printed.contains(secret), "{secret} in the flags' Debug");
        }
        let settings = Settings::from_flags(flags).expect("fit for production");
        let printed = format!("{settings:?} {settings:#?}");
        for secret in secrets {
            assert!(!printed.contains(secret), "{secret} in the settings' Debug: {printed}");
        }
        assert!(printed.contains("marque-pictures") && printed.contains("rzp_live_1"), "the rest is shown: {printed}");
    }

    /// The command line as `main` builds it (the flags flattened into a command).
    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        flags: Flags,
    }

    #[test]
    fn the_remotes_example_in_help_is_accepted() {
        let command = Cli::command();
        let remotes = command.get_arguments().find(|a| a.get_id() == "remotes").expect("the --remotes flag");
        let help = remotes.get_help().expect("help text").to_string();
        let example = help
            .split("e.g. `")
            .nth(1)
            .and_then(|rest| rest.split('`').next())
            .unwrap_or_else(|| panic!("an example in {help}"));
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.remotes = example.to_owned();
        let settings = Settings::from_flags(flags).unwrap_or_else(|e| panic!("{example}: {e}"));
        assert_eq!(settings.storefront.remotes.len(), 1, "{example}");
    }

    /// Run in a child process of this test binary (`MARQUE_TEST_EXPECT_READY_MB` set), where
    /// clap reads the environment the parent gave it.
    #[test]
    fn ready_product_answers_are_sized_by_the_new_name_or_the_old_one() {
        if let Ok(expected) = std::env::var("MARQUE_TEST_EXPECT_READY_MB") {
            let cli = Cli::try_parse_from(["marque-server"]).expect("parses");
            let catalog = catalog::CatalogCache::parse(&cli.flags).expect("valid");
            assert_eq!(catalog.ready_product_answers_mb.to_string(), expected);
            return;
        }
        let me = std::env::current_exe().expect("this test binary");
        let cases: [(&[(&str, &str)], &str); 4] = [
            (&[], "96"),
            (&[("MARQUE_READY_PRODUCT_ANSWERS_MB", "12")], "12"),
            (&[("MARQUE_PRODUCT_PAGES_MB", "13")], "13"),
            (&[("MARQUE_READY_PRODUCT_ANSWERS_MB", "14"), ("MARQUE_PRODUCT_PAGES_MB", "14")], "14"),
        ];
        for (vars, expected) in cases {
            let mut child = std::process::Command::new(&me);
            child
                .args([
                    "--exact",
                    "settings::tests::ready_product_answers_are_sized_by_the_new_name_or_the_old_one",
                    "--test-threads=1",
                ])
                .env_remove("MARQUE_READY_PRODUCT_ANSWERS_MB")
                .env_remove("MARQUE_PRODUCT_PAGES_MB")
                .env("MARQUE_TEST_EXPECT_READY_MB", expected);
            for (name, value) in vars {
                child.env(name, value);
            }
            let out = child.output().expect("the child runs");
            let printed = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success() && printed.contains("1 passed"), "{vars:?}: {printed}");
        }
        let mut flags = Flags::for_tests(PathBuf::from("web"));
        flags.ready_product_answers_mb = Some(12);
        flags.product_pages_mb = Some(13);
        let refused = catalog::CatalogCache::parse(&flags).expect_err("two sizes");
        assert!(refused.to_string().contains("MARQUE_PRODUCT_PAGES_MB"), "{refused}");
    }
}
