//! The settings of the per-client limits (who a client is: `marque_api::clients`).

use std::time::Duration;

use clap::Args;
use marque_api::clients::TrustedProxies;
use marque_app::{Rule, ThrottleRules};

/// The per-client limits, the connection deadlines and the catalog's budget of cache misses.
#[derive(Debug, Clone, Args)]
pub struct LimitsConfig {
    /// Proxies whose `X-Forwarded-For` is believed: CIDRs or addresses, separated by commas
    /// (e.g. `10.0.0.0/8,fd00::/8`). None by default: the socket's peer is the client.
    #[arg(long, env = "MARQUE_TRUSTED_PROXIES", default_value = "")]
    pub trusted_proxies: String,

    /// Most email logins, and apart from them most code checks (`/api/verify`), from one client in a minute.
    #[arg(long, env = "MARQUE_LOGIN_ATTEMPTS_PER_MINUTE", default_value_t = 10)]
    pub login_attempts_per_minute: u32,

    /// Most sign-ups (`POST /api/register`) from one client in an hour.
    #[arg(long, env = "MARQUE_SIGNUPS_PER_HOUR", default_value_t = 60)]
    pub signups_per_hour: u32,

    /// Most mobile logins, and apart from them most code resends, from one client in an hour.
    #[arg(long, env = "MARQUE_CODE_REQUESTS_PER_HOUR", default_value_t = 120)]
    pub code_requests_per_hour: u32,

    /// Most Google sign-ins started (`GET /api/google`) from one client in an hour.
    #[arg(long, env = "MARQUE_SIGN_INS_PER_HOUR", default_value_t = 240)]
    pub sign_ins_per_hour: u32,

    /// Milliseconds a connection has to send a whole request head (from its opening, or from
    /// the first byte of the next request on a kept-alive connection) before it is closed.
    #[arg(long, env = "MARQUE_HEAD_TIMEOUT_MS", default_value_t = 10_000)]
    pub head_timeout_ms: u64,

    /// Milliseconds a request has to send its whole body (408 past it).
    #[arg(long, env = "MARQUE_BODY_TIMEOUT_MS", default_value_t = 30_000)]
    pub body_timeout_ms: u64,

    /// Milliseconds a kept-alive connection may wait for its next request before it is closed.
    #[arg(long, env = "MARQUE_IDLE_TIMEOUT_MS", default_value_t = 60_000)]
    pub idle_timeout_ms: u64,

    /// Most catalog searches and listings one client may have answered past the answer cache
    /// (each a database query) in a minute; past it 429 with `Retry-After`. Counted by each instance.
    #[arg(long, env = "MARQUE_CATALOG_MISSES_PER_MINUTE", default_value_t = 120)]
    pub catalog_misses_per_minute: u32,

    /// Milliseconds a search or listing past the answer cache may take before it answers 503.
    #[arg(long, env = "MARQUE_CATALOG_DEADLINE_MS", default_value_t = 3_000)]
    pub catalog_deadline_ms: u64,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        Self {
            trusted_proxies: String::new(),
            login_attempts_per_minute: 10,
            signups_per_hour: 60,
            code_requests_per_hour: 120,
            sign_ins_per_hour: 240,
            head_timeout_ms: 10_000,
            body_timeout_ms: 30_000,
            idle_timeout_ms: 60_000,
            catalog_misses_per_minute: 120,
            catalog_deadline_ms: 3_000,
        }
    }
}

impl LimitsConfig {
    /// The limits the black-box tests run with: every test is one client (127.0.0.1) that signs
    /// up and searches far more than a person, so the per-client numbers are high, but set.
    #[must_use]
    pub fn for_tests() -> Self {
        Self {
            login_attempts_per_minute: 10,
            signups_per_hour: 10_000,
            code_requests_per_hour: 10_000,
            sign_ins_per_hour: 10_000,
            catalog_misses_per_minute: 100_000,
            ..Self::default()
        }
    }

    /// The per-client rules written into the throttle's.
    pub fn apply(&self, rules: &mut ThrottleRules) {
        rules.sign_up = Rule::per_hour(self.signups_per_hour.max(1));
        rules.mobile_login = Rule::per_hour(self.code_requests_per_hour.max(1));
        rules.resend = Rule::per_hour(self.code_requests_per_hour.max(1));
        rules.sign_in_start = Rule::per_hour(self.sign_ins_per_hour.max(1));
    }

    /// The connection deadlines.
    #[must_use]
    pub fn timeouts(&self) -> crate::listener::Timeouts {
        crate::listener::Timeouts {
            head: Duration::from_millis(self.head_timeout_ms.max(1)),
            idle: Duration::from_millis(self.idle_timeout_ms.max(1)),
        }
    }

    /// The trusted proxies.
    ///
    /// # Errors
    /// The first entry that is not an address or a CIDR.
    pub fn proxies(&self) -> Result<TrustedProxies, String> {
        TrustedProxies::parse(&self.trusted_proxies)
    }
}
