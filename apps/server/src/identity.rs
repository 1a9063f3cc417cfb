//! The shop's identity (legal name, GSTIN, contacts, grievance officer), built once from
//! configuration; the API publishes it (`marque_api::ShopIdentity`).

use marque_domain::account::Email;
use marque_domain::tax::{GstState, Gstin};
use marque_api::{GrievanceOfficer, ShopIdentity};

use crate::config::{Config, Environment, IdentityConfig};

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

/// The identity the configuration describes. In `dev` a missing value takes
/// its demo default; in `prod` every value but the chat number must be set.
///
/// # Errors
/// A message naming every missing variable (in `prod`), or the first invalid value.
pub fn from_config(config: &Config) -> Result<ShopIdentity, String> {
    let c: &IdentityConfig = &config.identity;
    let dev = config.env == Environment::Dev;
    let mut missing = Vec::new();
    let mut take = |value: &Option<String>, var: &'static str, demo: &str| -> String {
        match value.as_deref().map(str::trim) {
            Some(v) if !v.is_empty() => v.to_owned(),
            _ if dev => demo.to_owned(),
            _ => {
                missing.push(var);
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
    if !missing.is_empty() {
        return Err(format!(
            "MARQUE_ENV=prod needs the shop's identity configured; missing: {}",
            missing.join(", ")
        ));
    }
    let chat_number = match c.chat_number.as_deref() {
        // Set but blank: the shop has no chat link, in any environment.
        Some(v) => chat_number(v)?,
        None if dev => Some(demo::CHAT_NUMBER.to_owned()),
        None => None,
    };

    let name = config.shop_name.trim().to_owned();
    if name.is_empty() {
        return Err("MARQUE_SHOP_NAME must not be empty".into());
    }
    let state = GstState::by_name(&state).ok_or_else(|| {
        format!("MARQUE_SHOP_STATE: `{state}` is not an Indian state or union territory (e.g. `Delhi`)")
    })?;
    let gstin = Gstin::parse(&gstin).map_err(|e| format!("MARQUE_SHOP_GSTIN: `{gstin}`: {e}"))?;
    if gstin.state_code() != state.code {
        return Err(format!(
            "MARQUE_SHOP_GSTIN {gstin} is registered in state code {}, but MARQUE_SHOP_STATE is {} ({})",
            gstin.state_code(),
            state.name,
            state.code
        ));
    }
    let email = |raw: &str, var: &str| {
        Email::parse(raw).map(|e| e.as_str().to_owned()).map_err(|_| format!("{var}: `{raw}` is not an email address"))
    };
    Ok(ShopIdentity {
        name,
        legal_name,
        address,
        gstin: gstin.to_string(),
        state: state.name.to_owned(),
        state_code: state.code.to_owned(),
        support_email: email(&support_email, "MARQUE_SUPPORT_EMAIL")?,
        support_phone,
        enquiry_phone,
        chat_number,
        grievance_officer: GrievanceOfficer {
            name: grievance_name,
            email: email(&grievance_email, "MARQUE_GRIEVANCE_EMAIL")?,
            phone: grievance_phone,
        },
        payment: None,
        sign_in: None,
    })
}

/// `+91 98100 42424` → `919810042424`; blank → no chat link.
fn chat_number(raw: &str) -> Result<Option<String>, String> {
    let digits: String = raw.chars().filter(|c| !matches!(c, ' ' | '-' | '+')).collect();
    if digits.is_empty() {
        return Ok(None);
    }
    if !(11..=15).contains(&digits.len()) || !digits.chars().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
        return Err(format!(
            "MARQUE_CHAT_NUMBER: `{raw}` is not a phone number with its country code (e.g. 919810042424)"
        ));
    }
    Ok(Some(digits))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn config(env: Environment) -> Config {
        let mut c = Config::for_tests(PathBuf::from("web"));
        c.env = env;
        c
    }

    fn full() -> IdentityConfig {
        let s = |v: &str| Some(v.to_owned());
        IdentityConfig {
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

    #[test]
    fn the_seller_prints_the_address_in_lines_of_its_parts() {
        let id = from_config(&config(Environment::Dev)).expect("demo identity");
        let seller = id.seller().expect("a valid seller");
        assert_eq!(seller.legal_name, "Marque Parts Private Limited");
        assert_eq!((seller.gstin.as_str(), seller.state.code), ("07AAKCM4821R1ZU", "07"));
        assert_eq!(seller.address_lines, ["Plot 14, Okhla Industrial Estate Phase III", "New Delhi, Delhi 110020"]);
    }

    #[test]
    fn dev_fills_a_believable_demo_identity() {
        let id = from_config(&config(Environment::Dev)).expect("demo identity");
        assert_eq!(id.legal_name, "Marque Parts Private Limited");
        assert_eq!((id.state.as_str(), id.state_code.as_str()), ("Delhi", "07"));
        assert!(Gstin::parse(&id.gstin).is_ok_and(|g| g.state_code() == "07"));
        assert!(id.address.contains("New Delhi"));
        assert!(!id.grievance_officer.name.is_empty() && !id.grievance_officer.phone.is_empty());
        let json = serde_json::to_string(&id).expect("serialises");
        for placeholder in ["XXXX", ".example", "example.com"] {
            assert!(!json.contains(placeholder), "{placeholder} in {json}");
        }
    }

    #[test]
    fn prod_names_every_missing_value_but_the_chat_number() {
        let err = from_config(&config(Environment::Prod)).expect_err("nothing configured");
        for var in [
            "MARQUE_SHOP_LEGAL_NAME", "MARQUE_SHOP_ADDRESS", "MARQUE_SHOP_GSTIN", "MARQUE_SHOP_STATE",
            "MARQUE_SUPPORT_EMAIL", "MARQUE_SUPPORT_PHONE", "MARQUE_ENQUIRY_PHONE", "MARQUE_GRIEVANCE_NAME",
            "MARQUE_GRIEVANCE_EMAIL", "MARQUE_GRIEVANCE_PHONE",
        ] {
            assert!(err.contains(var), "{var} in {err}");
        }
        assert!(!err.contains("MARQUE_CHAT_NUMBER"));

        let mut c = config(Environment::Prod);
        c.identity = full();
        let id = from_config(&c).expect("fully configured");
        assert_eq!((id.state.as_str(), id.state_code.as_str()), ("Maharashtra", "27"));
        assert_eq!(id.support_email, "help@spares.in");
        assert_eq!(id.chat_number, None, "no chat link unless configured");
    }

    #[test]
    fn invalid_values_are_refused_in_any_environment() {
        let mut c = config(Environment::Dev);
        c.identity = full();
        c.identity.gstin = Some("27AAPFU0939F1ZW".into());
        assert!(from_config(&c).expect_err("check character").contains("MARQUE_SHOP_GSTIN"));
        c.identity = full();
        c.identity.state = Some("Delhi".into());
        assert!(from_config(&c).expect_err("other state").contains("state code 27"));
        c.identity = full();
        c.identity.chat_number = Some("98100".into());
        assert!(from_config(&c).expect_err("short").contains("MARQUE_CHAT_NUMBER"));
        c.identity.chat_number = Some("+91 98100 42424".into());
        assert_eq!(from_config(&c).map(|i| i.chat_number), Ok(Some("919810042424".into())));
        c.identity.chat_number = Some(" ".into());
        assert_eq!(from_config(&c).map(|i| i.chat_number), Ok(None), "blank turns chat off");
    }
}
