//! Per-client limits (behind trusted proxies), connection deadlines and the catalog's budget of
//! cache misses.

use std::time::Duration;

use marque_app::{Rule, ThrottleRules};

use super::flags::LimitsFlags;
use super::SettingsError;
use marque_api::clients::TrustedProxies;

/// The limits, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: TrustedProxies,
    /// Email logins and code checks one client may make in a minute (at least 1).
    pub login_attempts_per_minute: u32,
    /// The throttle's rules: the shop's rules on customers' writes with the per-client ones
    /// (sign-ups, code requests, sign-ins started) written in.
    pub rules: ThrottleRules,
    /// A whole request head, and an idle kept-alive connection (each at least 1 ms).
    pub head_timeout: Duration,
    pub idle_timeout: Duration,
    /// A whole request body (at least 1 ms; 408 past it).
    pub body_timeout: Duration,
    /// Searches and listings past the answer cache one client may have answered in a minute.
    pub catalog_misses_per_minute: u32,
    /// How long such a search or listing may take (0 refuses every one).
    pub catalog_deadline: Duration,
}

impl Limits {
    /// The limits of `flags` over the shop's `rules` on customers' writes.
    ///
    /// # Errors
    /// The first `MARQUE_TRUSTED_PROXIES` entry that is not an address or a CIDR.
    pub fn parse(flags: &LimitsFlags, mut rules: ThrottleRules) -> Result<Self, SettingsError> {
        let trusted_proxies = TrustedProxies::parse(&flags.trusted_proxies)
            .map_err(|e| SettingsError::invalid("MARQUE_TRUSTED_PROXIES", e))?;
        rules.sign_up = Rule::per_hour(flags.signups_per_hour.max(1));
        rules.mobile_login = Rule::per_hour(flags.code_requests_per_hour.max(1));
        rules.resend = Rule::per_hour(flags.code_requests_per_hour.max(1));
        rules.sign_in_start = Rule::per_hour(flags.sign_ins_per_hour.max(1));
        rules.grievance = Rule::per_hour(flags.grievances_per_hour.max(1));
        Ok(Self {
            trusted_proxies,
            login_attempts_per_minute: flags.login_attempts_per_minute.max(1),
            rules,
            head_timeout: Duration::from_millis(flags.head_timeout_ms.max(1)),
            idle_timeout: Duration::from_millis(flags.idle_timeout_ms.max(1)),
            body_timeout: Duration::from_millis(flags.body_timeout_ms.max(1)),
            catalog_misses_per_minute: flags.catalog_misses_per_minute,
            catalog_deadline: Duration::from_millis(flags.catalog_deadline_ms),
        })
    }

    /// The connection deadlines.
    #[must_use]
    pub fn timeouts(&self) -> crate::listener::Timeouts {
        crate::listener::Timeouts { head: self.head_timeout, idle: self.idle_timeout }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_client_rules_are_written_into_the_throttles_and_nothing_is_zero() {
        let flags = LimitsFlags {
            signups_per_hour: 0,
            code_requests_per_hour: 7,
            grievances_per_hour: 3,
            head_timeout_ms: 0,
            ..LimitsFlags::default()
        };
        let limits = Limits::parse(&flags, ThrottleRules::default()).expect("valid");
        assert_eq!((limits.rules.sign_up, limits.rules.resend), (Rule::per_hour(1), Rule::per_hour(7)));
        assert_eq!(limits.rules.grievance, Rule::per_hour(3));
        assert_eq!(limits.timeouts().head, Duration::from_millis(1));
        let flags = LimitsFlags { trusted_proxies: "10.0.0.0/33".into(), ..LimitsFlags::default() };
        assert_eq!(
            Limits::parse(&flags, ThrottleRules::default()).expect_err("no such CIDR").variables(),
            ["MARQUE_TRUSTED_PROXIES"]
        );
    }
}
