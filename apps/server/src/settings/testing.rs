//! Flags for tests, built without reading the environment: the unit tests of the settings and
//! the server's black-box tests (through the `test-hooks` feature) start from these.

use std::path::{Path, PathBuf};

use super::flags::{
    BlobsMode, DbAuth, Environment, Flags, GatewayFlags, IdentityFlags, LimitsFlags, OrdersFlags, PaymentFlags, S3Flags,
};

impl Flags {
    /// `dev` flags for tests: an in-memory database, nothing on disk, small caches, and per-client
    /// limits high (every test is one client, 127.0.0.1, far busier than a person) but set.
    #[must_use]
    pub fn for_tests(web_dir: PathBuf) -> Self {
        Self {
            addr: "127.0.0.1:0".into(),
            data_dir: std::env::temp_dir(),
            db: Some("mem://".into()),
            blobs: BlobsMode::Local,
            s3: S3Flags::default(),
            db_user: None,
            db_pass: None,
            db_auth: DbAuth::Database,
            db_namespace: "marque".into(),
            db_database: "shop".into(),
            db_timeout_ms: 30_000,
            db_cache_mb: 16,
            catalog_index: true,
            db_memtable_mb: 64,
            env: Environment::Dev,
            web_dir,
            public_url: None,
            remotes: String::new(),
            shop_name: "Marque Parts".into(),
            shop_description: "Buy new and used spare parts for luxury cars online.".into(),
            identity: IdentityFlags::default(),
            seed_products: 120,
            sitemap_urls: 50_000,
            client_validation: None,
            payment: PaymentFlags::default(),
            staff: crate::settings::staff::StaffFlags::default(),
            orders: OrdersFlags::default(),
            google_client_id: None,
            google_client_secret: None,
            google_issuer: None,
            notify: None,
            gateways: GatewayFlags::default(),
            secret: None,
            otp_valid_seconds: marque_domain::account::OTP_VALID_SECONDS,
            signup_messages_per_hour: 2000,
            catalog_cache_mb: 16,
            ready_product_answers_mb: Some(8),
            product_pages_mb: None,
            catalog_poll_ms: 100,
            warm_up_limit_secs: 60,
            test_warm_up_delay_ms: 0,
            test_photo_hosts: String::new(),
            metrics: "off".to_owned(),
            rate_limits: marque_app::ThrottleRules::default(),
            limits: LimitsFlags {
                login_attempts_per_minute: 10,
                signups_per_hour: 10_000,
                code_requests_per_hour: 10_000,
                sign_ins_per_hour: 10_000,
                catalog_misses_per_minute: 100_000,
                ..LimitsFlags::default()
            },
            csp_extra_origins: String::new(),
        }
    }

    /// `prod` flags that start (every setting given, fake keys, an embedded database under `dir`).
    #[must_use]
    pub fn prod_for_tests(dir: &Path) -> Self {
        let secret = |v: &str| Some(v.into());
        let text = |v: &str| Some(v.to_owned());
        let mut c = Self::for_tests(PathBuf::from("/nonexistent-web-dir"));
        c.env = Environment::Prod;
        c.data_dir = dir.to_owned();
        c.db = Some(format!("surrealkv://{}", dir.join("db").display()));
        c.public_url = text("https://www.marqueparts.in");
        c.secret = secret("0123456789abcdef0123456789abcdef");
        c.staff.staff_seal_key = secret("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff");
        c.client_validation = secret("client-validation-value");
        c.payment.razorpay_key_id = text("rzp_live_1");
        c.payment.razorpay_key_secret = secret("live-key-secret");
        c.payment.razorpay_webhook_secret = secret("live-hook-secret");
        c.gateways = GatewayFlags {
            smtp_host: text("127.0.0.1"),
            smtp_from: text("Marque Parts <no-reply@marqueparts.in>"),
            sms_auth_key: secret("key"),
            sms_sender: text("MRQPRT"),
            sms_dlt_entity_id: text("1201159000000000001"),
            sms_otp_template_id: text("tmpl-otp"),
            ..GatewayFlags::default()
        };
        c.identity = IdentityFlags {
            legal_name: text("Marque Parts Private Limited"),
            address: text("Plot 14, Okhla, New Delhi 110020"),
            gstin: text("07AAKCM4821R1ZU"),
            state: text("Delhi"),
            support_email: text("support@marqueparts.in"),
            support_phone: text("+91 11 4055 8200"),
            enquiry_phone: text("+91 98100 42424"),
            chat_number: None,
            grievance_name: text("Anita Sharma"),
            grievance_email: text("grievance@marqueparts.in"),
            grievance_phone: text("+91 11 4055 8201"),
        };
        c
    }
}
