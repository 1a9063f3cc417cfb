//! A delivery address: its raw form fields and the parsed address.

use serde::{Deserialize, Serialize};

use super::{DeliveryRegion, IndianMobile, Pincode};
use crate::message::{FieldErrors, Message, UserFacing};

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
}

/// An address whose required fields are filled and whose mobile and pincode parse.
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
    pub state: String,
    pub mobile_no: IndianMobile,
    pub pincode: Pincode,
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

impl TryFrom<AddressInput> for Address {
    type Error = AddressErrors;
    fn try_from(input: AddressInput) -> Result<Self, Self::Error> {
        Self::parse(&input)
    }
}

impl Address {
    /// Required: houseNo, city, state, mobileNo and pincode; street and
    /// landmark are optional. An empty mobile or pincode shows that field's
    /// format message, which already says what is expected.
    ///
    /// # Errors
    /// [`AddressErrors`] naming every field that failed, in form order.
    pub fn parse(input: &AddressInput) -> Result<Self, AddressErrors> {
        let house_no = required(&input.house_no, Message::AddressHouseNoRequired);
        let city = required(&input.city, Message::AddressCityRequired);
        let state = required(&input.state, Message::AddressStateRequired);
        let mobile_no = IndianMobile::parse(&input.mobile_no).map_err(|e| e.message());
        let pincode = Pincode::parse(&input.pincode).map_err(|e| e.message());
        match (house_no, city, state, mobile_no, pincode) {
            (Ok(house_no), Ok(city), Ok(state), Ok(mobile_no), Ok(pincode)) => Ok(Self {
                house_no,
                street: input.street.trim().to_owned(),
                landmark: input.landmark.trim().to_owned(),
                city,
                state,
                mobile_no,
                pincode,
            }),
            (house_no, city, state, mobile_no, pincode) => Err(FieldErrors::collect([
                (AddressField::HouseNo, house_no.err()),
                (AddressField::City, city.err()),
                (AddressField::State, state.err()),
                (AddressField::MobileNo, mobile_no.err()),
                (AddressField::Pincode, pincode.err()),
            ])),
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
        }
    }

    #[test]
    fn a_complete_address_parses_trimmed() {
        let a = Address::parse(&input()).expect("valid");
        assert_eq!(
            (a.house_no.as_str(), a.street.as_str(), a.landmark.as_str()),
            ("12B", "", "Near Metro")
        );
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
        let only_city = AddressInput {
            city: String::new(),
            ..input()
        };
        assert_eq!(
            Address::parse(&only_city).expect_err("no city").to_string(),
            "City is required"
        );
    }

    #[test]
    fn street_and_landmark_are_optional() {
        let a = AddressInput {
            street: String::new(),
            landmark: String::new(),
            ..input()
        };
        assert!(Address::parse(&a).is_ok());
    }

    #[test]
    fn json_uses_the_specifications_names() {
        let raw = r#"{"_id":"a1","houseNo":"12B","street":"","landmark":"","city":"Noida","state":"Uttar Pradesh","mobileNo":"9876543210","pincode":"201301"}"#;
        let saved: SavedAddress = serde_json::from_str(raw).expect("valid");
        assert_eq!(saved.address.delivery_region(), DeliveryRegion::Ncr);
        assert_eq!(serde_json::to_string(&saved).expect("ser"), raw);
        let input: AddressInput = serde_json::from_str(r#"{"houseNo":"1"}"#).expect("defaults");
        assert_eq!(input.city, "");
        let blank_house = raw.replace(r#""houseNo":"12B""#, r#""houseNo":" ""#);
        assert!(
            serde_json::from_str::<SavedAddress>(&blank_house).is_err(),
            "deserialising parses"
        );
    }
}
