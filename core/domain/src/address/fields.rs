//! A delivery address: its raw form fields and the parsed address.

use serde::{Deserialize, Serialize, Serializer};

use super::{DeliveryRegion, IndianMobile, Pincode};
use crate::message::{FieldErrors, Message, UserFacing};
use crate::tax::{GstState, Gstin};

/// Most addresses a customer keeps (docs/shop-rules.md leaves it to Marque).
pub const ADDRESS_LIMIT: usize = 20;

/// Identifier of a saved address, opaque to clients.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AddressId(pub String);

/// The address form as sent (`PATCH /api/add/address/{userId}` and the edit
/// call), field names as the specification spells them. Missing fields are empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AddressInput {
    pub house_no: String,
    pub street: String,
    pub landmark: String,
    pub city: String,
    pub state: String,
    pub mobile_no: String,
    pub pincode: String,
    /// A business buyer's GSTIN; empty for none.
    pub gstin: String,
}

/// An address whose required fields are filled, whose state is one of
/// [`crate::tax::GST_STATES`] and whose mobile, pincode and GSTIN (when given) parse.
/// Text fields are trimmed; `street` and `landmark` may be empty.
///
/// Deserialising goes through [`Address::parse`], so no `Address` skips the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", try_from = "AddressInput")]
pub struct Address {
    pub house_no: String,
    pub street: String,
    pub landmark: String,
    pub city: String,
    /// Serialised as its name, e.g. `Delhi`; it decides CGST + SGST or IGST.
    #[serde(serialize_with = "state_name")]
    pub state: GstState,
    pub mobile_no: IndianMobile,
    pub pincode: Pincode,
    /// Serialised as `""` when there is none.
    #[serde(serialize_with = "gstin_or_empty")]
    pub gstin: Option<Gstin>,
}

fn state_name<S: Serializer>(state: &GstState, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(state.name)
}

fn gstin_or_empty<S: Serializer>(gstin: &Option<Gstin>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(gstin.as_ref().map_or("", Gstin::as_str))
}

/// An address stored on a customer's account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedAddress {
    #[serde(rename = "_id")]
    pub id: AddressId,
    #[serde(flatten)]
    pub address: Address,
}

/// The address fields, in form order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AddressField {
    HouseNo,
    Street,
    Landmark,
    City,
    State,
    MobileNo,
    Pincode,
    Gstin,
}

impl AddressField {
    /// The field's name in the API and the form, e.g. `houseNo`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            AddressField::HouseNo => "houseNo",
            AddressField::Street => "street",
            AddressField::Landmark => "landmark",
            AddressField::City => "city",
            AddressField::State => "state",
            AddressField::MobileNo => "mobileNo",
            AddressField::Pincode => "pincode",
            AddressField::Gstin => "gstin",
        }
    }
}

/// Every address field that failed, each with its message.
pub type AddressErrors = FieldErrors<AddressField>;

fn required(raw: &str, missing: Message) -> Result<String, Message> {
    let text = raw.trim();
    if text.is_empty() {
        Err(missing)
    } else {
        Ok(text.to_owned())
    }
}

/// Required, then one of [`crate::tax::GST_STATES`] in any case and spacing.
fn state(raw: &str) -> Result<GstState, Message> {
    let name = required(raw, Message::AddressStateRequired)?;
    GstState::by_name(&name).ok_or(Message::AddressStateInvalid)
}

/// Optional: blank is none; otherwise its format and check character must hold.
fn optional_gstin(raw: &str) -> Result<Option<Gstin>, Message> {
    if raw.trim().is_empty() {
        return Ok(None);
    }
    Gstin::parse(raw).map(Some).map_err(|e| e.message())
}

impl TryFrom<AddressInput> for Address {
    type Error = AddressErrors;
    fn try_from(input: AddressInput) -> Result<Self, Self::Error> {
        Self::parse(&input)
    }
}

impl Address {
    /// Required: houseNo, city, state, mobileNo and pincode; street,
    /// landmark and gstin are optional. An empty mobile or pincode shows that
    /// field's format message, which already says what is expected.
    ///
    /// # Errors
    /// [`AddressErrors`] naming every field that failed, in form order.
    pub fn parse(input: &AddressInput) -> Result<Self, AddressErrors> {
        let house_no = required(&input.house_no, Message::AddressHouseNoRequired);
        let city = required(&input.city, Message::AddressCityRequired);
        let state = state(&input.state);
        let mobile_no = IndianMobile::parse(&input.mobile_no).map_err(|e| e.message());
        let pincode = Pincode::parse(&input.pincode).map_err(|e| e.message());
        let gstin = optional_gstin(&input.gstin);
        match (house_no, city, state, mobile_no, pincode, gstin) {
            (Ok(house_no), Ok(city), Ok(state), Ok(mobile_no), Ok(pincode), Ok(gstin)) => Ok(Self {
                house_no,
                street: input.street.trim().to_owned(),
                landmark: input.landmark.trim().to_owned(),
                city,
                state,
                mobile_no,
                pincode,
                gstin,
            }),
            (house_no, city, state, mobile_no, pincode, gstin) => Err(FieldErrors::collect([
                (AddressField::HouseNo, house_no.err()),
                (AddressField::City, city.err()),
                (AddressField::State, state.err()),
                (AddressField::MobileNo, mobile_no.err()),
                (AddressField::Pincode, pincode.err()),
                (AddressField::Gstin, gstin.err()),
            ])),
        }
    }

    /// The form fields that parse back to this address.
    #[must_use]
    pub fn to_input(&self) -> AddressInput {
        AddressInput {
            house_no: self.house_no.clone(),
            street: self.street.clone(),
            landmark: self.landmark.clone(),
            city: self.city.clone(),
            state: self.state.name.to_owned(),
            mobile_no: self.mobile_no.to_string(),
            pincode: self.pincode.to_string(),
            gstin: self.gstin.as_ref().map(ToString::to_string).unwrap_or_default(),
        }
    }

    #[must_use]
    pub fn delivery_region(&self) -> DeliveryRegion {
        self.pincode.delivery_region()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input() -> AddressInput {
        AddressInput {
            house_no: " 12B ".into(),
            street: "".into(),
            landmark: " Near Metro ".into(),
            city: "New Delhi".into(),
            state: "Delhi".into(),
            mobile_no: "9876543210".into(),
            pincode: "110001".into(),
            gstin: String::new(),
        }
    }

    #[test]
    fn a_complete_address_parses_trimmed() {
        let a = Address::parse(&input()).expect("valid");
        assert_eq!((a.house_no.as_str(), a.street.as_str(), a.landmark.as_str()), ("12B", "", "Near Metro"));
        assert_eq!(a.delivery_region(), DeliveryRegion::Ncr);
    }

    #[test]
    fn every_bad_field_is_reported_at_once() {
        let bad = AddressInput {
            house_no: " ".into(),
            state: String::new(),
            mobile_no: "5876543210".into(),
            pincode: "011001".into(),
            ..input()
        };
        let errors = Address::parse(&bad).expect_err("invalid");
        let got: Vec<_> = errors.iter().map(|(f, m)| (f.name(), m.code())).collect();
        assert_eq!(
            got,
            vec![
                ("houseNo", "address.house_no_required"),
                ("state", "address.state_required"),
                ("mobileNo", "address.mobile_invalid"),
                ("pincode", "pincode.invalid"),
            ]
        );
        assert_eq!(errors.code(), "address.house_no_required");
        assert_eq!(errors.get(AddressField::City), None);
        let only_city = AddressInput { city: String::new(), ..input() };
        assert_eq!(Address::parse(&only_city).expect_err("no city").to_string(), "City is required");
    }

    #[test]
    fn the_state_is_one_of_the_gst_states_by_its_canonical_name() {
        let a =
            Address::parse(&AddressInput { state: "  tamil NADU ".into(), ..input() }).expect("any case and spacing");
        assert_eq!((a.state.name, a.state.code), ("Tamil Nadu", "33"));
        for (raw, code) in [
            ("", "address.state_required"),
            ("  ", "address.state_required"),
            ("Atlantis", "address.state_invalid"),
            ("Tamil  Nadu", "address.state_invalid"),
            ("DL", "address.state_invalid"),
        ] {
            let errors = Address::parse(&AddressInput { state: raw.into(), ..input() }).expect_err(raw);
            assert_eq!(errors.get(AddressField::State).map(|m| m.code()), Some(code), "{raw:?}");
        }
        assert_eq!(Message::AddressStateInvalid.text(), "Choose a state or union territory from the list");
    }

    #[test]
    fn the_gstin_is_optional_and_checked_when_given() {
        let with = |gstin: &str| Address::parse(&AddressInput { gstin: gstin.into(), ..input() });
        assert_eq!(with("").expect("none").gstin, None);
        assert_eq!(with("  ").expect("blank is none").gstin, None);
        let g = with(" 07aakcm4821r1zu ").expect("valid").gstin.expect("some");
        assert_eq!(g.as_str(), "07AAKCM4821R1ZU");
        for bad in ["07AAKCM4821R1ZV", "07AAKCM4821R1Z", "ABCDEFGHIJKLMNO", "x"] {
            let errors = with(bad).expect_err(bad);
            assert_eq!(
                errors.iter().map(|(f, m)| (f.name(), m.code())).collect::<Vec<_>>(),
                vec![("gstin", "address.gstin_invalid")],
                "{bad}"
            );
        }
        assert_eq!(Message::AddressGstinInvalid.text(), "Enter a valid 15-character GSTIN");
    }

    #[test]
    fn an_address_gives_back_the_form_that_parses_to_it() {
        let a = Address::parse(&AddressInput { state: "karnataka".into(), gstin: "29aagcb7383j1z4".into(), ..input() })
            .expect("valid");
        assert_eq!(a.to_input().state, "Karnataka");
        assert_eq!(Address::parse(&a.to_input()), Ok(a));
    }

    #[test]
    fn street_and_landmark_are_optional() {
        let a = AddressInput { street: String::new(), landmark: String::new(), ..input() };
        assert!(Address::parse(&a).is_ok());
    }

    #[test]
    fn json_uses_the_specifications_names() {
        let raw = r#"{"_id":"a1","houseNo":"12B","street":"","landmark":"","city":"Noida","state":"Uttar Pradesh","mobileNo":"9876543210","pincode":"201301","gstin":""}"#;
        let saved: SavedAddress = serde_json::from_str(raw).expect("valid");
        assert_eq!(saved.address.delivery_region(), DeliveryRegion::Ncr);
        assert_eq!(serde_json::to_string(&saved).expect("ser"), raw);
        let business = raw.replace(r#""gstin":"""#, r#""gstin":"09AAACH7409R1ZZ""#);
        let parsed: SavedAddress = serde_json::from_str(&business).expect("valid GSTIN");
        assert_eq!(serde_json::to_string(&parsed).expect("ser"), business);
        let mistyped = business.replace("1ZZ", "1ZY");
        let parsed = serde_json::from_str::<SavedAddress>(&mistyped);
        assert!(parsed.is_err(), "a wrong check character is refused");
        let input: AddressInput = serde_json::from_str(r#"{"houseNo":"1"}"#).expect("defaults");
        assert_eq!((input.city.as_str(), input.gstin.as_str()), ("", ""));
        let unknown_state = raw.replace("Uttar Pradesh", "Uttar");
        assert!(serde_json::from_str::<SavedAddress>(&unknown_state).is_err());
        let blank_house = raw.replace(r#""houseNo":"12B""#, r#""houseNo":" ""#);
        assert!(serde_json::from_str::<SavedAddress>(&blank_house).is_err(), "deserialising parses");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use crate::tax::GST_STATES;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_gst_state_parses_in_any_case_to_its_own_name(i in 0usize..GST_STATES.len(), upper in any::<bool>()) {
            let name = GST_STATES[i].name;
            let typed = if upper { name.to_uppercase() } else { name.to_lowercase() };
            let a = Address::parse(&AddressInput {
                house_no: "1".into(), city: "Somewhere".into(), state: format!(" {typed} "),
                mobile_no: "9876543210".into(), pincode: "560001".into(), ..AddressInput::default()
            });
            prop_assert_eq!(a.map(|a| a.state.name), Ok(name));
        }
    }
}
