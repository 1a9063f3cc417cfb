//! What is wrong with the flags and environment: one typed error per problem, all of them at once.

use super::Environment;

/// One problem with the settings, naming the variable(s) to set or change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    /// Settings a choice needs are not set, e.g. `MARQUE_BLOBS=s3 needs MARQUE_S3_REGION`.
    #[error("{context}{}", .variables.join(", "))]
    Missing {
        /// What needs them, ending where the list begins (`MARQUE_BLOBS=s3 needs `).
        context: &'static str,
        variables: Vec<&'static str>,
    },
    /// A value that does not parse, or does not agree with another.
    #[error("{message}")]
    Invalid { variable: &'static str, message: String },
    /// A value that parses but that `MARQUE_ENV=prod` does not run with.
    #[error("{message}")]
    ProdRefuses { variable: &'static str, message: String },
}

impl SettingsError {
    pub(crate) fn invalid(variable: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid { variable, message: message.into() }
    }

    pub(crate) fn refused(variable: &'static str, message: impl Into<String>) -> Self {
        Self::ProdRefuses { variable, message: message.into() }
    }

    /// `Missing` for those of `required` whose flag is `false` (not set); `None` when all are set.
    pub(crate) fn missing(context: &'static str, required: &[(&'static str, bool)]) -> Option<Self> {
        let variables: Vec<&'static str> = required.iter().filter(|(_, set)| !set).map(|(name, _)| *name).collect();
        (!variables.is_empty()).then_some(Self::Missing { context, variables })
    }

    /// The variables this problem is about.
    #[must_use]
    pub fn variables(&self) -> Vec<&'static str> {
        match self {
            Self::Missing { variables, .. } => variables.clone(),
            Self::Invalid { variable, .. } | Self::ProdRefuses { variable, .. } => vec![variable],
        }
    }
}

/// Every problem found in the settings, printed one a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettingsErrors {
    pub env: Environment,
    pub errors: Vec<SettingsError>,
}

impl std::fmt::Display for SettingsErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.env {
            Environment::Prod => f.write_str("MARQUE_ENV=prod refuses to start:")?,
            Environment::Dev => f.write_str("the settings are not usable:")?,
        }
        for error in &self.errors {
            write!(f, "\n  - {error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SettingsErrors {}

/// Collects the problems of each section while the settings are parsed.
#[derive(Debug, Default)]
pub(crate) struct Problems(pub(crate) Vec<SettingsError>);

impl Problems {
    /// The section's value, or `None` with its problems kept.
    pub(crate) fn take<T>(&mut self, parsed: Result<T, Vec<SettingsError>>) -> Option<T> {
        parsed.map_err(|errors| self.0.extend(errors)).ok()
    }
}
