//! Use cases of the shop, one service per area, each holding the ports it needs.

pub mod accounts;
pub mod addresses;
pub mod admin;
pub mod catalog;
pub mod checkout;
pub mod credit_notes;
pub mod garage;
pub mod grievances;
pub mod housekeeping;
pub mod notices;
pub mod orders;
pub mod privacy;
pub mod returns;
pub mod throttle;
pub mod vehicles;
pub mod wishlist;

pub use accounts::sign_in::SignInCodeText;
pub use accounts::{
    AccountError, AccountService, AccountSettings, Authenticated, Avatar, LoginOutcome, OtpSecret, SessionToken, Who,
    AVATAR_URL_PREFIX,
};
pub use addresses::{AddressError, AddressService};
pub use catalog::{CatalogError, CatalogService, CategoryListing, CategoryView, SubcategoryGroup, SubcategoryListing};
pub use checkout::{
    CheckoutError, CheckoutService, EventOutcome, EventProbe, Reconciled, StartedPayment, WantedLine,
    EVENT_KEEP_SECONDS, MAX_UNPAID_HOLDS, RECONCILE_WINDOW_SECONDS,
};
pub use credit_notes::{CreditNoteFileError, CreditNoteService, CREDIT_NOTE_FILENAME};
pub use garage::{GarageEntry, GarageError, GarageService};
pub use grievances::{GrievanceError, GrievanceOfficerContact, GrievanceService, GRIEVANCE_EMAIL_TEMPLATE};
pub use notices::{NoticePass, NoticeSettings, NoticeWorker};
pub use orders::{
    tax_invoice, HistoryPage, OrderError, OrderPlaced, OrderService, OrderSettings, INVOICE_FILENAME,
    ORDER_PLACED_SMS_TEMPLATE, PAYMENT_REFUNDED_SMS_TEMPLATE,
};
pub use privacy::{DataExport, PrivacyError, PrivacyService};
pub use returns::{ResolveInput, Resolved, ReturnRequestInput, ReturnsError, ReturnsPorts, ReturnsService};
pub use throttle::{Action, Rule, Throttle, ThrottleError, ThrottleRules};
pub use vehicles::{VehicleLookupError, VehicleService};
pub use wishlist::{WishlistError, WishlistService};
