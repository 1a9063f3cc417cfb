//! Grievances from the contact page (Consumer Protection (E-Commerce) Rules 2020): the form becomes
//! a numbered ticket with its clocks, and the complainant is sent the acknowledgement by email at
//! once. The grievance officer's side is [`crate::admin::grievances`].

use std::sync::Arc;

use marque_domain::grievance::{acknowledge_by, resolve_by, GrievanceErrors, GrievanceForm, GrievanceInput};
use marque_domain::invoice::FinancialYear;
use marque_domain::Message;
use marque_ports::{
    Channel, Clock, Grievance, GrievanceStore, GrievanceStoreError, NewGrievance, Notification, Notifier,
};

/// The email template's name (an SMS gateway would need one; email adapters ignore it).
pub const GRIEVANCE_EMAIL_TEMPLATE: &str = "grievance";

/// Who answers grievances, as the acknowledgement names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrievanceOfficerContact {
    pub name: String,
    pub email: String,
    pub phone: String,
}

/// Why a grievance was not registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrievanceError {
    /// Fields of the form that do not parse (400), every one of them.
    #[error("invalid grievance")]
    Invalid(GrievanceErrors),
    /// The store cannot be reached, or the year's series ran out (503).
    #[error("the grievances are unavailable: {0}")]
    Unavailable(String),
}

impl GrievanceError {
    #[must_use]
    pub fn message(&self) -> Message {
        match self {
            GrievanceError::Invalid(errors) => marque_domain::UserFacing::message(errors),
            GrievanceError::Unavailable(_) => Message::GrievanceUnavailable,
        }
    }
}

/// Registers grievances and acknowledges them.
#[derive(Clone)]
pub struct GrievanceService {
    store: Arc<dyn GrievanceStore>,
    notifier: Arc<dyn Notifier>,
    clock: Arc<dyn Clock>,
    officer: Arc<GrievanceOfficerContact>,
    shop_name: Arc<str>,
}

impl std::fmt::Debug for GrievanceService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrievanceService").field("officer", &self.officer).finish_non_exhaustive()
    }
}

/// The acknowledgement's text: the number, what was received, the clocks, and who answers.
pub(crate) fn acknowledgement_text(g: &Grievance, officer: &GrievanceOfficerContact, shop_name: &str) -> String {
    let mut text = format!(
        "Dear {},\n\nWe have received your grievance. Its number is {}: please quote it when you write to us.\n\n",
        g.name, g.number
    );
    if let Some(order) = &g.order_number {
        text.push_str(&format!("Order: {order}\n"));
    }
    text.push_str(&format!("Your message:\n{}\n\n", g.message));
    text.push_str(&format!(
        "Our Grievance Officer will acknowledge it within 48 hours and resolve it within one month of today.\n\n\
         Grievance Officer: {}\nEmail: {}\nPhone: {}\n\n{shop_name}\n",
        officer.name, officer.email, officer.phone
    ));
    text
}

impl GrievanceService {
    #[must_use]
    pub fn new(
        store: Arc<dyn GrievanceStore>,
        notifier: Arc<dyn Notifier>,
        clock: Arc<dyn Clock>,
        officer: GrievanceOfficerContact,
        shop_name: &str,
    ) -> Self {
        Self { store, notifier, clock, officer: Arc::new(officer), shop_name: Arc::from(shop_name) }
    }

    /// Registers the grievance `input` describes: a ticket numbered in this financial year's series,
    /// with its 48-hour and one-month clocks from now; then emails the acknowledgement to the
    /// complainant. A mail that cannot be sent is logged and does not undo the ticket.
    ///
    /// # Errors
    /// [`GrievanceError::Invalid`] with every failing field; [`GrievanceError::Unavailable`].
    pub async fn submit(&self, input: &GrievanceInput) -> Result<Grievance, GrievanceError> {
        let form = GrievanceForm::parse(input).map_err(GrievanceError::Invalid)?;
        let now = self.clock.now();
        let new = NewGrievance {
            form,
            created_at: now,
            acknowledge_by: acknowledge_by(now),
            resolve_by: resolve_by(now),
            year: FinancialYear::at_unix_seconds(now),
        };
        let grievance = self.store.open(&new).await.map_err(|e| match e {
            GrievanceStoreError::SerialExhausted => {
                tracing::error!("the grievance series of this financial year is exhausted");
                GrievanceError::Unavailable(e.to_string())
            }
            other => GrievanceError::Unavailable(other.to_string()),
        })?;
        metrics::counter!("marque_grievances_opened_total").increment(1);
        let mail = Notification {
            channel: Channel::Email,
            recipient: grievance.email.clone(),
            subject: format!("Grievance {} received", grievance.number),
            text: acknowledgement_text(&grievance, &self.officer, &self.shop_name),
            template: Some(GRIEVANCE_EMAIL_TEMPLATE.to_owned()),
            attachments: Vec::new(),
        };
        if let Err(e) = self.notifier.send(&mail).await {
            tracing::warn!(grievance = %grievance.number, error = %e, "the grievance acknowledgement was not sent");
        }
        Ok(grievance)
    }
}

#[cfg(test)]
mod tests;
