//! The tax invoice as printed: who sells, who buys, where the supply goes, on which day.

use super::{amount_in_words, Invoice, InvoiceDate, InvoiceInput, InvoiceNumber};
use crate::address::{Address, IndianMobile};
use crate::order::OrderLine;
use crate::pricing::DiscountPercent;
use crate::tax::{GstState, Gstin};
use crate::Money;

/// The shop as its invoices name it, from configuration (which checks that the
/// GSTIN's state code is the state's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seller {
    pub legal_name: String,
    /// The registered office, one printed line each.
    pub address_lines: Vec<String>,
    pub gstin: Gstin,
    pub state: GstState,
}

/// The customer and the delivery address. Goods are supplied where they are
/// delivered, so `state` is the place of supply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Buyer {
    pub name: String,
    pub address_lines: Vec<String>,
    pub mobile: IndianMobile,
    pub state: GstState,
    /// A business buyer's GSTIN, printed when given.
    pub gstin: Option<Gstin>,
}

impl Buyer {
    /// The buyer `name` at a delivery address: house, street and landmark,
    /// then city and pincode, each on a line (empty parts left out); the
    /// address's state is the place of supply and its GSTIN, when given, the buyer's.
    #[must_use]
    pub fn at(name: &str, address: &Address) -> Self {
        let address_lines = [
            address.house_no.clone(),
            address.street.clone(),
            address.landmark.clone(),
            format!("{} {}", address.city, address.pincode),
        ]
        .into_iter()
        .filter(|line| !line.is_empty())
        .collect();
        Self {
            name: name.trim().to_owned(),
            address_lines,
            mobile: address.mobile_no.clone(),
            state: address.state,
            gstin: address.gstin.clone(),
        }
    }
}

/// What a tax invoice is built from: the parties, the order and its invoice number.
#[derive(Debug, Clone)]
pub struct TaxInvoiceInput<'a> {
    pub seller: Seller,
    pub buyer: Buyer,
    pub number: InvoiceNumber,
    /// The day the order was placed, in India ([`InvoiceDate::at_unix_seconds`]).
    pub date: InvoiceDate,
    pub lines: &'a [OrderLine],
    /// The order's discount percentage (0 when none applied).
    pub discount: DiscountPercent,
    pub delivery_charge: Money,
}

/// A GST tax invoice ready to print. Built only by [`TaxInvoice::build`], so its
/// CGST + SGST or IGST always follows the seller's state and the place of supply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaxInvoice {
    seller: Seller,
    buyer: Buyer,
    date: InvoiceDate,
    invoice: Invoice,
    /// What of the total the customer paid with store credit (a way of paying, not a discount: the
    /// tax is on the full price); zero when none.
    store_credit: Money,
}

impl TaxInvoice {
    /// Lines, tax rows and total by [`Invoice::build`], between the seller's
    /// state and the buyer's.
    #[must_use]
    pub fn build(input: TaxInvoiceInput<'_>) -> Self {
        let invoice = Invoice::build(&InvoiceInput {
            number: input.number,
            lines: input.lines,
            discount: input.discount,
            delivery_charge: input.delivery_charge,
            seller_state: input.seller.state.name,
            delivery_state: input.buyer.state.name,
        });
        Self { seller: input.seller, buyer: input.buyer, date: input.date, invoice, store_credit: Money::ZERO }
    }

    /// The invoice of an order paid partly or wholly with `credit` of store credit (at most the
    /// total; the rest was paid by card).
    #[must_use]
    pub fn with_store_credit(mut self, credit: Money) -> Self {
        self.store_credit = credit.max(Money::ZERO).min(self.invoice.total);
        self
    }

    /// What of the total was paid with store credit (zero when none).
    #[must_use]
    pub fn paid_by_store_credit(&self) -> Money {
        self.store_credit
    }

    /// What of the total was paid by card: the total less the store credit.
    #[must_use]
    pub fn paid_by_card(&self) -> Money {
        self.invoice.total - self.store_credit
    }

    #[must_use]
    pub fn seller(&self) -> &Seller {
        &self.seller
    }

    #[must_use]
    pub fn buyer(&self) -> &Buyer {
        &self.buyer
    }

    #[must_use]
    pub fn number(&self) -> InvoiceNumber {
        self.invoice.number
    }

    #[must_use]
    pub fn date(&self) -> InvoiceDate {
        self.date
    }

    /// Lines (each with HSN/SAC, taxable value and tax), tax rows and total.
    #[must_use]
    pub fn invoice(&self) -> &Invoice {
        &self.invoice
    }

    /// The state the goods are delivered to.
    #[must_use]
    pub fn place_of_supply(&self) -> GstState {
        self.buyer.state
    }

    /// GST on this shop's sales is never payable by the buyer (no reverse charge).
    #[must_use]
    pub fn reverse_charge(&self) -> bool {
        false
    }

    /// The total paid, in words.
    #[must_use]
    pub fn total_in_words(&self) -> String {
        amount_in_words(self.invoice.total)
    }
}

#[cfg(test)]
#[expect(clippy::inconsistent_digit_grouping, reason = "paise written as rupees_paise, e.g. 2_499_50 is ₹2,499.50")]
mod tests {
    use super::*;
    use crate::address::AddressInput;
    use crate::cart::Quantity;
    use crate::catalog::ProductId;
    use crate::invoice::{FinancialYear, Supply};

    fn seller() -> Seller {
        Seller {
            legal_name: "Marque Parts Private Limited".into(),
            address_lines: vec!["14 Okhla Phase III".into(), "New Delhi 110020".into()],
            gstin: Gstin::parse("07AAKCM4821R1ZU").expect("valid"),
            state: GstState::by_name("Delhi").expect("a state"),
        }
    }

    fn address(state: &str) -> Address {
        Address::parse(&AddressInput {
            house_no: "B-12".into(),
            street: "".into(),
            landmark: "Near City Mall".into(),
            city: "Gurugram".into(),
            state: state.into(),
            mobile_no: "9810012345".into(),
            pincode: "122002".into(),
            ..AddressInput::default()
        })
        .expect("valid address")
    }

    fn invoice_to(state: &str) -> TaxInvoice {
        let lines = [OrderLine {
            product_id: ProductId("p1".into()),
            name: "Brake Pad Set".into(),
            quantity: Quantity::new(1).expect("≥1"),
            price: Money::from_paise(12_345_67),
            gst: 18,
            hsn: None,
            margin_scheme: None,
            warranty_days: None,
        }];
        TaxInvoice::build(TaxInvoiceInput {
            seller: seller(),
            buyer: Buyer::at(" Ravi Kumar ", &address(state)),
            number: InvoiceNumber::first(FinancialYear::starting(2026)),
            date: InvoiceDate::new(2026, 11, 22).expect("a day"),
            lines: &lines,
            discount: DiscountPercent::new(0).expect("ok"),
            delivery_charge: Money::ZERO,
        })
    }

    #[test]
    fn store_credit_pays_part_of_the_total_and_the_card_the_rest_never_more_than_the_total() {
        let doc = invoice_to("haryana");
        let total = doc.invoice().total;
        assert_eq!((doc.paid_by_store_credit(), doc.paid_by_card()), (Money::ZERO, total));
        let part = doc.clone().with_store_credit(Money::from_paise(1_000_00));
        assert_eq!(
            (part.paid_by_store_credit(), part.paid_by_card()),
            (Money::from_paise(1_000_00), total - Money::from_paise(1_000_00))
        );
        assert_eq!(part.invoice(), doc.invoice(), "the lines, tax and total are the full price's");
        let all = doc.clone().with_store_credit(total + Money::from_paise(1));
        assert_eq!((all.paid_by_store_credit(), all.paid_by_card()), (total, Money::ZERO));
    }

    #[test]
    fn the_buyer_lives_at_the_delivery_address() {
        let doc = invoice_to("haryana");
        let buyer = doc.buyer();
        assert_eq!(buyer.name, "Ravi Kumar");
        assert_eq!(buyer.address_lines, ["B-12", "Near City Mall", "Gurugram 122002"]);
        assert_eq!((doc.place_of_supply().name, doc.place_of_supply().code), ("Haryana", "06"));
        assert_eq!(buyer.mobile.as_str(), "9810012345");
    }

    #[test]
    fn the_place_of_supply_decides_the_tax() {
        assert_eq!(invoice_to("Haryana").invoice().supply, Supply::InterState);
        let local = invoice_to("Delhi");
        assert_eq!(local.invoice().supply, Supply::IntraState);
        assert_eq!(local.number().to_string(), "MQ/26-27/000001");
        assert_eq!(local.date().to_string(), "22 Nov 2026");
        assert!(!local.reverse_charge());
        assert_eq!(
            local.total_in_words(),
            "Rupees Twelve Thousand Three Hundred Forty-Five and Sixty-Seven Paise Only"
        );
    }
}
