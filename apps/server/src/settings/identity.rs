//! The shop's identity as invoices, policies and the footer state it: in `dev` a missing value
//! takes its demo default, in `prod` every value but the chat number must be set.

use marque_domain::account::Email;
use marque_domain::tax::{GstState, Gstin};

use super::flags::{Environment, Flags};
use super::SettingsError;

/// Who runs the shop, every value checked: a GSTIN registered in the shop's state, email
/// addresses that are ones, a chat number with its country code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentitySettings {
    /// The trading name (`MARQUE_SHOP_NAME`), never blank.
    pub name: String,
    pub legal_name: String,
    /// The registered office, one line.
    pub address: String,
    pub gstin: Gstin,
    /// The state or union territory the GSTIN is registered in.
    pub state: GstState,
    pub support_email: Email,
    pub support_phone: String,
    pub enquiry_phone: String,
    /// WhatsApp number, digits with the country code; `None`: no chat link.
    pub chat_number: Option<String>,
    pub grievance_name: String,
    pub grievance_email: Email,
    pub grievance_phone: String,
}

/// Demo values for `dev`: a believable shop in New Delhi (GSTIN with a valid check character).
mod demo {
    pub const LEGAL_NAME: &str = "Marque Parts Private Limited";
    pub const ADDRESS: &str = "Plot 14, Okhla Industrial Estate Phase III, New Delhi, Delhi 110020";
    pub const GSTIN: &str = "07AAKCM4821R1ZU";
    pub const STATE: &str = "Delhi";
    pub const SUPPORT_EMAIL: &str = "support@marqueparts.in";
    pub const SUPPORT_PHONE: &str = "+91 11 4055 8200";
    pub const ENQUIRY_PHONE: &str = "+91 98100 42424";
    pub const CHAT_NUMBER: &str = "919810042424";
    pub const GRIEVANCE_NAME: &str = "Anita Sharma";
    pub const GRIEVANCE_EMAIL: &str = "grievance@marqueparts.in";
    pub const GRIEVANCE_PHONE: &str = "+91 11 4055 8201";
}

impl IdentitySettings {
    /// The identity the flags describe.
    ///
    /// # Errors
    /// In `prod`, one problem naming every missing variable; in any environment, each invalid value.
    pub fn parse(flags: &Flags) -> Result<Self, Vec<SettingsError>> {
        let c = &flags.identity;
        let dev = flags.env == Environment::Dev;
        let mut missing = Vec::new();
        let mut take = |value: &Option<String>, var: &'static str, demo: &str| -> String {
            match value.as_deref().map(str::trim) {
                Some(v) if !v.is_empty() => v.to_owned(),
                _ if dev => demo.to_owned(),
                _ => {
                    missing.push((var, false));
                    String::new()
                }
            }
        };
        let legal_name = take(&c.legal_name, "MARQUE_SHOP_LEGAL_NAME", demo::LEGAL_NAME);
        let address = take(&c.address, "MARQUE_SHOP_ADDRESS", demo::ADDRESS);
        let gstin = take(&c.gstin, "MARQUE_SHOP_GSTIN", demo::GSTIN);
        let state = take(&c.state, "MARQUE_SHOP_STATE", demo::STATE);
        let support_email = take(&c.support_email, "MARQUE_SUPPORT_EMAIL", demo::SUPPORT_EMAIL);
        let support_phone = take(&c.support_phone, "MARQUE_SUPPORT_PHONE", demo::SUPPORT_PHONE);
        let enquiry_phone = take(&c.enquiry_phone, "MARQUE_ENQUIRY_PHONE", demo::ENQUIRY_PHONE);
        let grievance_name = take(&c.grievance_name, "MARQUE_GRIEVANCE_NAME", demo::GRIEVANCE_NAME);
        let grievance_email = take(&c.grievance_email, "MARQUE_GRIEVANCE_EMAIL", demo::GRIEVANCE_EMAIL);
        let grievance_phone = take(&c.grievance_phone, "MARQUE_GRIEVANCE_PHONE", demo::GRIEVANCE_PHONE);
        if let Some(missing) =
            SettingsError::missing("MARQUE_ENV=prod needs the shop's identity configured; missing: ", &missing)
        {
            return Err(vec![missing]);
        }
        let mut errors = Vec::new();
        let chat_number = match c.chat_number.as_deref() {
            // Set but blank: the shop has no chat link, in any environment.
            Some(v) => chat_number(v).map_err(|e| errors.push(e)).ok().flatten(),
            None if dev => Some(demo::CHAT_NUMBER.to_owned()),
            None => None,
        };
        let name = flags.shop_name.trim().to_owned();
        if name.is_empty() {
            errors.push(SettingsError::invalid("MARQUE_SHOP_NAME", "MARQUE_SHOP_NAME must not be empty"));
        }
        let state = GstState::by_name(&state)
            .ok_or_else(|| {
                SettingsError::invalid(
                    "MARQUE_SHOP_STATE",
                    format!("MARQUE_SHOP_STATE: `{state}` is not an Indian state or union territory (e.g. `Delhi`)"),
                )
            })
            .map_err(|e| errors.push(e))
            .ok();
        let gstin = Gstin::parse(&gstin)
            .map_err(|e| {
                errors.push(SettingsError::invalid("MARQUE_SHOP_GSTIN", format!("MARQUE_SHOP_GSTIN: `{gstin}`: {e}")))
            })
            .ok();
        if let (Some(gstin), Some(state)) = (&gstin, &state) {
            if gstin.state_code() != state.code {
                errors.push(SettingsError::invalid(
                    "MARQUE_SHOP_GSTIN",
                    format!(
                        "MARQUE_SHOP_GSTIN {gstin} is registered in state code {}, but MARQUE_SHOP_STATE is {} ({})",
                        gstin.state_code(),
                        state.name,
                        state.code
                    ),
                ));
            }
        }
        let mut email = |raw: &str, var: &'static str| {
            Email::parse(raw)
                .map_err(|_| {
                    errors.push(SettingsError::invalid(var, format!("{var}: `{raw}` is not an email address")))
                })
                .ok()
        };
        let support_email = email(&support_email, "MARQUE_SUPPORT_EMAIL");
        let grievance_email = email(&grievance_email, "MARQUE_GRIEVANCE_EMAIL");
        let (Some(state), Some(gstin), Some(support_email), Some(grievance_email), true) =
            (state, gstin, support_email, grievance_email, errors.is_empty())
        else {
            return Err(errors);
        };
        Ok(Self {
            name,
            legal_name,
            address,
            gstin,
            state,
            support_email,
            support_phone,
            enquiry_phone,
            chat_number,
            grievance_name,
            grievance_email,
            grievance_phone,
        })
    }
}

/// `+91 98100 42424` → `919810042424`; blank → no chat link.
fn chat_number(raw: &str) -> Result<Option<String>, SettingsError> {
    let digits: String = raw.chars().filter(|c| !matches!(c, ' ' | '-' | '+')).collect();
    if digits.is_empty() {
        return Ok(None);
    }
    if !(11..=15).contains(&digits.len()) || !digits.chars().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
        return Err(SettingsError::invalid(
            "MARQUE_CHAT_NUMBER",
            format!("MARQUE_CHAT_NUMBER: `{raw}` is not a phone number with its country code (e.g. 919810042424)"),
        ));
    }
    Ok(Some(digits))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::settings::flags::IdentityFlags;

    fn flags(env: Environment) -> Flags {
        let mut c = Flags::for_tests(PathBuf::from("web"));
        c.env = env;
        c
    }

    fn full() -> IdentityFlags {
        let s = |v: &str| Some(v.to_owned());
        IdentityFlags {
            legal_name: s("Spares Mumbai LLP"),
            address: s("4 Lamington Road, Mumbai 400007"),
            gstin: s("27AAPFU0939F1ZV"),
            state: s("maharashtra"),
            support_email: s("Help@Spares.in"),
            support_phone: s("+91 22 4000 1000"),
            enquiry_phone: s("+91 22 4000 1001"),
            chat_number: None,
            grievance_name: s("R. Iyer"),
            grievance_email: s("grievance@spares.in"),
            grievance_phone: s("+91 22 4000 1002"),
        }
    }

    fn refused(c: &Flags) -> String {
        let errors = IdentitySettings::parse(c).expect_err("refused");
        errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    }

    #[test]
    fn prod_names_every_missing_value_but_the_chat_number() {
        let err = refused(&flags(Environment::Prod));
        for var in [
            "MARQUE_SHOP_LEGAL_NAME",
            "MARQUE_SHOP_ADDRESS",
            "MARQUE_SHOP_GSTIN",
            "MARQUE_SHOP_STATE",
            "MARQUE_SUPPORT_EMAIL",
            "MARQUE_SUPPORT_PHONE",
            "MARQUE_ENQUIRY_PHONE",
            "MARQUE_GRIEVANCE_NAME",
            "MARQUE_GRIEVANCE_EMAIL",
            "MARQUE_GRIEVANCE_PHONE",
        ] {
            assert!(err.contains(var), "{var} in {err}");
        }
        assert!(!err.contains("MARQUE_CHAT_NUMBER"));

        let mut c = flags(Environment::Prod);
        c.identity = full();
        let id = IdentitySettings::parse(&c).expect("fully configured");
        assert_eq!((id.state.name, id.state.code), ("Maharashtra", "27"));
        assert_eq!(id.support_email.as_str(), "help@spares.in");
        assert_eq!(id.chat_number, None, "no chat link unless configured");
    }

    #[test]
    fn invalid_values_are_refused_in_any_environment() {
        let mut c = flags(Environment::Dev);
        c.identity = full();
        c.identity.gstin = Some("27AAPFU0939F1ZW".into());
        assert!(refused(&c).contains("MARQUE_SHOP_GSTIN"));
        c.identity = full();
        c.identity.state = Some("Delhi".into());
        assert!(refused(&c).contains("state code 27"));
        c.identity = full();
        c.identity.chat_number = Some("98100".into());
        assert!(refused(&c).contains("MARQUE_CHAT_NUMBER"));
        c.identity.chat_number = Some("+91 98100 42424".into());
        assert_eq!(IdentitySettings::parse(&c).map(|i| i.chat_number), Ok(Some("919810042424".into())));
        c.identity.chat_number = Some(" ".into());
        assert_eq!(IdentitySettings::parse(&c).map(|i| i.chat_number), Ok(None), "blank turns chat off");
    }

    #[test]
    fn every_invalid_value_is_named_at_once() {
        let mut c = flags(Environment::Dev);
        c.identity = full();
        c.identity.state = Some("Atlantis".into());
        c.identity.support_email = Some("help-at-spares".into());
        c.identity.chat_number = Some("98100".into());
        c.shop_name = " ".into();
        let vars: Vec<&str> =
            IdentitySettings::parse(&c).expect_err("refused").iter().flat_map(SettingsError::variables).collect();
        assert_eq!(vars, ["MARQUE_CHAT_NUMBER", "MARQUE_SHOP_NAME", "MARQUE_SHOP_STATE", "MARQUE_SUPPORT_EMAIL"]);
    }
}
