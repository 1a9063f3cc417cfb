//! Store credit (issue 24): a balance the shop grants a customer, for example when it accepts a
//! returned part as credit (the specification's "6-month credit note"; called store credit so it is
//! not confused with the GST credit note). Each grant is valid for six calendar months from the day
//! it was granted, in India. At checkout it is a way of paying, not a discount: GST stays on the full
//! price.
//!
//! The ledger (`store_credit` table, migration 29) keeps one row per grant with what remains of it;
//! spending takes from the grants that expire first.

use crate::calendar::add_months_ist;
use crate::money::Money;

/// How long a grant of store credit can be spent: six calendar months.
pub const VALID_MONTHS: u32 = 6;

/// When a grant made at `granted_at` (seconds since 1970 UTC) expires: the same time six calendar
/// months on in India, or on the last day of that month when it is shorter.
#[must_use]
pub fn expires_at(granted_at: i64) -> i64 {
    add_months_ist(granted_at, VALID_MONTHS)
}

/// Why the shop granted credit: the ledger's `source`, unique per grant so a retried grant is
/// written once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrantSource {
    /// An accepted return resolved as store credit (the return's id).
    Return(String),
    /// The part of a refund that went back to credit because the order was paid with credit (the
    /// refund's id).
    Refund(String),
}

impl GrantSource {
    /// The ledger's `source` text: `return:{id}` or `refund:{id}`.
    #[must_use]
    pub fn key(&self) -> String {
        match self {
            GrantSource::Return(id) => format!("return:{id}"),
            GrantSource::Refund(id) => format!("refund:{id}"),
        }
    }
}

/// One grant as the ledger keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    pub amount: Money,
    /// What is left of it, never below zero or above `amount`.
    pub remaining: Money,
    pub granted_at: i64,
    pub expires_at: i64,
    pub source: GrantSource,
}

impl Grant {
    /// A new grant of `amount` made at `granted_at`, whole and valid for [`VALID_MONTHS`].
    #[must_use]
    pub fn new(amount: Money, granted_at: i64, source: GrantSource) -> Self {
        Grant { amount, remaining: amount, granted_at, expires_at: expires_at(granted_at), source }
    }

    /// Whether it can still be spent at `now`.
    #[must_use]
    pub fn live_at(&self, now: i64) -> bool {
        now < self.expires_at && self.remaining.paise() > 0
    }
}

/// A live grant as spending sees it: its ledger id, what remains and when it expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spendable {
    /// The ledger's id of the grant (opaque here).
    pub id: String,
    pub remaining: Money,
    pub expires_at: i64,
}

/// One part of a spend: how much it takes from which grant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Take {
    pub grant: String,
    pub amount: Money,
}

/// How an order's total is paid: the credit that applies, the grants it is taken from, and what
/// is left to pay by card. Always `credit + card == total`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spend {
    /// The credit that applies: `min(balance, total)`.
    pub credit: Money,
    /// What is left to pay by card: `total − credit`, never below zero.
    pub card: Money,
    /// Where the credit comes from: the grants that expire first, first (ties by id).
    pub takes: Vec<Take>,
}

/// The balance a customer can spend at `now`: what remains of every live grant.
#[must_use]
pub fn balance_at(grants: &[Spendable], now: i64) -> Money {
    grants.iter().filter(|g| now < g.expires_at && g.remaining.paise() > 0).map(|g| g.remaining).sum()
}

/// The earliest expiry among the grants still live at `now` (what the customer is told), if any.
#[must_use]
pub fn next_expiry(grants: &[Spendable], now: i64) -> Option<i64> {
    grants.iter().filter(|g| now < g.expires_at && g.remaining.paise() > 0).map(|g| g.expires_at).min()
}

/// The shop's rule for paying `total` with the credit of `grants` at `now`: credit is a way of
/// paying, not a discount (GST stays on the full price), so it applies up to the whole total and
/// never beyond the live balance; it is taken from the grants that expire first (ties by id), and
/// the rest is paid by card. Expired or spent grants are never touched; a negative total pays
/// nothing.
#[must_use]
pub fn spend(grants: &[Spendable], total: Money, now: i64) -> Spend {
    let total = Money::from_paise(total.paise().max(0));
    let mut live: Vec<&Spendable> = grants.iter().filter(|g| now < g.expires_at && g.remaining.paise() > 0).collect();
    live.sort_by(|a, b| a.expires_at.cmp(&b.expires_at).then_with(|| a.id.cmp(&b.id)));
    let mut left = total.paise();
    let mut takes = Vec::new();
    for grant in live {
        if left == 0 {
            break;
        }
        let amount = grant.remaining.paise().min(left);
        left -= amount;
        takes.push(Take { grant: grant.id.clone(), amount: Money::from_paise(amount) });
    }
    let credit = total - Money::from_paise(left);
    Spend { credit, card: Money::from_paise(left), takes }
}

/// What a lapsed or failed hold gives back to each grant: its takes, merged per grant, in the
/// order they were taken. A grant gets back exactly what was taken from it (even when it has
/// expired meanwhile: then the amount is there but no longer spendable).
#[must_use]
pub fn given_back(takes: &[Take]) -> Vec<Take> {
    let mut back: Vec<Take> = Vec::new();
    for take in takes.iter().filter(|t| t.amount.paise() > 0) {
        match back.iter_mut().find(|b| b.grant == take.grant) {
            Some(b) => b.amount = b.amount + take.amount,
            None => back.push(take.clone()),
        }
    }
    back
}

/// How a refund of `amount` from an order paid `credit` by store credit and `card` by card splits:
/// the card never gets back more than it paid (less what earlier refunds gave it), and the rest
/// goes back as a new grant of store credit. Returns `(to_card, to_credit)`; `to_card + to_credit
/// == amount` unless the refund exceeds what both paid (then both are capped).
#[must_use]
pub fn refund_split(
    amount: Money,
    card_paid: Money,
    card_refunded: Money,
    credit_paid: Money,
    credit_refunded: Money,
) -> (Money, Money) {
    let amount = amount.paise().max(0);
    let card_left = (card_paid.paise() - card_refunded.paise()).max(0);
    let credit_left = (credit_paid.paise() - credit_refunded.paise()).max(0);
    let to_card = amount.min(card_left);
    let to_credit = (amount - to_card).min(credit_left);
    (Money::from_paise(to_card), Money::from_paise(to_credit))
}

/// How the refund of `amount` that follows `earlier` refunds (in the order they were made) of an
/// order that `card_paid` paid by card and `credit_paid` with store credit splits: each refund gives
/// back to the card first, up to what the card paid less what earlier refunds gave it, and the rest
/// as new store credit. Returns `(to_card, to_credit)`.
#[must_use]
pub fn refund_parts(card_paid: Money, credit_paid: Money, earlier: &[Money], amount: Money) -> (Money, Money) {
    let (mut card_back, mut credit_back) = (Money::ZERO, Money::ZERO);
    for before in earlier {
        let (card, credit) = refund_split(*before, card_paid, card_back, credit_paid, credit_back);
        card_back = card_back + card;
        credit_back = credit_back + credit;
    }
    refund_split(amount, card_paid, card_back, credit_paid, credit_back)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::calendar::{days_from_civil, IST_OFFSET_SECONDS};

    fn ist(year: i32, month: u8, day: u8, hour: i64) -> i64 {
        days_from_civil(year, month, day) * 86_400 + hour * 3600 - IST_OFFSET_SECONDS
    }

    #[test]
    fn six_calendar_months_in_india() {
        assert_eq!(expires_at(ist(2026, 5, 10, 9)), ist(2026, 11, 10, 9));
        assert_eq!(expires_at(ist(2026, 8, 31, 23)), ist(2027, 2, 28, 23));
        assert_eq!(expires_at(ist(2027, 8, 31, 1)), ist(2028, 2, 29, 1));
        assert_eq!(expires_at(ist(2026, 11, 27, 12)), ist(2027, 5, 27, 12));
    }

    #[test]
    fn a_grant_lives_until_it_expires_or_is_spent() {
        let at = ist(2026, 1, 1, 10);
        let mut grant = Grant::new(Money::from_rupees(500), at, GrantSource::Return("r1".into()));
        assert_eq!(grant.source.key(), "return:r1");
        assert!(grant.live_at(at));
        assert!(!grant.live_at(grant.expires_at));
        grant.remaining = Money::from_paise(0);
        assert!(!grant.live_at(at));
    }
    fn g(id: &str, paise: i64, expires_at: i64) -> Spendable {
        Spendable { id: id.into(), remaining: Money::from_paise(paise), expires_at }
    }

    #[test]
    fn credit_pays_up_to_the_total_from_the_earliest_expiry() {
        let grants = [g("b", 30_000, 200), g("a", 50_000, 100), g("c", 10_000, 50)];
        let paid = spend(&grants, Money::from_paise(55_000), 10);
        assert_eq!(paid.credit, Money::from_paise(55_000));
        assert_eq!(paid.card, Money::ZERO);
        assert_eq!(
            paid.takes,
            vec![
                Take { grant: "c".into(), amount: Money::from_paise(10_000) },
                Take { grant: "a".into(), amount: Money::from_paise(45_000) },
            ]
        );
        let short = spend(&grants, Money::from_paise(100_000), 10);
        assert_eq!(short.credit, Money::from_paise(90_000));
        assert_eq!(short.card, Money::from_paise(10_000));
    }

    #[test]
    fn expired_and_spent_grants_are_not_spent() {
        let grants = [g("old", 50_000, 100), g("empty", 0, 500), g("live", 2_000, 500)];
        assert_eq!(balance_at(&grants, 100), Money::from_paise(2_000));
        assert_eq!(next_expiry(&grants, 100), Some(500));
        assert_eq!(next_expiry(&grants, 500), None);
        let paid = spend(&grants, Money::from_paise(10_000), 100);
        assert_eq!(paid.credit, Money::from_paise(2_000));
        assert_eq!(paid.takes, vec![Take { grant: "live".into(), amount: Money::from_paise(2_000) }]);
        assert_eq!(spend(&grants, Money::from_paise(-5), 0).credit, Money::ZERO);
    }

    #[test]
    fn a_lapsed_hold_gives_back_what_it_took_per_grant() {
        let takes = [
            Take { grant: "a".into(), amount: Money::from_paise(100) },
            Take { grant: "b".into(), amount: Money::from_paise(0) },
            Take { grant: "a".into(), amount: Money::from_paise(50) },
        ];
        assert_eq!(given_back(&takes), vec![Take { grant: "a".into(), amount: Money::from_paise(150) }]);
    }

    #[test]
    fn a_refund_never_gives_the_card_more_than_it_paid() {
        // 300 by card, 700 by credit; 200 already back to the card.
        let split = refund_split(
            Money::from_paise(500),
            Money::from_paise(300),
            Money::from_paise(200),
            Money::from_paise(700),
            Money::ZERO,
        );
        assert_eq!(split, (Money::from_paise(100), Money::from_paise(400)));
        let all_credit =
            refund_split(Money::from_paise(500), Money::ZERO, Money::ZERO, Money::from_paise(700), Money::ZERO);
        assert_eq!(all_credit, (Money::ZERO, Money::from_paise(500)));
    }

    #[test]
    fn refunds_of_an_order_paid_partly_by_credit_go_to_the_card_first() {
        let (card, credit) = (Money::from_paise(30_000), Money::from_paise(70_000));
        assert_eq!(
            refund_parts(card, credit, &[], Money::from_paise(20_000)),
            (Money::from_paise(20_000), Money::ZERO)
        );
        let earlier = [Money::from_paise(20_000)];
        assert_eq!(
            refund_parts(card, credit, &earlier, Money::from_paise(50_000)),
            (Money::from_paise(10_000), Money::from_paise(40_000))
        );
        let earlier = [Money::from_paise(20_000), Money::from_paise(50_000)];
        assert_eq!(
            refund_parts(card, credit, &earlier, Money::from_paise(30_000)),
            (Money::ZERO, Money::from_paise(30_000))
        );
    }

    mod properties {
        use super::*;
        use proptest::prelude::*;

        fn grants() -> impl Strategy<Value = Vec<Spendable>> {
            prop::collection::vec((0i64..2_000_000, 0i64..1_000), 0..8).prop_map(|v| {
                v.into_iter().enumerate().map(|(i, (paise, exp))| g(&format!("g{i}"), paise, exp)).collect()
            })
        }

        proptest! {
            #[test]
            fn spending_is_bounded_and_adds_up(grants in grants(), total in 0i64..5_000_000, now in 0i64..1_000) {
                let paid = spend(&grants, Money::from_paise(total), now);
                let balance = balance_at(&grants, now);
                prop_assert!(paid.credit <= balance);
                prop_assert!(paid.credit.paise() <= total);
                prop_assert_eq!(paid.credit.paise(), balance.paise().min(total));
                prop_assert!(paid.card.paise() >= 0);
                prop_assert_eq!(paid.credit + paid.card, Money::from_paise(total));
                prop_assert_eq!(paid.takes.iter().map(|t| t.amount).sum::<Money>(), paid.credit);
                for take in &paid.takes {
                    let grant = grants.iter().find(|x| x.id == take.grant).expect("a grant");
                    prop_assert!(now < grant.expires_at);
                    prop_assert!(take.amount.paise() > 0 && take.amount <= grant.remaining);
                }
                // Earliest expiry first: a grant is only touched when every earlier-expiring live one is used up.
                for pair in paid.takes.windows(2) {
                    let first = grants.iter().find(|x| x.id == pair[0].grant).expect("a grant");
                    prop_assert_eq!(pair[0].amount, first.remaining);
                }
                let back: Money = given_back(&paid.takes).iter().map(|t| t.amount).sum();
                prop_assert_eq!(back, paid.credit);
            }

            #[test]
            fn a_series_of_refunds_never_gives_the_card_more_than_it_paid(card in 0i64..1_000_000, credit in 0i64..1_000_000, refunds in prop::collection::vec(0i64..600_000, 0..6)) {
                let (card_paid, credit_paid) = (Money::from_paise(card), Money::from_paise(credit));
                let amounts: Vec<Money> = refunds.iter().copied().map(Money::from_paise).collect();
                let (mut to_card, mut to_credit) = (0, 0);
                for i in 0..amounts.len() {
                    let (c, s) = refund_parts(card_paid, credit_paid, &amounts[..i], amounts[i]);
                    to_card += c.paise();
                    to_credit += s.paise();
                }
                prop_assert!(to_card <= card);
                prop_assert!(to_credit <= credit);
                let asked: i64 = refunds.iter().sum();
                prop_assert_eq!(to_card + to_credit, asked.min(card + credit));
            }

            #[test]
            fn refunds_split_within_what_was_paid(amount in 0i64..3_000_000, card in 0i64..1_000_000, card_back in 0i64..1_000_000, credit in 0i64..1_000_000) {
                let (to_card, to_credit) = refund_split(Money::from_paise(amount), Money::from_paise(card), Money::from_paise(card_back), Money::from_paise(credit), Money::ZERO);
                prop_assert!(to_card.paise() >= 0 && to_credit.paise() >= 0);
                prop_assert!(to_card.paise() <= (card - card_back).max(0));
                prop_assert!(to_credit.paise() <= credit);
                prop_assert!(to_card.paise() + to_credit.paise() <= amount);
                if amount <= (card - card_back).max(0) + credit {
                    prop_assert_eq!(to_card.paise() + to_credit.paise(), amount);
                }
            }
        }
    }
}
