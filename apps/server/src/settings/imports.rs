//! Catalog imports: the test-only allowlist of hosts the photograph fetcher may reach whatever
//! their addresses (issue 23).

use super::flags::{Environment, Flags};
use super::SettingsError;

/// What the catalog import's photograph worker may fetch.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportSettings {
    /// Tests only (`MARQUE_TEST_PHOTO_HOSTS`, comma-separated; refused in `prod`): hosts whose
    /// photographs are fetched whatever their addresses (127.0.0.1), and over plain `http`.
    pub test_photo_hosts: Vec<String>,
}

impl ImportSettings {
    /// # Errors
    /// When `MARQUE_TEST_PHOTO_HOSTS` names a host in `prod`.
    pub fn parse(flags: &Flags) -> Result<Self, SettingsError> {
        let hosts: Vec<String> = flags
            .test_photo_hosts
            .split(',')
            .map(|h| h.trim().to_ascii_lowercase())
            .filter(|h| !h.is_empty())
            .collect();
        if !hosts.is_empty() && flags.env == Environment::Prod {
            return Err(SettingsError::invalid(
                "MARQUE_TEST_PHOTO_HOSTS",
                "hosts that photographs may be fetched from past the address guard are for tests only: unset it in prod"
                    .to_owned(),
            ));
        }
        Ok(Self { test_photo_hosts: hosts })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_photo_hosts_are_read_and_refused_in_prod() {
        let mut flags = Flags::for_tests(std::env::temp_dir());
        assert_eq!(ImportSettings::parse(&flags), Ok(ImportSettings::default()));
        flags.test_photo_hosts = " 127.0.0.1, ,Localhost ".to_owned();
        assert_eq!(
            ImportSettings::parse(&flags).map(|s| s.test_photo_hosts),
            Ok(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        );
        flags.env = Environment::Prod;
        let refused = ImportSettings::parse(&flags).expect_err("refused in prod");
        assert_eq!(refused.variables(), ["MARQUE_TEST_PHOTO_HOSTS"], "{refused}");
    }
}
