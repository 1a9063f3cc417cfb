//! The grievance officer's tickets (roles owner, fulfilment): the list by state with each ticket's
//! clocks, one ticket, and its moves (acknowledge, resolve with a reply) made only on the version
//! they were decided on, each with its audit record; the complainant is emailed the note.

use std::sync::Arc;

use marque_domain::grievance::{Clocks, GrievanceAction, GrievanceMoveError, GrievanceState};
use marque_domain::paging::ListWindow;
use marque_domain::staff::{Area, Forbidden, Staff};
use marque_domain::{Message, UserFacing};
use marque_ports::{
    Actor, AuditEntry, Channel, Clock, Grievance, GrievanceMove, GrievanceQuery, GrievanceStore, GrievanceStoreError,
    Notification, Notifier,
};

use crate::grievances::GRIEVANCE_EMAIL_TEMPLATE;

/// Why a grievance call did not happen.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AdminGrievanceError {
    #[error(transparent)]
    Forbidden(#[from] Forbidden),
    /// A filter or action that does not parse.
    #[error("invalid: {}", .0.code())]
    Invalid(Message),
    #[error("no such grievance")]
    NotFound,
    /// The ticket is no longer at the version the move named.
    #[error("the grievance changed meanwhile (now at version {version})")]
    Changed { version: u64 },
    /// The rules refuse the move.
    #[error("refused: {}", .0.code())]
    Refused(GrievanceMoveError),
    #[error("the grievances are unavailable: {0}")]
    Unavailable(String),
}

impl AdminGrievanceError {
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            AdminGrievanceError::Forbidden(f) => f.message(),
            AdminGrievanceError::Invalid(m) => *m,
            AdminGrievanceError::NotFound => Message::GrievanceNotFound,
            AdminGrievanceError::Changed { .. } => Message::GrievanceChanged,
            AdminGrievanceError::Refused(e) => e.message(),
            AdminGrievanceError::Unavailable(_) => Message::GrievanceUnavailable,
        }
    }
}

impl From<GrievanceStoreError> for AdminGrievanceError {
    fn from(e: GrievanceStoreError) -> Self {
        match e {
            GrievanceStoreError::NotFound => AdminGrievanceError::NotFound,
            GrievanceStoreError::Changed { version } => AdminGrievanceError::Changed { version },
            other => AdminGrievanceError::Unavailable(other.to_string()),
        }
    }
}

/// A ticket with its clocks as they stand now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketView {
    pub grievance: Grievance,
    pub clocks: Clocks,
}

/// One window of tickets and the number of pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketList {
    pub tickets: Vec<TicketView>,
    pub total: u64,
    pub pages: u64,
}

/// The grievance officer's side, for staff whose role covers [`Area::Grievances`].
#[derive(Clone)]
pub struct AdminGrievancesService {
    store: Arc<dyn GrievanceStore>,
    notifier: Arc<dyn Notifier>,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for AdminGrievancesService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdminGrievancesService").finish_non_exhaustive()
    }
}

/// The fields of a ticket the trail records, as JSON text.
fn values(state: GrievanceState, note: Option<&str>) -> String {
    serde_json::json!({ "state": state.code(), "note": note }).to_string()
}

impl AdminGrievancesService {
    #[must_use]
    pub fn new(store: Arc<dyn GrievanceStore>, notifier: Arc<dyn Notifier>, clock: Arc<dyn Clock>) -> Self {
        Self { store, notifier, clock }
    }

    fn view(&self, grievance: Grievance, now: i64) -> TicketView {
        let clocks = Clocks::at(grievance.created_at, grievance.state, now);
        TicketView { grievance, clocks }
    }

    /// One window of the tickets in `state` (`open`, `acknowledged`, `resolved`; all without),
    /// newest first, each with its clocks.
    ///
    /// # Errors
    /// [`AdminGrievanceError::Forbidden`] first; [`AdminGrievanceError::Invalid`]
    /// (`grievance.state_invalid`); [`AdminGrievanceError::Unavailable`].
    pub async fn list(
        &self,
        staff: &Staff,
        state: Option<&str>,
        window: ListWindow,
    ) -> Result<TicketList, AdminGrievanceError> {
        staff.require(Area::Grievances)?;
        let state = state.map(GrievanceState::parse).transpose().map_err(AdminGrievanceError::Invalid)?;
        let page = self.store.grievances(&GrievanceQuery { state, window }).await?;
        let now = self.clock.now();
        Ok(TicketList {
            pages: window.pages(page.total),
            total: page.total,
            tickets: page.grievances.into_iter().map(|g| self.view(g, now)).collect(),
        })
    }

    /// One ticket with its clocks.
    ///
    /// # Errors
    /// [`AdminGrievanceError::Forbidden`] first; [`AdminGrievanceError::NotFound`];
    /// [`AdminGrievanceError::Unavailable`].
    pub async fn ticket(&self, staff: &Staff, id: &str) -> Result<TicketView, AdminGrievanceError> {
        staff.require(Area::Grievances)?;
        let grievance = self.store.grievance(id).await?.ok_or(AdminGrievanceError::NotFound)?;
        Ok(self.view(grievance, self.clock.now()))
    }

    /// Acknowledges or resolves the ticket (`action`), with `note` (the reply, required to
    /// resolve), if it is still at `version`; the complainant is emailed the note after.
    ///
    /// # Errors
    /// [`AdminGrievanceError::Forbidden`] first; [`AdminGrievanceError::Invalid`]
    /// (`grievance.action_invalid`); [`AdminGrievanceError::NotFound`];
    /// [`AdminGrievanceError::Changed`] (also when another move wins the race to the store);
    /// [`AdminGrievanceError::Refused`]; [`AdminGrievanceError::Unavailable`].
    pub async fn change(
        &self,
        staff: &Staff,
        id: &str,
        version: u64,
        action: &str,
        note: &str,
    ) -> Result<TicketView, AdminGrievanceError> {
        staff.require(Area::Grievances)?;
        let action = GrievanceAction::parse(action).map_err(AdminGrievanceError::Invalid)?;
        let current = self.store.grievance(id).await?.ok_or(AdminGrievanceError::NotFound)?;
        if current.version != version {
            return Err(AdminGrievanceError::Changed { version: current.version });
        }
        let (to, note) = current.state.apply(action, note).map_err(AdminGrievanceError::Refused)?;
        let now = self.clock.now();
        let before = match current.state {
            GrievanceState::Resolved => current.resolution.as_deref(),
            _ => current.acknowledgement.as_deref(),
        };
        let audit = AuditEntry::new(
            now,
            Actor::staff(staff),
            format!("grievance.{}", action.code()),
            format!("grievance:{id}"),
        )
        .with_values(Some(values(current.state, before)), Some(values(to, note.as_deref())));
        let change = GrievanceMove { to, note: note.clone(), at: now };
        let after = self.store.change(id, version, &change, &audit).await?;
        if let Some(note) = note {
            self.tell(&after, action, &note).await;
        }
        Ok(self.view(after, now))
    }

    /// Emails the complainant the officer's note. Best effort: logged, never failing the move.
    async fn tell(&self, g: &Grievance, action: GrievanceAction, note: &str) {
        let (subject, heading) = match action {
            GrievanceAction::Acknowledge => ("acknowledged", "Our Grievance Officer has acknowledged your grievance."),
            GrievanceAction::Resolve => ("resolved", "Our Grievance Officer has resolved your grievance."),
        };
        let mail = Notification {
            channel: Channel::Email,
            recipient: g.email.clone(),
            subject: format!("Grievance {} {subject}", g.number),
            text: format!("Dear {},\n\n{heading}\n\n{note}\n\nGrievance number: {}\n", g.name, g.number),
            template: Some(GRIEVANCE_EMAIL_TEMPLATE.to_owned()),
            attachments: Vec::new(),
        };
        if let Err(e) = self.notifier.send(&mail).await {
            tracing::warn!(grievance = %g.number, error = %e, "the grievance reply was not sent");
        }
    }
}

#[cfg(test)]
mod tests;
