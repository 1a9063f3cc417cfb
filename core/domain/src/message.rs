//! Every text the shop shows a person because of a rule, each with a stable code.
//!
//! The texts marked "specification" are its exact words, typos included
//! ('atleast', 'Passwords not match.'); do not correct them. The others are
//! Marque's own, for cases the specification leaves without a message. Clients
//! receive both halves (`{ status: "failed", message, code }`) and the
//! frontends get this table generated (by `tools/codegen`), so a
//! text lives here and nowhere else.

use std::fmt;

/// Who reads a message: everyone (the storefront's pages and the customer's calls), or staff in the back office only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// Shoppers (and staff): bundled with every storefront page.
    Storefront,
    /// Staff only: the frontends load these with the back office, never on a shopper's page.
    BackOffice,
}

/// Declares the table once: variant, code, text, in two groups by [`Audience`].
macro_rules! messages {
    (
        storefront { $( $(#[$sdoc:meta])* $svariant:ident = $scode:literal => $stext:literal, )* }
        back_office { $( $(#[$bdoc:meta])* $bvariant:ident = $bcode:literal => $btext:literal, )* }
    ) => {
        /// A message the shop shows, identified by a code that never changes.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Message {
            $( $(#[$sdoc])* $svariant, )*
            $( $(#[$bdoc])* $bvariant, )*
        }

        impl Message {
            /// Every message, in table order (the storefront's first).
            pub const ALL: &'static [Message] = &[ $( Message::$svariant, )* $( Message::$bvariant, )* ];

            /// The stable code, e.g. `password.rule`. Clients key on it.
            #[must_use]
            pub const fn code(self) -> &'static str {
                match self { $( Message::$svariant => $scode, )* $( Message::$bvariant => $bcode, )* }
            }

            /// The text a person reads.
            #[must_use]
            pub const fn text(self) -> &'static str {
                match self { $( Message::$svariant => $stext, )* $( Message::$bvariant => $btext, )* }
            }

            /// Who reads it: decides which generated module of the frontends carries it.
            #[must_use]
            pub const fn audience(self) -> Audience {
                match self {
                    $( Message::$svariant => Audience::Storefront, )*
                    $( Message::$bvariant => Audience::BackOffice, )*
                }
            }
        }
    };
}

messages! {
    storefront {
        // Accounts
        /// Specification: login and sign-up mobile shorter than 10 digits.
        MobileTooShort = "mobile.too_short" => "Enter 10 digit mobile number",
        /// Specification: the password rule.
        PasswordRule = "password.rule" => "Password must include atleast a number, a special character and 8-16 characters.",
        /// Specification: password and confirmation differ.
        PasswordMismatch = "password.mismatch" => "Passwords not match.",
        /// Marque: the OTP field is empty.
        OtpRequired = "otp.required" => "Please enter the OTP",
        /// Marque: the OTP is not 6 digits.
        OtpInvalid = "otp.invalid" => "Enter 6 digit OTP",
        /// Specification: verification did not succeed.
        OtpWrong = "otp.wrong" => "Wrong OTP",
        /// Marque: an email address that cannot be one.
        EmailInvalid = "email.invalid" => "Enter a valid email address",
        /// Marque: sign-up without a name.
        NameRequired = "name.required" => "Enter your name",
        /// Marque: signing up with an email another account has.
        AccountEmailTaken = "account.email_taken" => "An account with this email already exists",
        /// Marque: signing up with a mobile number another account has.
        AccountMobileTaken = "account.mobile_taken" => "An account with this mobile number already exists",
        /// Marque: logging in by mobile with a number no account has.
        AccountMobileUnknown = "account.mobile_unknown" => "No account with this mobile number",
        /// Marque: verifying or resending for an email or mobile no account has.
        AccountUnknown = "account.unknown" => "No account with this email or mobile number",
        /// Marque: verifying or resending without an email or a mobile number.
        AccountIdentityMissing = "account.identity_missing" => "Enter your email or mobile number",
        /// Marque: email and password do not match an account.
        LoginFailed = "account.login_failed" => "Invalid email or password",
        /// Marque: email login succeeded.
        LoginSuccess = "account.login_success" => "Login successful",
        /// Marque: email login with a right password for an email not yet proven; a code was sent to the email.
        AccountNotVerified = "account.not_verified" => "Your email is not verified yet. We have sent an OTP to your email.",
        /// Marque: a call that needs a logged-in customer without a valid session.
        LoginRequired = "account.login_required" => "Please login to continue.",
        /// Marque: a call naming another customer's account.
        AccountForbidden = "account.forbidden" => "You can only use your own account.",
        /// Marque: too many login or verification attempts from one place in a minute.
        TooManyAttempts = "account.too_many_attempts" => "Too many attempts. Please wait a minute and try again.",
        /// Marque: the accounts store cannot be reached.
        AccountUnavailable = "account.unavailable" => "Your account cannot be reached right now. Please try again.",
        /// Marque: the profile was saved.
        ProfileUpdated = "account.profile_updated" => "Profile updated",
        /// Marque: a sign-up was stored and its code sent.
        SignUpOtpSent = "otp.sent_signup" => "Account created. We have sent an OTP to your mobile number and email.",
        /// Marque: a code was sent by SMS for mobile login.
        OtpSentMobile = "otp.sent_mobile" => "We have sent an OTP to your mobile number.",
        /// Marque: a new code was sent on request.
        OtpResent = "otp.resent" => "We have sent a new OTP.",
        /// Marque: no live code (expired, used, ended by wrong tries, or never sent).
        OtpExpired = "otp.expired" => "This OTP has expired. Please ask for a new one.",
        /// Marque: a new code asked for within 30 seconds of the last one.
        OtpTooSoon = "otp.too_soon" => "Please wait 30 seconds before asking for a new OTP.",
        /// Marque: too many codes sent to one number in an hour.
        OtpTooMany = "otp.too_many" => "Too many OTPs were sent to this number. Please try again in an hour.",
        /// Marque: the code could not be sent (SMS or email service down).
        OtpSendFailed = "otp.send_failed" => "We could not send the OTP right now. Please try again.",
        /// Marque: an uploaded profile picture that is not an image, or too big.
        AvatarInvalid = "avatar.invalid" => "Please choose an image file (JPEG, PNG or WebP) up to 5 MB.",

        // Addresses
        /// Specification: address mobile number.
        AddressMobileInvalid = "address.mobile_invalid" => "Enter a valid 10-digit Indian mobile number starting with 6-9",
        /// Specification: pincode.
        PincodeInvalid = "pincode.invalid" => "Enter a valid 6-digit pincode",
        /// Marque: a required address field left empty.
        AddressHouseNoRequired = "address.house_no_required" => "House No. is required",
        /// Marque: a required address field left empty.
        AddressCityRequired = "address.city_required" => "City is required",
        /// Marque: a required address field left empty.
        AddressStateRequired = "address.state_required" => "State is required",
        /// Marque: a state that is not one of India's states and union territories.
        AddressStateInvalid = "address.state_invalid" => "Choose a state or union territory from the list",
        /// Marque: a GSTIN of the wrong format or check character.
        AddressGstinInvalid = "address.gstin_invalid" => "Enter a valid 15-character GSTIN",
        /// Marque: an address was added.
        AddressAdded = "address.added" => "address added successfully",
        /// Marque: adding an address to a full address book.
        AddressBookFull = "address.book_full" => "Your address book is full. Remove an address to add another.",
        /// Marque: an address id that names no address.
        AddressNotFound = "address.not_found" => "Address not found",
        /// Marque: the address store cannot be reached.
        AddressUnavailable = "address.unavailable" => "Your addresses cannot be reached right now. Please try again.",
        /// Specification: confirmation before deleting an address.
        AddressDeleteConfirm = "address.delete_confirm" => "Do you want to delete address?",
        /// Specification: an address was edited.
        AddressUpdated = "address.updated" => "address updated successfully",

        // Cart and checkout
        /// Specification: continuing from the address step without an address.
        CheckoutAddressMissing = "checkout.address_missing" => "Please select address for further process",
        /// Specification: checking out an empty cart.
        CheckoutCartEmpty = "checkout.cart_empty" => "please! add product to cart.",
        /// Specification: an ordered quantity above stock.
        CheckoutOutOfStock = "checkout.out_of_stock" => "please order products which are in stock",
        /// Marque: a line asks for more units of one part than an order may hold (shop rules, "Orders").
        CheckoutTooManyUnits = "checkout.too_many_units" => "One order can hold only a few units of each part. Please lower the quantity, or contact us for a bulk order.",
        /// Marque: an order holds more different parts than an order may (shop rules, "Orders").
        CheckoutTooManyLines = "checkout.too_many_lines" => "One order can hold only so many different parts. Please split your cart into two orders.",
        /// Marque: the store credit an order was priced with was spent by another checkout meanwhile (issue 24).
        CheckoutCreditChanged = "checkout.credit_changed" => "Your store credit changed while you were paying. Please review your order again.",
        /// Marque: the payment came after its hold lapsed and the stock was sold meanwhile; it was refunded.
        PaymentRefundedSoldOut = "payment.refunded_sold_out" => "Sorry, the part sold out while your payment was on its way, so no order was placed. Your payment has been refunded in full; it reaches your account in 5-7 working days.",
        /// Marque: a cart quantity below 1.
        CartQuantityInvalid = "cart.quantity_invalid" => "Quantity must be at least 1",
        /// Marque: a discount percentage outside 0-100.
        OfferPercentageInvalid = "offer.percentage_invalid" => "Discount percentage must be from 0 to 100",
        /// Specification: the payment provider's script did not load.
        PaymentSdkFailed = "payment.sdk_failed" => "Razorpay SDK failed to load. Are you online?",
        /// Marque: the payment's signature did not check out; nothing was ordered.
        PaymentSignatureInvalid = "payment.signature_invalid" => "We could not verify this payment. Nothing was charged to an order; please try again.",
        /// Marque: the provider does not report the payment as complete.
        PaymentNotPaid = "payment.not_paid" => "This payment is not complete yet. Please try again.",
        /// Marque: a payment report for a checkout the shop does not know.
        PaymentUnknown = "payment.unknown" => "This payment does not belong to a checkout. Please start again from your cart.",
        /// Marque: the payment provider or the order store cannot be reached.
        PaymentUnavailable = "payment.unavailable" => "Payments are unavailable right now. Please try again in a few minutes.",

        // Wishlist (the specification gives two readings; docs/shop-rules.md keeps both)
        /// Specification: wishlist full, on product cards.
        WishlistFull = "wishlist.full" => "Your wishlist is full! Kindly remove some products from wishlist.",
        /// Specification: wishlist full, on the product detail page.
        WishlistFullAlert = "wishlist.full_alert" => "Wishlist full! Remove items to add more.",
        /// Specification: wishlist while logged out, on product cards.
        WishlistLoginRequired = "wishlist.login_required" => "Please login before entering parts to your wishlist.",
        /// Specification: wishlist while logged out, on the product detail page.
        WishlistLoginAlert = "wishlist.login_alert" => "Please login to use wishlist.",

        // Catalog
        /// Specification: an empty listing or a failed search.
        ProductNotFound = "catalog.not_found" => "Product Not Found",
        /// Specification: stock below 1, on product cards.
        OutOfStockCard = "stock.out_card" => "OUT OF STOCK",
        /// Specification: stock below 1, on the product detail page.
        OutOfStockDetail = "stock.out_detail" => "Out of Stock",
        /// Marque: a category or subcategory address that names none.
        CategoryNotFound = "category.not_found" => "Category not found",
        /// Marque: a filter value the shop does not offer.
        FilterInvalid = "filter.invalid" => "Unknown filter value",
        /// Marque: a page number that is not one.
        PageInvalid = "page.invalid" => "page must be a whole number from 1 to 100000",
        /// Marque: a `fits` vehicle id that names no vehicle of the shop's table.
        VehicleUnknown = "vehicle.unknown" => "We do not know this car. Choose it again from the list.",
        /// Marque: a car's model year outside 1950 to 2100 (or a range ending before it starts).
        VehicleYearInvalid = "vehicle.year_invalid" => "Year must be between 1950 and 2100",
        /// Marque: search text longer than any part name or number.
        SearchTooLong = "search.too_long" => "search must be at most 200 characters",
        /// Marque: a part number without letters or digits.
        PartNumberEmpty = "part_number.empty" => "A part number needs at least one letter or digit.",

        // Orders
        /// Marque: no order has this id.
        OrderNotFound = "order.not_found" => "Order not found",
        /// Marque: the order store cannot be reached.
        OrderUnavailable = "order.unavailable" => "Your orders cannot be loaded right now. Please try again.",

        // Invoices
        /// Specification: the invoice could not be built.
        InvoiceFailed = "invoice.failed" => "Invoice generation failed",
        /// Marque: a financial year ran out of invoice serial numbers.
        InvoiceSerialExhausted = "invoice.serial_exhausted" => "No invoice numbers left for this financial year",
        /// Marque: text that is not a Marque invoice number.
        InvoiceNumberInvalid = "invoice.number_invalid" => "Not a valid invoice number",
        /// Marque: the order has no refund with this id, or the refund issued no credit note (it gave nothing back).
        CreditNoteNotFound = "credit_note.not_found" => "This order has no such credit note.",

        // Grievances (the contact page's form)
        /// Marque: a grievance without a name, or a name above 100 characters.
        GrievanceNameInvalid = "grievance.name_invalid" => "Enter your name (at most 100 characters).",
        /// Marque: an order number on a grievance that cannot be one.
        GrievanceOrderNumberInvalid = "grievance.order_number_invalid" => "An order number has at most 40 letters, digits, '-' or '/'. Leave it empty if your grievance is not about an order.",
        /// Marque: a grievance's text shorter than 20 or longer than 2000 characters.
        GrievanceMessageInvalid = "grievance.message_invalid" => "Describe your grievance in 20 to 2000 characters.",
        /// Marque: a grievance was registered and its acknowledgement emailed.
        GrievanceReceived = "grievance.received" => "Your grievance is registered. We have emailed you its number; the Grievance Officer will reply within one month.",
        /// Marque: the grievance could not be stored.
        GrievanceUnavailable = "grievance.unavailable" => "We could not register your grievance right now. Please try again, or write to the Grievance Officer.",

        // Returns within the warranty (Purchase History)
        /// Marque: a return's reason shorter than 10 or longer than 1000 characters.
        ReturnReasonInvalid = "return.reason_invalid" => "Tell us what is wrong with the part in 10 to 1000 characters.",
        /// Marque: a return of fewer than one unit.
        ReturnQuantityInvalid = "return.quantity_invalid" => "Return 1 or more units.",
        /// Marque: a return of more units than are left to return of the line.
        ReturnQuantityAboveLeft = "return.quantity_above_left" => "You cannot return more units than you bought and have not returned or been refunded already.",
        /// Marque: a return naming a part the order does not hold.
        ReturnUnknownLine = "return.unknown_line" => "This order has no such part.",
        /// Marque: a return of an order not delivered yet.
        ReturnNotDelivered = "return.not_delivered" => "A part can be returned once its order is delivered.",
        /// Marque: a return after the warranty's days since delivery.
        ReturnWindowClosed = "return.window_closed" => "The warranty period of this part has ended, so it can no longer be returned.",
        /// Marque: more than three photographs with a return.
        ReturnTooManyPhotos = "return.too_many_photos" => "Add at most three photos.",
        /// Marque: a return's photograph that is not a JPEG, PNG or WebP picture within the limits.
        ReturnPhotoInvalid = "return.photo_invalid" => "Each photo must be a JPEG, PNG or WebP picture of at most 10 MB.",
        /// Marque: no return has this id (or it is another customer's).
        ReturnNotFound = "return.not_found" => "No such return.",
        /// Marque: the return could not be stored or read right now.
        ReturnUnavailable = "return.unavailable" => "Returns cannot be reached right now. Please try again in a moment.",

        // Anything else
        /// Specification: the fallback when the server gives no message.
        SomethingWentWrong = "common.unknown" => "Something went wrong. Please try again.",
        /// Marque: a request body above the call's limit (413).
        RequestTooLarge = "request.too_large" => "The request is too large.",
        /// Marque: too many calls of one kind in a short time (429, with `Retry-After`).
        TooManyRequests = "request.too_many" => "Too many requests. Please wait a moment and try again.",
    }

    // Shown only in the back office: generated apart for the admin (frontends/packages/rules/src/office.generated.ts),
    // so a shopper's first page does not carry them.
    back_office {
        // Shown to shoppers from the catalog's own texts (the product namespace), kept here for the API's
        // `gradeDefinition` and the back office: out of the messages every storefront page carries.
        /// Marque: the shop's definition of a used unit's grade A (issue 25).
        GradeA = "grade.a" => "Grade A: like new, no visible wear",
        /// Marque: the shop's definition of grade B.
        GradeB = "grade.b" => "Grade B: normal wear for its age, fully working",
        /// Marque: the shop's definition of grade C.
        GradeC = "grade.c" => "Grade C: visible wear or damage, shown in the photographs; fully working",
        /// Marque: a garage of more than five cars (`PUT /api/account/garage`; the storefront never sends one).
        GarageTooMany = "garage.too_many" => "Your garage keeps at most five cars. Remove one to add another.",
        // Back office: orders (issue 24)
        /// Marque: a status that is not the next step from the order's (1 → 2 → 3 → 4 → 5).
        OrderIllegalMove = "order.illegal_move" => "An order moves one step at a time: placed, confirmed, packed, shipped, delivered.",
        /// Marque: status 6 asked for by a status change instead of Cancel.
        OrderCancelByCancel = "order.cancel_by_cancel" => "Cancel an order with Cancel, which also refunds the payment.",
        /// Marque: shipped without a courier and an AWB.
        OrderShipmentRequired = "order.shipment_required" => "To ship an order, give the courier and the AWB.",
        /// Marque: a courier and AWB given while the order does not ship (or after delivery).
        OrderShipmentNotNow = "order.shipment_not_now" => "The courier and AWB are given when the order ships, and can be corrected until it is delivered.",
        /// Marque: a change that changes nothing.
        OrderNoChange = "order.no_change" => "The order already has this status and shipment.",
        /// Marque: a courier that is not one of the shop's.
        OrderCourierUnknown = "order.courier_unknown" => "Choose a courier: delhivery, bluedart, dtdc, indiapost, shiprocket, ekart or other.",
        /// Marque: an AWB that is not 6-24 letters and digits.
        OrderAwbInvalid = "order.awb_invalid" => "The AWB must be 6 to 24 letters and digits.",
        /// Marque: a tracking address that is not an https:// link.
        OrderTrackingUrlInvalid = "order.tracking_url_invalid" => "The tracking link must be an https:// address of at most 500 characters.",
        /// Marque: courier `other` without its tracking address.
        OrderTrackingUrlRequired = "order.tracking_url_required" => "For another courier, give the tracking link.",
        /// Marque: a tracking address given for a courier whose link the shop builds.
        OrderTrackingUrlUnexpected = "order.tracking_url_unexpected" => "The tracking link is built for this courier; give one only with courier other.",
        /// Marque: an admin order change without `If-Match` (428).
        OrderVersionRequired = "order.version_required" => "Reload the order: a change must name the version it was made on (If-Match).",
        /// Marque: an order changed by someone else since it was loaded (409).
        OrderChanged = "order.changed" => "Someone else changed this order meanwhile. Reload it and try again.",

        // Back office: cancellations and refunds (issue 24)
        /// Marque: a refund that names no line and not the delivery charge.
        RefundEmpty = "refund.empty" => "Name at least one line to refund, or the delivery charge.",
        /// Marque: a refund line naming a product the order does not hold.
        RefundUnknownProduct = "refund.unknown_product" => "This order has no such product.",
        /// Marque: one product on two lines of a refund.
        RefundDuplicateLine = "refund.duplicate_line" => "Name each product once in a refund.",
        /// Marque: a refund quantity below 1.
        RefundQuantityInvalid = "refund.quantity_invalid" => "A quantity to refund must be a whole number of at least 1.",
        /// Marque: more units than are left to refund of a line.
        RefundQuantityAboveLeft = "refund.quantity_above_left" => "That is more units than are left to refund on this line.",
        /// Marque: the delivery charge refunded already, or the order had none.
        RefundDeliveryNotLeft = "refund.delivery_not_left" => "The delivery charge is refunded already, or the order had none.",
        /// Marque: a refund below the provider's minimum of ₹1.
        RefundTooSmall = "refund.too_small" => "A refund must be at least ₹1.",
        /// Marque: a refund that would leave less than ₹1 of the payment, which no later refund could pay back.
        RefundRemainderTooSmall = "refund.remainder_too_small" => "This refund would leave less than ₹1 of the payment, which could never be refunded: refund the rest with it.",
        /// Marque: everything paid is refunded already.
        RefundNothingLeft = "refund.nothing_left" => "Everything paid for this order is refunded already.",
        /// Marque: a refund above what is left of the payment.
        RefundAbovePaid = "refund.above_paid" => "The refunds of an order cannot total more than was paid.",
        /// Marque: a reason that is empty or over 200 characters.
        RefundReasonInvalid = "refund.reason_invalid" => "Give a reason of 1 to 200 characters.",
        /// Marque: a refund request without an Idempotency-Key header, or with a malformed one.
        RefundKeyRequired = "refund.key_required" => "Send the refund with an Idempotency-Key header of 8 to 64 letters, digits, '-' or '_'.",
        /// Marque: an Idempotency-Key used before for a different refund.
        RefundKeyReused = "refund.key_reused" => "This Idempotency-Key was used for a different refund.",
        /// Marque: no refund of this order has this id.
        RefundNotFound = "refund.not_found" => "No such refund of this order.",
        /// Marque: the payment of the order was not captured, so there is nothing to refund through the provider.
        RefundNotPaid = "refund.not_paid" => "This order's payment cannot be refunded through the provider.",
        /// Marque: a status that is not a whole number from 1 to 6.
        OrderStatusInvalid = "order.status_invalid" => "The status must be a whole number from 1 to 6.",
        /// Marque: an admin order list filter that does not parse.
        OrderFilterInvalid = "order.filter_invalid" => "Filters: status 1 to 6, from and until in seconds since 1970 (from before until), search at most 100 characters.",

        // Back office: credit notes (issue 24)
        /// Marque: a financial year ran out of credit note serial numbers.
        CreditNoteSerialExhausted = "credit_note.serial_exhausted" => "No credit note numbers left for this financial year",
        /// Marque: text that is not a Marque credit note number.
        CreditNoteNumberInvalid = "credit_note.number_invalid" => "Not a valid credit note number",
        /// Marque: a refund that names no line and not the delivery charge.
        CreditNoteNothingRefunded = "credit_note.nothing_refunded" => "Choose at least one line or the delivery charge to refund.",
        /// Marque: a refund of a line the invoice does not have.
        CreditNoteLineUnknown = "credit_note.line_unknown" => "A line to refund is not on the order's invoice.",
        /// Marque: more units refunded than the invoice has left to refund (or none).
        CreditNoteTooManyUnits = "credit_note.too_many_units" => "Refund 1 or more units of a line, and no more than are left to refund.",
        /// Marque: the delivery charge refunded a second time.
        CreditNoteDeliveryRefunded = "credit_note.delivery_refunded" => "The delivery charge has already been refunded.",

        // Back office: grievances (issue 24)
        /// Marque: a financial year ran out of grievance numbers.
        GrievanceSerialExhausted = "grievance.serial_exhausted" => "No grievance numbers left for this financial year",
        /// Marque: text that is not a Marque grievance number.
        GrievanceNumberInvalid = "grievance.number_invalid" => "Not a valid grievance number",
        /// Marque: no grievance has this id.
        GrievanceNotFound = "grievance.not_found" => "No such grievance.",
        /// Marque: a grievance list filter that is not open, acknowledged or resolved.
        GrievanceStateInvalid = "grievance.state_invalid" => "Filter by state: open, acknowledged or resolved.",
        /// Marque: a grievance change that is not acknowledge or resolve.
        GrievanceActionInvalid = "grievance.action_invalid" => "Choose an action: acknowledge or resolve.",
        /// Marque: acknowledging a grievance acknowledged already.
        GrievanceAlreadyAcknowledged = "grievance.already_acknowledged" => "This grievance is acknowledged already; resolve it with a reply.",
        /// Marque: changing a resolved grievance.
        GrievanceAlreadyResolved = "grievance.already_resolved" => "This grievance is resolved already.",
        /// Marque: a resolution without a reply, or a note above 2000 characters.
        GrievanceNoteInvalid = "grievance.note_invalid" => "A resolution needs a reply, and a note has at most 2000 characters.",
        /// Marque: a grievance change without `If-Match` (428).
        GrievanceVersionRequired = "grievance.version_required" => "Reload the grievance: a change must name the version it was made on (If-Match).",
        /// Marque: a grievance changed by someone else since it was loaded (409).
        GrievanceChanged = "grievance.changed" => "Someone else changed this grievance meanwhile. Reload it and try again.",
        // Back office: returns (issue 24)
        /// Marque: a return's note above 1000 characters, or a refusal without one.
        ReturnNoteInvalid = "return.note_invalid" => "A refusal needs a note, and a note has at most 1000 characters.",
        /// Marque: a move the return's state does not allow (409).
        ReturnIllegalMove = "return.illegal_move" => "This return cannot make that move from where it stands.",
        /// Marque: a return list filter that is not a state.
        ReturnStateInvalid = "return.state_invalid" => "Filter by state: requested, approved, refused, received or resolved.",
        /// Marque: a resolution whose outcome is not refund, replacement or storeCredit.
        ReturnOutcomeInvalid = "return.outcome_invalid" => "Choose an outcome: refund, replacement or storeCredit.",
        /// Marque: a return move without `If-Match` (428).
        ReturnVersionRequired = "return.version_required" => "Reload the return: a change must name the version it was made on (If-Match).",
        /// Marque: a return changed by someone else since it was loaded (409).
        ReturnChanged = "return.changed" => "Someone else changed this return meanwhile. Reload it and try again.",
        /// Marque: a replacement the shop cannot make now (the part is out of stock, or the order is gone).
        ReturnReplacementUnavailable = "return.replacement_unavailable" => "The replacement cannot be made now: the part is out of stock. Choose a refund or store credit, or try again later.",
        /// Marque: the dashboard's figures cannot be read.
        DashboardUnavailable = "dashboard.unavailable" => "The dashboard cannot be loaded right now. Please try again.",

        // Back office: staff and roles (issue 21)
        /// Marque: an admin call without a valid staff session (no token, a customer's, an expired or revoked one).
        StaffLoginRequired = "staff.login_required" => "Please sign in to the back office.",
        /// Marque: a staff member's role does not cover what they asked for.
        StaffForbidden = "staff.forbidden" => "Your role does not allow this.",
        /// Marque: a staff role that is not one of owner, catalog, fulfilment.
        StaffRoleUnknown = "staff.role_unknown" => "Choose a role: owner, catalog or fulfilment",
        /// Marque: a staff password outside 12 to 128 characters.
        StaffPasswordRule = "staff.password_rule" => "The password must have 12 to 128 characters.",
        /// Marque: the staff store cannot be reached.
        StaffUnavailable = "staff.unavailable" => "The back office cannot be reached right now. Please try again.",
        // (staff helper: further staff messages go here)
        /// Marque: a back-office sign-in with a wrong email, password or authenticator code (one answer for all).
        StaffLoginFailed = "staff.login_failed" => "The email, password or authenticator code is wrong.",
        /// Marque: a set-up link that is unknown, used or past its 24 hours.
        StaffSetupInvalid = "staff.setup_invalid" => "This set-up link is unknown, used or expired. Ask an owner for a new one.",
        /// Marque: an invitation for an email a staff member already has.
        StaffEmailTaken = "staff.email_taken" => "A staff member with this email already exists.",
        /// Marque: no staff member has this id.
        StaffNotFound = "staff.not_found" => "No such staff member.",
        /// Marque: an owner asked to remove themselves (another owner can).
        StaffRemoveSelf = "staff.remove_self" => "You cannot remove yourself; another owner can.",
        /// Marque: an invitation without a name.
        StaffNameRequired = "staff.name_required" => "Enter the staff member's name.",
        /// Marque: too many sign-in attempts in a short time (429, with `Retry-After`).
        StaffTooManyAttempts = "staff.too_many_attempts" => "Too many sign-in attempts. Please wait and try again.",

        // Back office: catalog editor
        // (catalog helper: messages go here)
        /// Marque: a SKU that is empty, longer than 40 characters or spelt with other than letters, digits, `-_./`.
        ProductSkuInvalid = "product.sku_invalid" => "A SKU has 1 to 40 letters, digits or - _ . /",
        /// Marque: a SKU another product already has.
        ProductSkuTaken = "product.sku_taken" => "Another product already has this SKU",
        /// Marque: an HSN code that is not 4 to 8 digits.
        ProductHsnInvalid = "product.hsn_invalid" => "An HSN code has 4 to 8 digits",
        /// Marque: warranty outside the shop's 2 to 15 days.
        ProductWarrantyDays = "product.warranty_days" => "Warranty must be 2 to 15 days",
        /// Marque: a weight below 0 or above one tonne.
        ProductWeightInvalid = "product.weight_invalid" => "Weight must be 0 to 1,000,000 grams",
        /// Marque: a side below 0 or above ten metres.
        ProductDimensionsInvalid = "product.dimensions_invalid" => "Each side must be 0 to 10,000 mm",
        /// Marque: an empty product name, or one above 200 characters.
        ProductNameInvalid = "product.name_invalid" => "A product name has 1 to 200 characters",
        /// Marque: a price or delivery charge that is negative or finer than a paisa.
        ProductPriceInvalid = "product.price_invalid" => "Enter an amount in rupees with at most two decimals",
        /// Marque: a GST rate the shop does not use.
        ProductGstInvalid = "product.gst_invalid" => "GST must be 0, 5, 12, 18 or 28 percent",
        /// Marque: more than 20 alternate or superseded part numbers.
        ProductNumbersTooMany = "product.numbers_too_many" => "At most 20 alternate and 20 superseded part numbers",
        /// Marque: an opening stock that is negative or too large.
        ProductQuantityInvalid = "product.quantity_invalid" => "Opening stock must be a whole number from 0 to 100000",
        /// Marque: a product slug of a category, subcategory or brand the shop does not have.
        ProductPlacementUnknown = "product.placement_unknown" => "Choose a category, subcategory and brand the shop has",
        /// Marque: a category, subcategory or brand name that is empty or above 100 characters.
        CatalogNameInvalid = "catalog.name_invalid" => "A name has 1 to 100 characters",
        /// Marque: a slug that is not lower-case letters, digits and single hyphens (1 to 60).
        CatalogSlugInvalid = "catalog.slug_invalid" => "A slug has 1 to 60 lower-case letters, digits and hyphens",
        /// Marque: a slug another category, subcategory of the same category, or brand already has.
        CatalogSlugTaken = "catalog.slug_taken" => "This slug is already used",
        /// Marque: a brand logo that is not a picture address or blob name.
        BrandLogoInvalid = "brand.logo_invalid" => "Give the logo as a picture address (https://… or /…) or a stored picture's name",
        /// Marque: an admin call for a category or brand that does not exist.
        CatalogRecordNotFound = "catalog.record_not_found" => "No such category or brand",
        /// Marque: the catalog store cannot be reached for a back-office call.
        CatalogUnavailable = "catalog.unavailable" => "The catalog is unavailable right now. Please try again.",

        // Back office: used parts and cross-references (issue 25)
        /// Marque: a grade that is not A, B or C.
        ProductGradeInvalid = "product.grade_invalid" => "A grade is A, B or C",
        /// Marque: a donor car with an empty or too long make, model or generation, a year or odometer out of range.
        ProductDonorInvalid = "product.donor_invalid" => "Give the donor car's make, model and generation (1 to 60 characters each), its year from 1950 to next year and its odometer from 0 to 2,000,000 km",
        /// Marque: a grade, donor car or margin scheme on a product that is not used.
        ProductUsedOnly = "product.used_only" => "Only an old or refurbished product has a grade, a donor car or the margin scheme",
        /// Marque: a margin scheme purchase price below 1 paisa or above one crore rupees.
        ProductPurchasePriceInvalid = "product.purchase_price_invalid" => "Enter the purchase price: more than 0 and at most 1,00,00,000 rupees",
        /// Marque: a cross-reference with an empty or too long brand, or a number without letters or digits.
        ProductCrossReferenceInvalid = "product.cross_reference_invalid" => "A cross-reference needs a brand (1 to 40 characters) and a number with a letter or digit",
        /// Marque: more than 20 cross-references.
        ProductCrossReferencesTooMany = "product.cross_references_too_many" => "At most 20 cross-references",

        // Back office: vehicles and fitment (issue 25)
        /// Marque: a vehicle with a make the shop does not sell, or an empty or too long model, code or label.
        VehicleInvalid = "vehicle.invalid" => "Give one of the shop's makes, a model and generation code (at most 40 and 16 characters) and the engine's code, fuel and label",
        /// Marque: a vehicle (generation and engine) that is already in the table.
        VehicleDuplicate = "vehicle.duplicate" => "This engine of this generation is already in the table",
        /// Marque: a fitment row naming an unknown generation or engine, or a row given twice.
        FitmentInvalid = "fitment.invalid" => "Each fitment row must name a generation in the vehicle table (and one of its engines), once",
        /// Marque: more fitment rows than a product may carry.
        FitmentTooMany = "fitment.too_many" => "A product fits at most 200 rows of vehicles",
        /// Marque: a fitment note above its length.
        FitmentNoteTooLong = "fitment.note_too_long" => "A fitment note is at most 80 characters on one line",
        /// Marque: a fitment write without the version it was made on.
        FitmentVersionRequired = "fitment.version_required" => "Reload the fitment: a change must name the version it was made on (If-Match).",
        /// Marque: the fitment was changed since the version named.
        FitmentChanged = "fitment.changed" => "Someone else changed this product's fitment meanwhile. Reload it and try again.",

        // Back office: catalog import (issue 23)
        /// Marque: an import file without a header, or without any byte at all.
        ImportEmpty = "import.empty" => "The file is empty: it needs a header line naming its columns, and rows below it.",
        /// Marque: an import file with a header and no row.
        ImportNoRows = "import.no_rows" => "The file has a header but no rows.",
        /// Marque: an import file that is not UTF-8 text (a spreadsheet saved in another format, a picture, …).
        ImportNotText = "import.not_text" => "This is not a CSV file in UTF-8: save the spreadsheet as 'CSV UTF-8' and upload that.",
        /// Marque: a header with more columns than the import allows.
        ImportTooManyColumns = "import.too_many_columns" => "A CSV file may have at most 64 columns.",
        /// Marque: a header naming one column twice (in any case).
        ImportColumnTwice = "import.column_twice" => "A column is named twice in the header.",
        /// Marque: a header without the sku column, which every row is keyed by.
        ImportSkuColumnMissing = "import.sku_column_missing" => "The header must have a sku column: every row is matched by its SKU.",
        /// Marque: a header cell that names no column the import knows (reported, then left out).
        ImportColumnUnknown = "import.column_unknown" => "The import does not know this column; it was left out.",
        /// Marque: a row with more cells than the header has columns.
        ImportRowTooWide = "import.row_too_wide" => "This row has more cells than the header has columns.",
        /// Marque: a cell above the import's size for one value.
        ImportCellTooLong = "import.cell_too_long" => "A cell may hold at most 32 KB.",
        /// Marque: a row above the import's size for one row.
        ImportRowTooLong = "import.row_too_long" => "A row may hold at most 256 KB.",
        /// Marque: a SKU on more than one row of one file (each of those rows is refused).
        ImportSkuTwice = "import.sku_twice" => "This SKU is on more than one row of the file; give each SKU one row.",
        /// Marque: a yes/no cell that is neither.
        ImportBooleanInvalid = "import.boolean_invalid" => "Write true or false (or yes/no, 1/0).",
        /// Marque: a fuel type that is not one of the shop's.
        ImportFuelTypeInvalid = "import.fuel_type_invalid" => "The fuel type must be petrol, diesel, hybrid, electric or none.",
        /// Marque: an import quantity (the stock on hand) outside 0 to 100000.
        ImportQuantityInvalid = "import.quantity_invalid" => "The quantity is the stock on hand: a whole number from 0 to 100000.",
        /// Marque: a column a new SKU cannot be without, left empty or out.
        ImportRequiredForNew = "import.required_for_new" => "A new SKU needs this column: name, price, category_slug, subcategory_slug, oem_slug and partNo.",
        /// Marque: an import file above the import's size (413).
        ImportFileTooLarge = "import.file_too_large" => "A CSV file may be at most 100 MB.",
        /// Marque: an import mode that is not dry-run or apply.
        ImportModeInvalid = "import.mode_invalid" => "Choose a mode: dry-run (check only) or apply.",
        /// Marque: no import job has this id.
        ImportNotFound = "import.not_found" => "No import has this id.",
        /// Marque: an import whose uploaded file is no longer kept (it ends failed).
        ImportFileGone = "import.file_gone" => "The uploaded file is no longer there; upload it again.",
        /// Marque: the import store cannot be reached.
        ImportUnavailable = "import.unavailable" => "Imports cannot be reached right now. Please try again.",
        /// Marque: an import row whose `delete` cell unpublishes a SKU the shop does not have.
        ImportDeleteUnknown = "import.delete_unknown" => "No product has this SKU, so there is nothing to unpublish.",
        /// Marque: an import row's purchase price for a product not sold under the margin scheme.
        ImportPurchasePriceNeedsScheme = "import.purchase_price_needs_scheme" => "A purchase price goes with the margin scheme: write true in marginScheme, or leave purchasePrice empty.",
        /// Marque: a `photos` entry that is neither a file name in the zip nor an `https` address.
        ImportPhotoNameInvalid = "import.photo_name_invalid" => "Name each photograph by its file name in the zip or by an https:// address, separated by |.",
        /// Marque: a row listing more photographs than a product may have.
        ImportPhotosTooMany = "import.photos_too_many" => "A product may have at most 12 photographs.",
        /// Marque: a row naming a file in the zip when no zip was uploaded.
        ImportPhotosWithoutZip = "import.photos_without_zip" => "This photograph is named as a file, but no zip of photographs was uploaded with the file.",
        /// Marque: a row naming a file the uploaded zip does not hold.
        ImportPhotoNotInZip = "import.photo_not_in_zip" => "The zip of photographs has no file of this name.",
        /// Marque: the uploaded photographs are not a zip that can be read.
        ImportZipInvalid = "import.zip_invalid" => "The photographs must be a zip file; this one cannot be read.",
        /// Marque: a zip holding a name that leaves its folder (`../`, an absolute path).
        ImportZipUnsafePath = "import.zip_unsafe_path" => "The zip holds a file whose name leaves its folder (../ or an absolute path); it is refused whole.",
        /// Marque: a zip of photographs above 1 GB.
        ImportZipTooLarge = "import.zip_too_large" => "The zip of photographs may be at most 1 GB.",
        /// Marque: a zip that unpacks to far more than it holds (a zip bomb).
        ImportZipBomb = "import.zip_bomb" => "The zip unpacks to far more than it holds (a file above 25 MB, more than 2 GB in all, or packed over 100 times); it is refused whole.",
        /// Marque: a photograph address that is not https or points at a private, loopback or link-local address.
        ImportPhotoAddressRefused = "import.photo_address_refused" => "Photographs are fetched only over https from public internet addresses; this address is refused.",
        /// Marque: a photograph address that did not answer a picture in time, within its size.
        ImportPhotoFetchFailed = "import.photo_fetch_failed" => "The photograph could not be fetched from this address (no answer in time, an error, not a picture, or above 25 MB).",

        // Back office: stock ledger
        // (stock helper: messages go here)
        /// Marque: a stock adjustment's reason that staff may not give (or no reason at all).
        StockReasonUnknown = "stock.reason_unknown" => "Choose a reason: received, correction, damaged, returned or sold offline.",
        /// Marque: a stock adjustment of zero units.
        StockDeltaZero = "stock.delta_zero" => "Enter how many units changed; zero changes nothing.",
        /// Marque: a stock adjustment of more units than any delivery or count.
        StockDeltaTooLarge = "stock.delta_too_large" => "One adjustment can change at most 100000 units.",
        /// Marque: stock received or returned with a negative number.
        StockDeltaMustAdd = "stock.delta_must_add" => "Stock received or returned adds units: enter a positive number.",
        /// Marque: damaged stock or an offline sale with a positive number.
        StockDeltaMustTake = "stock.delta_must_take" => "Damaged stock and offline sales take units away: enter a negative number.",
        /// Marque: a stock adjustment's note that is too long.
        StockNoteTooLong = "stock.note_too_long" => "A note can have at most 500 characters.",
        /// Marque: an adjustment that would leave fewer than zero units.
        StockBelowZero = "stock.below_zero" => "Stock cannot go below zero: there are fewer units than that.",
        /// Marque: a low-stock threshold that is not a whole number from 0 to 100000.
        StockThresholdInvalid = "stock.threshold_invalid" => "The low-stock threshold must be a whole number from 0 to 100000.",
        /// Marque: no product has this id (the back office's product, stock and photograph calls).
        AdminProductNotFound = "admin.product_not_found" => "No product has this id.",
        /// Marque: the stock ledger cannot be reached.
        StockUnavailable = "stock.unavailable" => "Stock cannot be loaded right now. Please try again.",

        // Back office: photographs
        // (photos helper: messages go here)
        /// Marque: the photograph a call names is not one of the product's.
        PhotoNotFound = "photo.not_found" => "This product has no such photograph.",
        /// Marque: an upload that is not a JPEG, PNG or WebP picture, or does not decode.
        PhotoInvalid = "photo.invalid" => "Please upload a JPEG, PNG or WebP photograph.",
        /// Marque: a photograph above 50 megapixels (read from its header) or above the size of a file.
        PhotoTooLarge = "photo.too_large" => "This photograph is too large: at most 50 megapixels and 25 MB a file.",
        /// Marque: more photographs than a product may have, or an upload without any.
        PhotoCount = "photo.count" => "A product has between 1 and 12 photographs per upload, and at most 12 in all.",
        /// Marque: a new order that does not list each of the product's photographs exactly once.
        PhotoOrderInvalid = "photo.order_invalid" => "Please list each of the product's photographs exactly once.",

        // Back office: customers, offers, audit trail
        // (offers helper: messages go here)
        /// Marque: an offer's percentage outside 1–90.
        OfferPercentageRange = "offer.percentage_range" => "An offer's percentage must be a whole number from 1 to 90",
        /// Marque: an offer's end date that is not a real day written YYYY-MM-DD.
        OfferEndsOnInvalid = "offer.ends_on_invalid" => "The offer's end date must be a day written YYYY-MM-DD",
        /// Marque: an offer's end date before today in India.
        OfferEndsOnPast = "offer.ends_on_past" => "The offer's end date cannot be before today (India time)",
        /// Marque: an offer's end date more than two years ahead.
        OfferEndsOnTooFar = "offer.ends_on_too_far" => "The offer's end date can be at most two years from today",
        /// Marque: no customer has the id an admin call names.
        CustomerNotFound = "admin.customer_not_found" => "No customer has this id",
        /// Marque: a back-office list's `size` outside 1–100.
        PageSizeInvalid = "page.size_invalid" => "size must be a whole number from 1 to 100",
        /// Marque: an audit trail filter that does not parse (`from`/`until` in seconds since 1970).
        AuditFilterInvalid = "audit.filter_invalid" => "from and until must be whole seconds since 1970-01-01 UTC, from before until",
    }
}

impl Message {
    /// The message with this code, if there is one.
    #[must_use]
    pub fn from_code(code: &str) -> Option<Message> {
        Message::ALL.iter().copied().find(|m| m.code() == code)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// An error a person may see: its text and code both come from one [`Message`].
///
/// The HTTP layer answers `{ "status": "failed", "message": e.text(), "code": e.code() }`.
pub trait UserFacing {
    fn message(&self) -> Message;

    fn code(&self) -> &'static str {
        self.message().code()
    }

    fn text(&self) -> &'static str {
        self.message().text()
    }
}

/// `Display` and `Error` for error types whose text is their [`Message`],
/// so no error type can carry a text of its own.
macro_rules! user_facing_error {
    ($($t:ty),+ $(,)?) => {$(
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::message::UserFacing::message(self).text())
            }
        }
        impl ::std::error::Error for $t {}
    )+};
}
pub(crate) use user_facing_error;

/// Every field of a form that failed, in form order, each with its message:
/// forms answer all their errors at once, not one per submit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldErrors<F>(Vec<(F, Message)>);

impl<F: Copy + PartialEq> FieldErrors<F> {
    /// Keeps the fields that failed. Call it only once some field did.
    pub(crate) fn collect(results: impl IntoIterator<Item = (F, Option<Message>)>) -> Self {
        Self(results.into_iter().filter_map(|(f, m)| Some((f, m?))).collect())
    }

    pub fn iter(&self) -> impl Iterator<Item = (F, Message)> + '_ {
        self.0.iter().copied()
    }

    /// The message for one field, if it failed.
    #[must_use]
    pub fn get(&self, field: F) -> Option<Message> {
        self.iter().find(|(f, _)| *f == field).map(|(_, m)| m)
    }
}

/// The first failing field speaks for the whole form.
impl<F> UserFacing for FieldErrors<F> {
    fn message(&self) -> Message {
        self.0.first().map_or(Message::SomethingWentWrong, |(_, m)| *m)
    }
}

impl<F> fmt::Display for FieldErrors<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().text())
    }
}

impl<F: fmt::Debug> std::error::Error for FieldErrors<F> {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn codes_and_texts_are_each_defined_once() {
        let codes: HashSet<_> = Message::ALL.iter().map(|m| m.code()).collect();
        let texts: HashSet<_> = Message::ALL.iter().map(|m| m.text()).collect();
        assert_eq!(codes.len(), Message::ALL.len());
        assert_eq!(texts.len(), Message::ALL.len());
    }

    #[test]
    fn each_message_has_one_audience_and_a_customers_refusals_are_the_storefronts() {
        let office = Message::ALL.iter().filter(|m| m.audience() == Audience::BackOffice).count();
        assert!(office > 0 && office < Message::ALL.len());
        // What a shopper's own calls answer is bundled with the storefront ...
        for m in
            [Message::CreditNoteNotFound, Message::OrderNotFound, Message::InvoiceFailed, Message::AccountForbidden]
        {
            assert_eq!(m.audience(), Audience::Storefront, "{}", m.code());
        }
        // ... and what only staff meet is not.
        for m in [Message::StaffForbidden, Message::RefundAbovePaid, Message::OrderChanged, Message::PhotoInvalid] {
            assert_eq!(m.audience(), Audience::BackOffice, "{}", m.code());
        }
    }

    #[test]
    fn codes_are_dotted_snake_case() {
        for m in Message::ALL {
            let code = m.code();
            let (area, name) = code.split_once('.').unwrap_or_else(|| panic!("{code} has no area"));
            for part in [area, name] {
                assert!(!part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{code}");
            }
            assert_eq!(Message::from_code(code), Some(*m));
        }
        assert_eq!(Message::from_code("nope.nope"), None);
    }

    #[test]
    fn the_specifications_words_are_kept_exactly() {
        let cases = [
            (Message::MobileTooShort, "mobile.too_short", "Enter 10 digit mobile number"),
            (
                Message::PasswordRule,
                "password.rule",
                "Password must include atleast a number, a special character and 8-16 characters.",
            ),
            (Message::PasswordMismatch, "password.mismatch", "Passwords not match."),
            (
                Message::AddressMobileInvalid,
                "address.mobile_invalid",
                "Enter a valid 10-digit Indian mobile number starting with 6-9",
            ),
            (Message::PincodeInvalid, "pincode.invalid", "Enter a valid 6-digit pincode"),
            (Message::CheckoutAddressMissing, "checkout.address_missing", "Please select address for further process"),
            (Message::CheckoutCartEmpty, "checkout.cart_empty", "please! add product to cart."),
            (Message::CheckoutOutOfStock, "checkout.out_of_stock", "please order products which are in stock"),
            (Message::OtpWrong, "otp.wrong", "Wrong OTP"),
        ];
        for (m, code, text) in cases {
            assert_eq!((m.code(), m.text(), m.to_string().as_str()), (code, text, text));
        }
    }
}
