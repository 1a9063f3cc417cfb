// GENERATED FILE - DO NOT EDIT.
// Written from the Rust rules in core/domain by tools/codegen (marque_codegen::generated_files()).
// Regenerate: make generate (UPDATE_GENERATED=1 cargo test -p marque-codegen --test frontend_rules)
// The Rust test fails while this file differs from what the rules generate.

/** Every message a rule shows a shopper, by its stable code (the back office's are in office.generated.ts). */
export const MESSAGES = {
  "mobile.too_short": "Enter 10 digit mobile number",
  "password.rule": "Password must include atleast a number, a special character and 8-16 characters.",
  "password.mismatch": "Passwords not match.",
  "otp.required": "Please enter the OTP",
  "otp.invalid": "Enter 6 digit OTP",
  "otp.wrong": "Wrong OTP",
  "email.invalid": "Enter a valid email address",
  "name.required": "Enter your name",
  "account.email_taken": "An account with this email already exists",
  "account.mobile_taken": "An account with this mobile number already exists",
  "account.mobile_unknown": "No account with this mobile number",
  "account.unknown": "No account with this email or mobile number",
  "account.identity_missing": "Enter your email or mobile number",
  "account.login_failed": "Invalid email or password",
  "account.login_success": "Login successful",
  "account.not_verified": "Your email is not verified yet. We have sent an OTP to your email.",
  "account.login_required": "Please login to continue.",
  "account.forbidden": "You can only use your own account.",
  "account.too_many_attempts": "Too many attempts. Please wait a minute and try again.",
  "account.unavailable": "Your account cannot be reached right now. Please try again.",
  "account.profile_updated": "Profile updated",
  "otp.sent_signup": "Account created. We have sent an OTP to your mobile number and email.",
  "otp.sent_mobile": "We have sent an OTP to your mobile number.",
  "otp.resent": "We have sent a new OTP.",
  "otp.expired": "This OTP has expired. Please ask for a new one.",
  "otp.too_soon": "Please wait 30 seconds before asking for a new OTP.",
  "otp.too_many": "Too many OTPs were sent to this number. Please try again in an hour.",
  "otp.send_failed": "We could not send the OTP right now. Please try again.",
  "avatar.invalid": "Please choose an image file (JPEG, PNG or WebP) up to 5 MB.",
  "address.mobile_invalid": "Enter a valid 10-digit Indian mobile number starting with 6-9",
  "pincode.invalid": "Enter a valid 6-digit pincode",
  "address.house_no_required": "House No. is required",
  "address.city_required": "City is required",
  "address.state_required": "State is required",
  "address.state_invalid": "Choose a state or union territory from the list",
  "address.gstin_invalid": "Enter a valid 15-character GSTIN",
  "address.added": "address added successfully",
  "address.book_full": "Your address book is full. Remove an address to add another.",
  "address.not_found": "Address not found",
  "address.unavailable": "Your addresses cannot be reached right now. Please try again.",
  "address.delete_confirm": "Do you want to delete address?",
  "address.updated": "address updated successfully",
  "checkout.address_missing": "Please select address for further process",
  "checkout.cart_empty": "please! add product to cart.",
  "checkout.out_of_stock": "please order products which are in stock",
  "checkout.too_many_units": "One order can hold only a few units of each part. Please lower the quantity, or contact us for a bulk order.",
  "checkout.too_many_lines": "One order can hold only so many different parts. Please split your cart into two orders.",
  "payment.refunded_sold_out": "Sorry, the part sold out while your payment was on its way, so no order was placed. Your payment has been refunded in full; it reaches your account in 5-7 working days.",
  "cart.quantity_invalid": "Quantity must be at least 1",
  "offer.percentage_invalid": "Discount percentage must be from 0 to 100",
  "payment.sdk_failed": "Razorpay SDK failed to load. Are you online?",
  "payment.signature_invalid": "We could not verify this payment. Nothing was charged to an order; please try again.",
  "payment.not_paid": "This payment is not complete yet. Please try again.",
  "payment.unknown": "This payment does not belong to a checkout. Please start again from your cart.",
  "payment.unavailable": "Payments are unavailable right now. Please try again in a few minutes.",
  "wishlist.full": "Your wishlist is full! Kindly remove some products from wishlist.",
  "wishlist.full_alert": "Wishlist full! Remove items to add more.",
  "wishlist.login_required": "Please login before entering parts to your wishlist.",
  "wishlist.login_alert": "Please login to use wishlist.",
  "catalog.not_found": "Product Not Found",
  "stock.out_card": "OUT OF STOCK",
  "stock.out_detail": "Out of Stock",
  "category.not_found": "Category not found",
  "filter.invalid": "Unknown filter value",
  "page.invalid": "page must be a whole number from 1 to 100000",
  "vehicle.unknown": "We do not know this car. Choose it again from the list.",
  "vehicle.year_invalid": "Year must be between 1950 and 2100",
  "search.too_long": "search must be at most 200 characters",
  "part_number.empty": "A part number needs at least one letter or digit.",
  "order.not_found": "Order not found",
  "order.unavailable": "Your orders cannot be loaded right now. Please try again.",
  "invoice.failed": "Invoice generation failed",
  "invoice.serial_exhausted": "No invoice numbers left for this financial year",
  "invoice.number_invalid": "Not a valid invoice number",
  "credit_note.not_found": "This order has no such credit note.",
  "grievance.name_invalid": "Enter your name (at most 100 characters).",
  "grievance.order_number_invalid": "An order number has at most 40 letters, digits, '-' or '/'. Leave it empty if your grievance is not about an order.",
  "grievance.message_invalid": "Describe your grievance in 20 to 2000 characters.",
  "grievance.received": "Your grievance is registered. We have emailed you its number; the Grievance Officer will reply within one month.",
  "grievance.unavailable": "We could not register your grievance right now. Please try again, or write to the Grievance Officer.",
  "return.reason_invalid": "Tell us what is wrong with the part in 10 to 1000 characters.",
  "return.quantity_invalid": "Return 1 or more units.",
  "return.quantity_above_left": "You cannot return more units than you bought and have not returned or been refunded already.",
  "return.unknown_line": "This order has no such part.",
  "return.not_delivered": "A part can be returned once its order is delivered.",
  "return.window_closed": "The warranty period of this part has ended, so it can no longer be returned.",
  "return.too_many_photos": "Add at most three photos.",
  "return.photo_invalid": "Each photo must be a JPEG, PNG or WebP picture of at most 10 MB.",
  "return.not_found": "No such return.",
  "return.unavailable": "Returns cannot be reached right now. Please try again in a moment.",
  "common.unknown": "Something went wrong. Please try again.",
  "request.too_large": "The request is too large.",
  "request.too_many": "Too many requests. Please wait a moment and try again.",
} as const;

export type MessageCode = keyof typeof MESSAGES;

/** Digits in a mobile number. */
export const MOBILE_LENGTH = 10 as const;

/** Digits in a pincode. */
export const PINCODE_LENGTH = 6 as const;

/** Digits in a one-time code. */
export const OTP_LENGTH = 6 as const;

/** Seconds before another code may be requested. */
export const OTP_RESEND_AFTER_SECONDS = 30 as const;

/** Fewest characters in a password. */
export const PASSWORD_MIN_CHARS = 8 as const;

/** Most characters in a password. */
export const PASSWORD_MAX_CHARS = 16 as const;

/** Most products in a wishlist. */
export const WISHLIST_LIMIT = 50 as const;

/** Most addresses a customer keeps. */
export const ADDRESS_LIMIT = 20 as const;

/** Smallest cart quantity. */
export const CART_MIN_QUANTITY = 1 as const;

/** Quantity of a direct purchase (Buy now). */
export const DIRECT_PURCHASE_QUANTITY = 1 as const;

/** A password's allowed non-alphanumeric characters; one is required. */
export const PASSWORD_SPECIALS = "!@#$%^&*" as const;

/** Digits an address mobile number may start with. */
export const ADDRESS_MOBILE_FIRST_DIGITS = "6789" as const;

/** Digits a pincode may start with. */
export const PINCODE_FIRST_DIGITS = "123456789" as const;

/** Joins several values of one filter in a query. */
export const FILTER_SEPARATOR = "--" as const;

/** A brand slug in the `oem` filter. */
export const BRAND_SLUG_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$" as const;

/** Appended to a shortened title. */
export const TITLE_ELLIPSIS = "..." as const;

/** How the delivery charge is labelled (it includes GST). */
export const DELIVERY_GST_LABEL = "18% inc. GST" as const;

/** Pincode prefixes of the NCR delivery region. */
export const NCR_PREFIXES = ["110", "121", "201", "122"] as const;

/** India's states and union territories with their GST state codes; an address names one. */
export const GST_STATES = [
  { "code": "01", "name": "Jammu and Kashmir" },
  { "code": "02", "name": "Himachal Pradesh" },
  { "code": "03", "name": "Punjab" },
  { "code": "04", "name": "Chandigarh" },
  { "code": "05", "name": "Uttarakhand" },
  { "code": "06", "name": "Haryana" },
  { "code": "07", "name": "Delhi" },
  { "code": "08", "name": "Rajasthan" },
  { "code": "09", "name": "Uttar Pradesh" },
  { "code": "10", "name": "Bihar" },
  { "code": "11", "name": "Sikkim" },
  { "code": "12", "name": "Arunachal Pradesh" },
  { "code": "13", "name": "Nagaland" },
  { "code": "14", "name": "Manipur" },
  { "code": "15", "name": "Mizoram" },
  { "code": "16", "name": "Tripura" },
  { "code": "17", "name": "Meghalaya" },
  { "code": "18", "name": "Assam" },
  { "code": "19", "name": "West Bengal" },
  { "code": "20", "name": "Jharkhand" },
  { "code": "21", "name": "Odisha" },
  { "code": "22", "name": "Chhattisgarh" },
  { "code": "23", "name": "Madhya Pradesh" },
  { "code": "24", "name": "Gujarat" },
  { "code": "26", "name": "Dadra and Nagar Haveli and Daman and Diu" },
  { "code": "27", "name": "Maharashtra" },
  { "code": "29", "name": "Karnataka" },
  { "code": "30", "name": "Goa" },
  { "code": "31", "name": "Lakshadweep" },
  { "code": "32", "name": "Kerala" },
  { "code": "33", "name": "Tamil Nadu" },
  { "code": "34", "name": "Puducherry" },
  { "code": "35", "name": "Andaman and Nicobar Islands" },
  { "code": "36", "name": "Telangana" },
  { "code": "37", "name": "Andhra Pradesh" },
  { "code": "38", "name": "Ladakh" },
] as const;

export type GstStateName = (typeof GST_STATES)[number]['name'];

/** Values each fixed filter offers (`oem` takes brand slugs). */
export const FILTER_VALUES = { "product_type": ["old", "new"], "fuel_type": ["petrol", "diesel"] } as const;

/** Label of each known `producttype`. */
export const CONDITION_LABELS = { "new": "New", "new_without_box": "New Without Box", "refurbished": "Refurbished", "old": "Old" } as const;

/** Label of any other `producttype`. */
export const CONDITION_FALLBACK_LABEL = "Stock Lot" as const;

/** Label of each `fuelType`. */
export const FUEL_LABELS = { "petrol": "Petrol", "diesel": "Diesel", "hybrid": "Hybrid", "electric": "Electric" } as const;

/** Most title characters shown before the ellipsis, per place. */
export const TITLE_LIMITS = { "homeCard": 50, "hotSelling": 45, "listingCard": 70, "wishlist": 45, "orderLine": 40 } as const;

/** Order statuses 1-6 and their badge colours. */
export const ORDER_STATUSES = [
  { "number": 1, "name": "Placed", "statusString": "placed", "colour": "blue" },
  { "number": 2, "name": "Confirmed", "statusString": "confirmed", "colour": "purple" },
  { "number": 3, "name": "Packed", "statusString": "packed", "colour": "dark-yellow" },
  { "number": 4, "name": "Shipped", "statusString": "shipped", "colour": "light-yellow" },
  { "number": 5, "name": "Delivered", "statusString": "delivered", "colour": "green" },
  { "number": 6, "name": "Cancelled", "statusString": "cancelled", "colour": "red" },
] as const;

/** Badge colour of any other status number. */
export const ORDER_STATUS_FALLBACK_COLOUR = "grey" as const;

/** Every badge colour token. */
export const BADGE_COLOURS = ["blue", "purple", "dark-yellow", "light-yellow", "green", "red", "grey"] as const;

export type BadgeColour = (typeof BADGE_COLOURS)[number];

/** `order_status_string` of an order the shop cancelled. */
export const ADMIN_CANCELLED = "admin-cancelled" as const;

/** How an admin cancellation is labelled. */
export const ADMIN_CANCELLED_LABEL = "cancelled" as const;

export type Code = MessageCode | null;
export interface AddressFields {
  houseNo: string; street: string; landmark: string; city: string; state: string; mobileNo: string; pincode: string;
  gstin: string;
}
export interface SignUpFields { name: string; email: string; password: string; confirmation: string; mobile: string }
export type FilterKind = 'product_type' | 'fuel_type' | 'oem';
export interface PricedLineVector { unitPrice: number; quantity: number; insideNcr: number; outsideNcr: number }
export interface RuleVectors {
  loginMobile: { input: string; value: string; code: Code }[];
  password: { input: string; code: Code }[];
  confirmation: { password: string; confirmation: string; code: Code }[];
  signUp: { form: SignUpFields; allowed: boolean }[];
  pincode: { input: string; code: Code }[];
  addressMobile: { input: string; code: Code }[];
  gstin: { input: string; code: Code }[];
  address: { input: AddressFields; errors: Partial<Record<keyof AddressFields, MessageCode>> }[];
  otp: { input: string; code: Code }[];
  email: { input: string; value: string | null; code: Code }[];
  ncr: { pincode: string; ncr: boolean }[];
  truncate: { title: string; max: number; result: string }[];
  conditionLabel: { producttype: string; label: string }[];
  filterParse: { kind: FilterKind; raw: string; values: string[] | null; code: Code }[];
  filterPrint: { kind: FilterKind; values: string[]; printed: string }[];
  orderStatus: { status: number; statusString: string; colour: BadgeColour; label: string }[];
  /** Amounts in paise. */
  totals: {
    lines: PricedLineVector[]; pincode: string; offerExp: number; percentage: number;
    items: number; discount: number; delivery: number; total: number;
  }[];
}

/** Inputs and what the Rust rules answer; the TypeScript rules must answer the same. */
export const VECTORS: RuleVectors = {
  "loginMobile": [
    { "input": "", "value": "", "code": null },
    { "input": "9", "value": "9", "code": "mobile.too_short" },
    { "input": "987654321", "value": "987654321", "code": "mobile.too_short" },
    { "input": "9876543210", "value": "9876543210", "code": null },
    { "input": "98765432101", "value": "9876543210", "code": null },
    { "input": "98765 43210", "value": "9876543210", "code": null },
    { "input": "+91 98765 43210", "value": "9198765432", "code": null },
    { "input": "abc", "value": "", "code": null },
    { "input": "98-76", "value": "9876", "code": "mobile.too_short" },
    { "input": "(987) 654-3210", "value": "9876543210", "code": null },
    { "input": "\u0966\u0967\u0968", "value": "", "code": null },
    { "input": " 9876543210 ", "value": "9876543210", "code": null },
    { "input": "0123456789", "value": "0123456789", "code": null },
  ],
  "password": [
    { "input": "", "code": "password.rule" },
    { "input": "abcde1!", "code": "password.rule" },
    { "input": "abcdef1!", "code": null },
    { "input": "abcdefghijklm12!", "code": null },
    { "input": "abcdefghijklmn12!", "code": "password.rule" },
    { "input": "abcdefgh!", "code": "password.rule" },
    { "input": "abcdefgh1", "code": "password.rule" },
    { "input": "abcd efg1!", "code": "password.rule" },
    { "input": "abcdefg1!?", "code": "password.rule" },
    { "input": "abcd\u00e9fg1!", "code": "password.rule" },
    { "input": "12345678!", "code": null },
    { "input": "!!!!!!!1", "code": null },
    { "input": "ABCDEFG1#", "code": null },
    { "input": "Passw0rd", "code": "password.rule" },
    { "input": "\ud83d\ude97bcdefg1!", "code": "password.rule" },
    { "input": "abcdefg1!\n", "code": "password.rule" },
    { "input": "Passw0rd!", "code": null },
    { "input": "Passw0rd@", "code": null },
    { "input": "Passw0rd#", "code": null },
    { "input": "Passw0rd$", "code": null },
    { "input": "Passw0rd%", "code": null },
    { "input": "Passw0rd^", "code": null },
    { "input": "Passw0rd&", "code": null },
    { "input": "Passw0rd*", "code": null },
  ],
  "confirmation": [
    { "password": "abcdef1!", "confirmation": "abcdef1!", "code": null },
    { "password": "abcdef1!", "confirmation": "abcdef1@", "code": "password.mismatch" },
    { "password": "abcdef1!", "confirmation": "", "code": "password.mismatch" },
    { "password": "", "confirmation": "", "code": null },
    { "password": "abc", "confirmation": "ABC", "code": "password.mismatch" },
    { "password": "a ", "confirmation": "a", "code": "password.mismatch" },
  ],
  "signUp": [
    {
      "form": {
        "name": "Asha",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "9876543210",
      },
      "allowed": true,
    },
    {
      "form": {
        "name": "",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "9876543210",
      },
      "allowed": false,
    },
    {
      "form": {
        "name": "   ",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "9876543210",
      },
      "allowed": false,
    },
    {
      "form": { "name": "Asha", "email": "", "password": "abcdef1!", "confirmation": "abcdef1!", "mobile": "9876543210" },
      "allowed": false,
    },
    {
      "form": {
        "name": "Asha",
        "email": "not-an-email",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "9876543210",
      },
      "allowed": true,
    },
    {
      "form": {
        "name": "Asha",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "987654321",
      },
      "allowed": false,
    },
    {
      "form": {
        "name": "Asha",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1!",
        "mobile": "98765-43210",
      },
      "allowed": true,
    },
    {
      "form": {
        "name": "Asha",
        "email": "asha@example.in",
        "password": "abcdef1!",
        "confirmation": "abcdef1@",
        "mobile": "9876543210",
      },
      "allowed": false,
    },
    {
      "form": {
        "name": "Asha",
        "email": "asha@example.in",
        "password": "abcdefgh",
        "confirmation": "abcdefgh",
        "mobile": "9876543210",
      },
      "allowed": false,
    },
    {
      "form": { "name": "Asha", "email": "asha@example.in", "password": "", "confirmation": "", "mobile": "9876543210" },
      "allowed": false,
    },
  ],
  "pincode": [
    { "input": "110001", "code": null },
    { "input": " 560001 ", "code": null },
    { "input": "", "code": "pincode.invalid" },
    { "input": "11000", "code": "pincode.invalid" },
    { "input": "1100011", "code": "pincode.invalid" },
    { "input": "011001", "code": "pincode.invalid" },
    { "input": "11000a", "code": "pincode.invalid" },
    { "input": "110 001", "code": "pincode.invalid" },
    { "input": "999999", "code": null },
    { "input": "100000", "code": null },
    { "input": "\uff1110001", "code": "pincode.invalid" },
  ],
  "addressMobile": [
    { "input": "6000000000", "code": null },
    { "input": "5999999999", "code": "address.mobile_invalid" },
    { "input": "9876543210", "code": null },
    { "input": "7123456789", "code": null },
    { "input": "8123456789", "code": null },
    { "input": "987654321", "code": "address.mobile_invalid" },
    { "input": "98765432101", "code": "address.mobile_invalid" },
    { "input": "0876543210", "code": "address.mobile_invalid" },
    { "input": " 9876543210 ", "code": null },
    { "input": "98765 43210", "code": "address.mobile_invalid" },
    { "input": "+919876543210", "code": "address.mobile_invalid" },
    { "input": "", "code": "address.mobile_invalid" },
  ],
  "gstin": [
    { "input": "27AAPFU0939F1ZV", "code": null },
    { "input": "07AAKCM4821R1ZU", "code": null },
    { "input": "29AAGCB7383J1Z4", "code": null },
    { "input": "33AAACH7409R1Z8", "code": null },
    { "input": "24AAACC1206D1ZM", "code": null },
    { "input": "09AAACH7409R1ZZ", "code": null },
    { "input": " 27aapfu0939f1zv ", "code": null },
    { "input": "27 AAPFU 0939F 1ZV", "code": null },
    { "input": "27AAPFU0939F1ZW", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939F1Z", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939F1ZV1", "code": "address.gstin_invalid" },
    { "input": "27AAPFU-939F1ZV", "code": "address.gstin_invalid" },
    { "input": "00AAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "39AAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "97AAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "99AAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "A7AAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPF10939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU093AF1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU093911ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939F0ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939F1YV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939FAZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939F\u00e9ZV", "code": "address.gstin_invalid" },
    { "input": "", "code": "address.gstin_invalid" },
    { "input": "27DAPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27ADPFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AASFU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPIU0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFX0939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU3939F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0239F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0969F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0932F1ZV", "code": "address.gstin_invalid" },
    { "input": "27AAPFU0939I1ZV", "code": "address.gstin_invalid" },
  ],
  "address": [
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "",
        "street": "",
        "landmark": "",
        "city": "",
        "state": "",
        "mobileNo": "",
        "pincode": "",
        "gstin": "",
      },
      "errors": {
        "houseNo": "address.house_no_required",
        "city": "address.city_required",
        "state": "address.state_required",
        "mobileNo": "address.mobile_invalid",
        "pincode": "pincode.invalid",
      },
    },
    {
      "input": {
        "houseNo": "  ",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "houseNo": "address.house_no_required" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "",
        "state": "",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "city": "address.city_required", "state": "address.state_required" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "5876543210",
        "pincode": "011001",
        "gstin": "",
      },
      "errors": { "mobileNo": "address.mobile_invalid", "pincode": "pincode.invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": " tamil nadu ",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "JAMMU AND KASHMIR",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Dadra and Nagar Haveli and Daman and Diu",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Atlantis",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Tamil  Nadu",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "DL",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "07",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Andaman & Nicobar Islands",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": " ",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "",
      },
      "errors": { "state": "address.state_required" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "07AAKCM4821R1ZU",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": " 07aakcm4821r1zu ",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "  ",
      },
      "errors": {},
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "07AAKCM4821R1ZV",
      },
      "errors": { "gstin": "address.gstin_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": "New Delhi",
        "state": "Delhi",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "07AAKCM4821R1Z",
      },
      "errors": { "gstin": "address.gstin_invalid" },
    },
    {
      "input": {
        "houseNo": "12B",
        "street": "",
        "landmark": "Near Metro",
        "city": " ",
        "state": "Nowhere",
        "mobileNo": "9876543210",
        "pincode": "110001",
        "gstin": "GSTIN",
      },
      "errors": { "city": "address.city_required", "state": "address.state_invalid", "gstin": "address.gstin_invalid" },
    },
  ],
  "otp": [
    { "input": "", "code": "otp.required" },
    { "input": "   ", "code": "otp.required" },
    { "input": "12345", "code": "otp.invalid" },
    { "input": "123456", "code": null },
    { "input": "1234567", "code": "otp.invalid" },
    { "input": "12345a", "code": "otp.invalid" },
    { "input": " 000000 ", "code": null },
    { "input": "12 456", "code": "otp.invalid" },
    { "input": "\u0661\u0662\u0663\u0664\u0665\u0666", "code": "otp.invalid" },
  ],
  "email": [
    { "input": "asha@example.in", "value": "asha@example.in", "code": null },
    {
      "input": " Asha.Rao+parts@Mail.Example.CO.IN ",
      "value": "asha.rao+parts@mail.example.co.in",
      "code": null,
    },
    { "input": "a@b.co", "value": "a@b.co", "code": null },
    { "input": "", "value": null, "code": "email.invalid" },
    { "input": "asha", "value": null, "code": "email.invalid" },
    { "input": "@example.in", "value": null, "code": "email.invalid" },
    { "input": "asha@", "value": null, "code": "email.invalid" },
    { "input": "asha@example", "value": null, "code": "email.invalid" },
    { "input": "a@b@c.in", "value": null, "code": "email.invalid" },
    { "input": "asha @example.in", "value": null, "code": "email.invalid" },
    { "input": "asha@.in", "value": null, "code": "email.invalid" },
    { "input": "asha@example..in", "value": null, "code": "email.invalid" },
    { "input": "asha@-x.in", "value": null, "code": "email.invalid" },
  ],
  "ncr": [
    { "pincode": "110001", "ncr": true },
    { "pincode": "121001", "ncr": true },
    { "pincode": "201301", "ncr": true },
    { "pincode": "122001", "ncr": true },
    { "pincode": "109999", "ncr": false },
    { "pincode": "111001", "ncr": false },
    { "pincode": "120999", "ncr": false },
    { "pincode": "123001", "ncr": false },
    { "pincode": "200999", "ncr": false },
    { "pincode": "202001", "ncr": false },
    { "pincode": "560001", "ncr": false },
    { "pincode": " 110001", "ncr": true },
    { "pincode": "110", "ncr": true },
    { "pincode": "11", "ncr": false },
    { "pincode": "", "ncr": false },
  ],
  "truncate": [
    { "title": "", "max": 40, "result": "" },
    { "title": "Front Brake Pad Set", "max": 5, "result": "Front..." },
    { "title": "abc ", "max": 3, "result": "abc..." },
    { "title": "Caf\u00e9 Mirror", "max": 4, "result": "Caf\u00e9..." },
    {
      "title": "\u092c\u094d\u0930\u0947\u0915 \u092a\u0948\u0921",
      "max": 5,
      "result": "\u092c\u094d\u0930\u0947\u0915...",
    },
    {
      "title": "\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97",
      "max": 45,
      "result": "\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97\ud83d\ude97...",
    },
    { "title": "x", "max": 0, "result": "..." },
    {
      "title": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "max": 50,
      "result": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    },
    {
      "title": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "max": 50,
      "result": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...",
    },
    {
      "title": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "max": 45,
      "result": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    },
    {
      "title": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "max": 45,
      "result": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...",
    },
    {
      "title": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "max": 70,
      "result": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    },
    {
      "title": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "max": 70,
      "result": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...",
    },
    {
      "title": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "max": 45,
      "result": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    },
    {
      "title": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "max": 45,
      "result": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...",
    },
    {
      "title": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
      "max": 40,
      "result": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    },
    {
      "title": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "max": 40,
      "result": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...",
    },
  ],
  "conditionLabel": [
    { "producttype": "new", "label": "New" },
    { "producttype": "new_without_box", "label": "New Without Box" },
    { "producttype": "refurbished", "label": "Refurbished" },
    { "producttype": "old", "label": "Old" },
    { "producttype": "used", "label": "Stock Lot" },
    { "producttype": "", "label": "Stock Lot" },
    { "producttype": "NEW", "label": "Stock Lot" },
    { "producttype": " new", "label": "Stock Lot" },
    { "producttype": "stock_lot", "label": "Stock Lot" },
    { "producttype": "constructor", "label": "Stock Lot" },
    { "producttype": "__proto__", "label": "Stock Lot" },
  ],
  "filterParse": [
    { "kind": "product_type", "raw": "", "values": [], "code": null },
    { "kind": "product_type", "raw": "  ", "values": [], "code": null },
    { "kind": "product_type", "raw": "old", "values": ["old"], "code": null },
    { "kind": "product_type", "raw": "old--new", "values": ["old", "new"], "code": null },
    { "kind": "product_type", "raw": "OLD--New", "values": ["old", "new"], "code": null },
    { "kind": "product_type", "raw": "new--old--new", "values": ["new", "old"], "code": null },
    { "kind": "product_type", "raw": "used", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "refurbished", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "old--", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "old----new", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "old-new", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "--old", "values": null, "code": "filter.invalid" },
    { "kind": "product_type", "raw": "old---new", "values": null, "code": "filter.invalid" },
    { "kind": "fuel_type", "raw": "petrol--diesel", "values": ["petrol", "diesel"], "code": null },
    { "kind": "fuel_type", "raw": "Diesel", "values": ["diesel"], "code": null },
    { "kind": "fuel_type", "raw": "hybrid", "values": null, "code": "filter.invalid" },
    { "kind": "fuel_type", "raw": "petrol--petrol", "values": ["petrol"], "code": null },
    {
      "kind": "oem",
      "raw": "mercedes-benz--land-rover",
      "values": ["mercedes-benz", "land-rover"],
      "code": null,
    },
    { "kind": "oem", "raw": "bmw", "values": ["bmw"], "code": null },
    { "kind": "oem", "raw": "AUDI", "values": ["audi"], "code": null },
    { "kind": "oem", "raw": "mercedes---benz", "values": null, "code": "filter.invalid" },
    { "kind": "oem", "raw": "-bmw", "values": null, "code": "filter.invalid" },
    { "kind": "oem", "raw": "bmw-", "values": null, "code": "filter.invalid" },
    { "kind": "oem", "raw": "land rover", "values": null, "code": "filter.invalid" },
    { "kind": "oem", "raw": "audi_a4", "values": null, "code": "filter.invalid" },
    { "kind": "oem", "raw": "\u212aia", "values": null, "code": "filter.invalid" },
  ],
  "filterPrint": [
    { "kind": "product_type", "values": [], "printed": "" },
    { "kind": "product_type", "values": ["old"], "printed": "old" },
    { "kind": "product_type", "values": ["old", "new"], "printed": "old--new" },
    { "kind": "product_type", "values": ["new", "old", "new"], "printed": "new--old" },
    { "kind": "fuel_type", "values": ["diesel", "petrol"], "printed": "diesel--petrol" },
    {
      "kind": "oem",
      "values": ["mercedes-benz", "bmw", "land-rover"],
      "printed": "mercedes-benz--bmw--land-rover",
    },
  ],
  "orderStatus": [
    { "status": 1, "statusString": "placed", "colour": "blue", "label": "placed" },
    { "status": 2, "statusString": "confirmed", "colour": "purple", "label": "confirmed" },
    { "status": 3, "statusString": "packed", "colour": "dark-yellow", "label": "packed" },
    { "status": 4, "statusString": "shipped", "colour": "light-yellow", "label": "shipped" },
    { "status": 5, "statusString": "delivered", "colour": "green", "label": "delivered" },
    { "status": 6, "statusString": "cancelled", "colour": "red", "label": "cancelled" },
    { "status": 6, "statusString": "admin-cancelled", "colour": "red", "label": "cancelled" },
    { "status": 0, "statusString": "unknown", "colour": "grey", "label": "unknown" },
    { "status": 7, "statusString": "returned", "colour": "grey", "label": "returned" },
    { "status": -1, "statusString": "", "colour": "grey", "label": "" },
    { "status": 6, "statusString": "Admin-Cancelled", "colour": "red", "label": "Admin-Cancelled" },
  ],
  "totals": [
    {
      "lines": [
        { "unitPrice": 100000, "quantity": 3, "insideNcr": 5000, "outsideNcr": 15000 },
        { "unitPrice": 249950, "quantity": 1, "insideNcr": 0, "outsideNcr": 20000 },
      ],
      "pincode": "110001",
      "offerExp": 1,
      "percentage": 10,
      "items": 549950,
      "discount": 54900,
      "delivery": 5000,
      "total": 500050,
    },
    {
      "lines": [
        { "unitPrice": 100000, "quantity": 3, "insideNcr": 5000, "outsideNcr": 15000 },
        { "unitPrice": 249950, "quantity": 1, "insideNcr": 0, "outsideNcr": 20000 },
      ],
      "pincode": "560001",
      "offerExp": 1,
      "percentage": 10,
      "items": 549950,
      "discount": 54900,
      "delivery": 35000,
      "total": 530050,
    },
    {
      "lines": [{ "unitPrice": 99999, "quantity": 1, "insideNcr": 0, "outsideNcr": 0 }],
      "pincode": "560001",
      "offerExp": 5,
      "percentage": 10,
      "items": 99999,
      "discount": 9900,
      "delivery": 0,
      "total": 90099,
    },
    {
      "lines": [{ "unitPrice": 123450, "quantity": 1, "insideNcr": 1000, "outsideNcr": 2000 }],
      "pincode": "122001",
      "offerExp": 1,
      "percentage": 7,
      "items": 123450,
      "discount": 8600,
      "delivery": 1000,
      "total": 115850,
    },
    {
      "lines": [{ "unitPrice": 50000, "quantity": 2, "insideNcr": 1000, "outsideNcr": 2000 }],
      "pincode": "122001",
      "offerExp": 0,
      "percentage": 50,
      "items": 100000,
      "discount": 0,
      "delivery": 1000,
      "total": 101000,
    },
    {
      "lines": [{ "unitPrice": 50000, "quantity": 2, "insideNcr": 1000, "outsideNcr": 2000 }],
      "pincode": "122001",
      "offerExp": -3,
      "percentage": 50,
      "items": 100000,
      "discount": 0,
      "delivery": 1000,
      "total": 101000,
    },
    {
      "lines": [{ "unitPrice": 50050, "quantity": 1, "insideNcr": 0, "outsideNcr": 0 }],
      "pincode": "201301",
      "offerExp": 1,
      "percentage": 100,
      "items": 50050,
      "discount": 50000,
      "delivery": 0,
      "total": 50,
    },
    {
      "lines": [],
      "pincode": "110001",
      "offerExp": 1,
      "percentage": 10,
      "items": 0,
      "discount": 0,
      "delivery": 0,
      "total": 0,
    },
  ],
};
