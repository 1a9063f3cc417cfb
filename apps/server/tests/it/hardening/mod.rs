//! Issue 11's black-box tests: security headers and body limits (`headers`), rate
//! limits (`limits`), backup and restore and the `prod` refusals of the binary (`backup`).

mod backup;
mod headers;
mod limits;
mod safe_defaults;
