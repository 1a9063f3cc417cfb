//! Where an order goes: the delivery address, its pincode and mobile, and the delivery region.

mod fields;
mod mobile;
mod pincode;
mod region;

pub use fields::{Address, AddressErrors, AddressField, AddressId, AddressInput, SavedAddress, ADDRESS_LIMIT};
pub use mobile::{typed_mobile_digits, IndianMobile, IndianMobileError};
pub use pincode::{Pincode, PincodeError, PINCODE_LENGTH};
pub use region::{is_ncr_pincode, DeliveryRegion, NCR_PREFIXES};
