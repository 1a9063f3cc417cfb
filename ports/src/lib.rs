//! Driven ports: what the use cases need from the outside world.
//!
//! Each trait documents its contract; `marque-contract-tests` turns every
//! `# Errors` / `# Contract` sentence into a suite every adapter must pass.
//! Driver types (database values, HTTP clients) never appear here.

pub mod accounts;
pub mod addresses;
pub mod audit;
pub mod blobs;
pub mod catalog;
pub mod catalog_answers;
pub mod catalog_changes;
pub mod catalog_editor;
pub mod clock;
pub mod garage;
pub mod grievances;
pub mod health;
pub mod identity;
pub mod imports;
pub mod invoice_pdf;
pub mod notice_outbox;
pub mod notify;
pub mod order_desk;
pub mod orders;
pub mod payment;
pub mod photos;
pub mod rate;
pub mod returns;
pub mod staff;
pub mod stock;
pub mod store_credit;
pub mod vehicles;
pub mod wishlist;

pub use accounts::SignInCode;
pub use accounts::{
    AccountStore, AccountStoreError, Challenge, ChallengeKey, ChallengeOutcome, NewSession, Swept, UserId, UserRecord,
};
pub use accounts::{CustomerOffer, UsersPage};
pub use addresses::{AddressStore, AddressStoreError};
pub use audit::{Actor, AuditEntry, AuditLog, AuditLogError, AuditPage, AuditQuery, AuditRecord};
pub use blobs::{is_valid_key, BlobStore, BlobStoreError};
pub use catalog::{CatalogStore, CatalogStoreError, ProductListing, ProductQuery, ProductSlice, ProductStamp};
pub use catalog_answers::{FollowedCatalog, ForgetHook, NotedRead, Sources, Stamp};
pub use catalog_changes::{
    CatalogChange, CatalogChanges, CatalogVersion, Forgotten, ListingPlace, Question, StockChange, STOCK_CHANGE_WINDOW,
};
pub use catalog_editor::{AdminProductQuery, AdminProductSort, CatalogEditor, CatalogEditorError};
pub use clock::{Clock, SystemClock};
pub use garage::{GarageStore, GarageStoreError};
pub use grievances::{
    Grievance, GrievanceMove, GrievancePage, GrievanceQuery, GrievanceStore, GrievanceStoreError, NewGrievance,
};
pub use health::{Readiness, ReadinessError};
pub use identity::{ExternalIdentity, IdentityError, IdentityProvider, PendingSignIn, SignInStart};
pub use imports::{
    ImportBatch, ImportCounts, ImportFitment, ImportJob, ImportJobId, ImportJobs, ImportJobsError, ImportMode,
    ImportPhotoTask, ImportState, PhotoCounts, PhotoOutcome, StockTarget,
};
pub use invoice_pdf::{InvoiceRenderer, RenderError};
pub use notice_outbox::{NewNotice, NoticeCounts, NoticeOutbox, NoticeOutboxError, NoticeState, QueuedNotice};
pub use notify::{Attachment, Channel, Notification, Notifier, NotifyError};
pub use order_desk::{
    AdminOrder, AdminOrderPage, AdminOrderQuery, IssuedCreditNote, OrderDesk, OrderDeskError, OrderEvent, OrderRefund,
    OrderRefundLine, RefundCounts, RefundKind, RefundRecorded, RefundWrite, StatusCounts,
};
pub use orders::{
    OrderDraft, OrderId, OrderStore, OrderStoreError, OrdersPage, PlacedOrder, Placement, RefundRecord, RefundState,
    Reservation, ReservationState,
};
pub use payment::{
    CheckoutConfig, NewPaymentOrder, NewRefund, Payment, PaymentError, PaymentEvent, PaymentEventKind, PaymentGateway,
    PaymentId, PaymentOrder, PaymentOrderId, PaymentState, Refund, RefundId, RefundStatus,
};
pub use photos::{
    EncodedPhoto, EncodedVariant, PhotoEncodeError, PhotoEncoder, PhotoFetchError, PhotoFetcher, ProductPhotos,
    ProductPhotosError,
};
pub use rate::{RateCounter, RateCounterError};
pub use returns::{
    CreditGrant, NewReturn, ProductReturn, ReturnMove, ReturnPage, ReturnQuery, ReturnStore, ReturnStoreError,
};
pub use staff::{
    SetupCode, SetupSecrets, StaffPage, StaffRecord, StaffSession, StaffStatus, StaffStore, StaffStoreError, StaffSwept,
};
pub use stock::{LowStockItem, LowStockPage, StockEntry, StockHistory, StockLedger, StockLedgerError};
pub use store_credit::{CreditBalance, StoreCreditError, StoreCreditStore, StoredGrant};
pub use vehicles::{Generation, Model, StoredFitment, VehicleStore, VehicleStoreError};
pub use wishlist::{Added, WishlistStore, WishlistStoreError};

#[cfg(feature = "mock")]
pub use stock::MockStockLedger;
#[cfg(feature = "mock")]
pub use store_credit::MockStoreCreditStore;
#[cfg(feature = "mock")]
pub use {
    accounts::MockAccountStore, addresses::MockAddressStore, audit::MockAuditLog, blobs::MockBlobStore,
    catalog::MockCatalogStore, catalog_changes::MockCatalogChanges, catalog_editor::MockCatalogEditor,
    garage::MockGarageStore, grievances::MockGrievanceStore, health::MockReadiness, identity::MockIdentityProvider,
    imports::MockImportJobs, invoice_pdf::MockInvoiceRenderer, notice_outbox::MockNoticeOutbox, notify::MockNotifier,
    order_desk::MockOrderDesk, orders::MockOrderStore, payment::MockPaymentGateway, photos::MockPhotoEncoder,
    photos::MockPhotoFetcher, photos::MockProductPhotos, rate::MockRateCounter, returns::MockReturnStore,
    staff::MockStaffStore, vehicles::MockVehicleStore, wishlist::MockWishlistStore,
};
