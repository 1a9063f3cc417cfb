//! Who owes GST where: GST identification numbers and the states' GST codes.

mod gstin;
mod state;

pub use gstin::{Gstin, GstinError};
pub use state::{GstState, GST_STATES};
