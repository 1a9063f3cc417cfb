//! Grievances (Consumer Protection (E-Commerce) Rules 2020, rule 4(5)): a complaint sent from the
//! contact page becomes a numbered ticket that the grievance officer acknowledges within 48 hours
//! and resolves within one month of its receipt.
//!
//! The form is parsed here ([`GrievanceForm::parse`]); the clocks are computed here from the time the
//! ticket was received ([`acknowledge_by`], [`resolve_by`], [`Clocks::at`]); the moves between states
//! are the rule [`GrievanceState::apply`]. Stores keep what these decide.

use serde::{Deserialize, Serialize};

use crate::account::Email;
use crate::address::IndianMobile;
use crate::message::{user_facing_error, FieldErrors, Message, UserFacing};

pub use crate::invoice::{GrievanceNumber, GrievanceNumberError};

/// Most characters of the complainant's name.
pub const NAME_MAX_CHARS: usize = 100;
/// Fewest and most characters of the complaint itself.
pub const MESSAGE_MIN_CHARS: usize = 20;
pub const MESSAGE_MAX_CHARS: usize = 2000;
/// Most characters of an order number given with a complaint.
pub const ORDER_NUMBER_MAX_CHARS: usize = 40;
/// Most characters of a staff member's note on acknowledging or resolving.
pub const NOTE_MAX_CHARS: usize = 2000;
/// The rules' 48 hours to acknowledge a complaint.
pub const ACKNOWLEDGE_WITHIN_SECONDS: i64 = 48 * 3600;

/// What the contact page's form sends, as typed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GrievanceInput {
    pub name: String,
    pub email: String,
    pub mobile: String,
    /// Empty when the complaint is not about an order.
    pub order_number: String,
    pub message: String,
}

/// A field of the form, in form order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrievanceField {
    Name,
    Email,
    Mobile,
    OrderNumber,
    Message,
}

impl GrievanceField {
    /// The field's name in the call's JSON body.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GrievanceField::Name => "name",
            GrievanceField::Email => "email",
            GrievanceField::Mobile => "mobile",
            GrievanceField::OrderNumber => "orderNumber",
            GrievanceField::Message => "message",
        }
    }
}

/// Every field of the form that failed, each with its message.
pub type GrievanceErrors = FieldErrors<GrievanceField>;

/// A complaint as the form gave it, every field checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrievanceForm {
    /// Trimmed, 1 to [`NAME_MAX_CHARS`] characters.
    pub name: String,
    pub email: Email,
    pub mobile: IndianMobile,
    /// Trimmed; letters, digits, `-` and `/`, at most [`ORDER_NUMBER_MAX_CHARS`]. Not looked up: a
    /// public form must not tell anyone which order numbers exist.
    pub order_number: Option<String>,
    /// Trimmed, [`MESSAGE_MIN_CHARS`] to [`MESSAGE_MAX_CHARS`] characters.
    pub message: String,
}

fn chars_within(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.chars().count())
}

fn order_number_of(raw: &str) -> Result<Option<String>, Message> {
    let text = raw.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '/';
    if text.len() > ORDER_NUMBER_MAX_CHARS || !text.chars().all(allowed) {
        return Err(Message::GrievanceOrderNumberInvalid);
    }
    Ok(Some(text.to_uppercase()))
}

impl GrievanceForm {
    /// # Errors
    /// Every failing field at once: `grievance.name_invalid`, `email.invalid`,
    /// `address.mobile_invalid`, `grievance.order_number_invalid`, `grievance.message_invalid`.
    pub fn parse(input: &GrievanceInput) -> Result<Self, GrievanceErrors> {
        let name = input.name.trim();
        let name_ok = chars_within(name, 1, NAME_MAX_CHARS) && !name.chars().any(char::is_control);
        let message = input.message.trim();
        let message_ok = chars_within(message, MESSAGE_MIN_CHARS, MESSAGE_MAX_CHARS);
        let email = Email::parse(&input.email);
        let mobile = IndianMobile::parse(&input.mobile);
        let order_number = order_number_of(&input.order_number);
        match (name_ok, email, mobile, order_number, message_ok) {
            (true, Ok(email), Ok(mobile), Ok(order_number), true) => {
                Ok(GrievanceForm { name: name.to_owned(), email, mobile, order_number, message: message.to_owned() })
            }
            (name_ok, email, mobile, order_number, message_ok) => Err(FieldErrors::collect([
                (GrievanceField::Name, (!name_ok).then_some(Message::GrievanceNameInvalid)),
                (GrievanceField::Email, email.err().map(|e| e.message())),
                (GrievanceField::Mobile, mobile.err().map(|e| e.message())),
                (GrievanceField::OrderNumber, order_number.err()),
                (GrievanceField::Message, (!message_ok).then_some(Message::GrievanceMessageInvalid)),
            ])),
        }
    }
}

/// Where a ticket stands: received, acknowledged by the grievance officer, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GrievanceState {
    Open,
    Acknowledged,
    Resolved,
}

/// What the grievance officer does to a ticket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrievanceAction {
    /// Open → acknowledged; a note is optional.
    Acknowledge,
    /// Open or acknowledged → resolved, with the reply the complainant gets (required). Resolving an
    /// open ticket acknowledges it at the same time.
    Resolve,
}

impl GrievanceAction {
    /// `acknowledge`, `resolve`: as the admin call names them.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            GrievanceAction::Acknowledge => "acknowledge",
            GrievanceAction::Resolve => "resolve",
        }
    }

    /// # Errors
    /// `grievance.action_invalid` for anything but `acknowledge` or `resolve`.
    pub fn parse(text: &str) -> Result<Self, Message> {
        [GrievanceAction::Acknowledge, GrievanceAction::Resolve]
            .into_iter()
            .find(|a| a.code() == text)
            .ok_or(Message::GrievanceActionInvalid)
    }
}

/// Why a move is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrievanceMoveError {
    /// Acknowledging a ticket that is acknowledged or resolved already.
    AlreadyAcknowledged,
    /// Any move of a resolved ticket.
    AlreadyResolved,
    /// A resolution without a reply, or a note above [`NOTE_MAX_CHARS`].
    NoteInvalid,
}

impl UserFacing for GrievanceMoveError {
    fn message(&self) -> Message {
        match self {
            GrievanceMoveError::AlreadyAcknowledged => Message::GrievanceAlreadyAcknowledged,
            GrievanceMoveError::AlreadyResolved => Message::GrievanceAlreadyResolved,
            GrievanceMoveError::NoteInvalid => Message::GrievanceNoteInvalid,
        }
    }
}
user_facing_error!(GrievanceMoveError);

impl GrievanceState {
    /// `open`, `acknowledged`, `resolved`: as stored and answered.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            GrievanceState::Open => "open",
            GrievanceState::Acknowledged => "acknowledged",
            GrievanceState::Resolved => "resolved",
        }
    }

    /// # Errors
    /// `grievance.state_invalid` for any other text.
    pub fn parse(text: &str) -> Result<Self, Message> {
        [GrievanceState::Open, GrievanceState::Acknowledged, GrievanceState::Resolved]
            .into_iter()
            .find(|s| s.code() == text)
            .ok_or(Message::GrievanceStateInvalid)
    }

    /// The state after `action` with `note` (trimmed; an empty note is none), and the note kept.
    ///
    /// # Errors
    /// [`GrievanceMoveError::AlreadyResolved`] for any move of a resolved ticket;
    /// [`GrievanceMoveError::AlreadyAcknowledged`] for acknowledging one acknowledged;
    /// [`GrievanceMoveError::NoteInvalid`] for a resolution without a reply or a note too long.
    pub fn apply(self, action: GrievanceAction, note: &str) -> Result<(Self, Option<String>), GrievanceMoveError> {
        let note = note.trim();
        if note.chars().count() > NOTE_MAX_CHARS {
            return Err(GrievanceMoveError::NoteInvalid);
        }
        let note = (!note.is_empty()).then(|| note.to_owned());
        match (self, action) {
            (GrievanceState::Resolved, _) => Err(GrievanceMoveError::AlreadyResolved),
            (GrievanceState::Acknowledged, GrievanceAction::Acknowledge) => {
                Err(GrievanceMoveError::AlreadyAcknowledged)
            }
            (GrievanceState::Open, GrievanceAction::Acknowledge) => Ok((GrievanceState::Acknowledged, note)),
            (_, GrievanceAction::Resolve) if note.is_none() => Err(GrievanceMoveError::NoteInvalid),
            (_, GrievanceAction::Resolve) => Ok((GrievanceState::Resolved, note)),
        }
    }
}

/// When a ticket received at `received` (seconds since 1970 UTC) must be acknowledged: 48 hours on.
#[must_use]
pub fn acknowledge_by(received: i64) -> i64 {
    received.saturating_add(ACKNOWLEDGE_WITHIN_SECONDS)
}

/// When a ticket received at `received` must be resolved: one calendar month on, in India (the same
/// time on the same day of the next month, or on its last day when it is shorter: received on
/// 31 January, due on 28 or 29 February).
#[must_use]
pub fn resolve_by(received: i64) -> i64 {
    crate::calendar::add_months_ist(received, 1)
}

/// A ticket's two clocks and whether either has run out at some instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clocks {
    pub acknowledge_by: i64,
    pub resolve_by: i64,
    /// Still open at or after [`Clocks::acknowledge_by`].
    pub acknowledge_overdue: bool,
    /// Not resolved at or after [`Clocks::resolve_by`].
    pub resolve_overdue: bool,
}

impl Clocks {
    /// The clocks of a ticket received at `received`, in `state`, read at `now`.
    #[must_use]
    pub fn at(received: i64, state: GrievanceState, now: i64) -> Self {
        let (ack, resolve) = (acknowledge_by(received), resolve_by(received));
        Clocks {
            acknowledge_by: ack,
            resolve_by: resolve,
            acknowledge_overdue: state == GrievanceState::Open && now >= ack,
            resolve_overdue: state != GrievanceState::Resolved && now >= resolve,
        }
    }

    /// Either clock has run out.
    #[must_use]
    pub fn overdue(self) -> bool {
        self.acknowledge_overdue || self.resolve_overdue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn input() -> GrievanceInput {
        GrievanceInput {
            name: "  Asha Verma ".into(),
            email: "Asha@Example.in".into(),
            mobile: "9810012345".into(),
            order_number: " mq-000042 ".into(),
            message: "The brake pads I received are for the wrong model.".into(),
        }
    }

    #[test]
    fn a_complete_form_parses_trimmed() {
        let form = GrievanceForm::parse(&input()).expect("valid");
        assert_eq!(form.name, "Asha Verma");
        assert_eq!(form.email.as_str(), "asha@example.in");
        assert_eq!(form.order_number.as_deref(), Some("MQ-000042"));
        let without = GrievanceForm::parse(&GrievanceInput { order_number: "  ".into(), ..input() }).expect("valid");
        assert_eq!(without.order_number, None);
    }

    #[test]
    fn every_failing_field_is_told_at_once_in_form_order() {
        let bad = GrievanceInput {
            name: " ".into(),
            email: "not-an-email".into(),
            mobile: "12345".into(),
            order_number: "MQ 42; DROP".into(),
            message: "too short".into(),
        };
        let errors = GrievanceForm::parse(&bad).expect_err("refused");
        let codes: Vec<_> = errors.iter().map(|(f, m)| (f.name(), m.code())).collect();
        assert_eq!(
            codes,
            [
                ("name", "grievance.name_invalid"),
                ("email", "email.invalid"),
                ("mobile", "address.mobile_invalid"),
                ("orderNumber", "grievance.order_number_invalid"),
                ("message", "grievance.message_invalid"),
            ]
        );
        assert_eq!(errors.code(), "grievance.name_invalid");
    }

    #[test]
    fn lengths_are_counted_in_characters_at_both_ends() {
        // 29 characters in 75 bytes: counted as it reads.
        let hindi = "मेरा ऑर्डर अभी तक नहीं आया है";
        assert!(hindi.chars().count() >= MESSAGE_MIN_CHARS);
        assert!(GrievanceForm::parse(&GrievanceInput { message: hindi.into(), ..input() }).is_ok());
        let at_most = "अ".repeat(MESSAGE_MAX_CHARS);
        assert!(GrievanceForm::parse(&GrievanceInput { message: at_most.clone(), ..input() }).is_ok());
        let over = format!("{at_most}x");
        let refused = GrievanceForm::parse(&GrievanceInput { message: over, ..input() }).expect_err("too long");
        assert_eq!(refused.get(GrievanceField::Message), Some(Message::GrievanceMessageInvalid));
        let short = "x".repeat(MESSAGE_MIN_CHARS - 1);
        assert!(GrievanceForm::parse(&GrievanceInput { message: short, ..input() }).is_err());
        let long_name = "n".repeat(NAME_MAX_CHARS + 1);
        assert!(GrievanceForm::parse(&GrievanceInput { name: long_name, ..input() }).is_err());
        let long_order = "M".repeat(ORDER_NUMBER_MAX_CHARS + 1);
        assert!(GrievanceForm::parse(&GrievanceInput { order_number: long_order, ..input() }).is_err());
    }

    #[test]
    fn tickets_move_open_acknowledged_resolved_and_no_further() {
        use GrievanceAction::{Acknowledge, Resolve};
        use GrievanceState::{Acknowledged, Open, Resolved};
        assert_eq!(Open.apply(Acknowledge, "  "), Ok((Acknowledged, None)));
        assert_eq!(Open.apply(Acknowledge, " Looking into it "), Ok((Acknowledged, Some("Looking into it".into()))));
        assert_eq!(Acknowledged.apply(Resolve, "Replaced"), Ok((Resolved, Some("Replaced".into()))));
        assert_eq!(Open.apply(Resolve, "Refunded"), Ok((Resolved, Some("Refunded".into()))));
        assert_eq!(Acknowledged.apply(Acknowledge, ""), Err(GrievanceMoveError::AlreadyAcknowledged));
        assert_eq!(Resolved.apply(Resolve, "again"), Err(GrievanceMoveError::AlreadyResolved));
        assert_eq!(Resolved.apply(Acknowledge, ""), Err(GrievanceMoveError::AlreadyResolved));
        assert_eq!(Acknowledged.apply(Resolve, " "), Err(GrievanceMoveError::NoteInvalid));
        let long = "x".repeat(NOTE_MAX_CHARS + 1);
        assert_eq!(Open.apply(Acknowledge, &long), Err(GrievanceMoveError::NoteInvalid));
    }

    #[test]
    fn states_and_actions_read_only_their_codes() {
        for s in [GrievanceState::Open, GrievanceState::Acknowledged, GrievanceState::Resolved] {
            assert_eq!(GrievanceState::parse(s.code()), Ok(s));
        }
        assert_eq!(GrievanceState::parse("Open"), Err(Message::GrievanceStateInvalid));
        assert_eq!(GrievanceAction::parse("resolve"), Ok(GrievanceAction::Resolve));
        assert_eq!(GrievanceAction::parse("close"), Err(Message::GrievanceActionInvalid));
    }

    #[test]
    fn the_month_ends_on_the_same_day_in_india_or_the_months_last() {
        // 2026-01-31 10:00 IST (04:30 UTC) → 2026-02-28 10:00 IST.
        assert_eq!(resolve_by(1_769_833_800), 1_772_253_000);
        // 2026-12-15 23:59 IST → 2027-01-15 23:59 IST: the year turns.
        assert_eq!(resolve_by(1_797_359_340), 1_800_037_740);
        // 2028-01-30 → 2028-02-29 (a leap year).
        assert_eq!(resolve_by(1_832_819_400), 1_835_411_400);
        assert_eq!(acknowledge_by(1_769_833_800), 1_769_833_800 + 172_800);
    }

    #[test]
    fn a_clock_runs_out_at_its_instant_and_only_while_the_ticket_waits() {
        let received = 1_769_833_800;
        let ack = acknowledge_by(received);
        let early = Clocks::at(received, GrievanceState::Open, ack - 1);
        assert!(!early.overdue());
        let late = Clocks::at(received, GrievanceState::Open, ack);
        assert!(late.acknowledge_overdue && !late.resolve_overdue && late.overdue());
        assert!(!Clocks::at(received, GrievanceState::Acknowledged, ack).overdue());
        let month = resolve_by(received);
        let unresolved = Clocks::at(received, GrievanceState::Acknowledged, month);
        assert!(unresolved.resolve_overdue && !unresolved.acknowledge_overdue);
        assert!(!Clocks::at(received, GrievanceState::Resolved, month + 86_400).overdue());
    }

    proptest! {
        #[test]
        fn the_month_is_28_to_31_days_and_keeps_the_time_of_day(received in 0i64..4_102_444_800) {
            let due = resolve_by(received);
            let days = (due - received) / 86_400;
            prop_assert!((28..=31).contains(&days), "{received} → {due}");
            prop_assert_eq!((due - received).rem_euclid(86_400), 0);
            prop_assert!(acknowledge_by(received) < due);
        }

        #[test]
        fn overdue_never_goes_back_as_time_passes(received in 0i64..4_000_000_000, a in 0i64..5_000_000, b in 0i64..5_000_000) {
            let (first, second) = (received + a.min(b), received + a.max(b));
            for state in [GrievanceState::Open, GrievanceState::Acknowledged, GrievanceState::Resolved] {
                prop_assert!(!Clocks::at(received, state, first).overdue() || Clocks::at(received, state, second).overdue());
            }
        }
    }
}
