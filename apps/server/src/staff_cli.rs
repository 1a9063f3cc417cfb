//! `marque-server staff add|remove|list`: the back office's staff from the command line, on the
//! configured database (a stopped embedded one, or a `ws://` server), without the HTTP server.
//! Set-up links are printed to standard output only.

use std::sync::Arc;

use clap::Subcommand;
use marque_app::admin::staff::{StaffError, StaffService, StaffSettings};
use marque_domain::staff::StaffRole;
use marque_ports::{StaffStatus, SystemClock};
use marque_surreal::Database;

/// What `marque-server staff` does.
#[derive(Debug, Clone, Subcommand)]
pub enum StaffCommand {
    /// Add a staff member and print their one-time set-up link (24 hours); for someone invited
    /// who has not set up yet, print a new link (the earlier one ends).
    Add {
        #[arg(long)]
        email: String,
        #[arg(long)]
        name: String,
        /// `owner`, `catalog` or `fulfilment`.
        #[arg(long)]
        role: String,
    },
    /// Remove a staff member: every session of theirs ends at once.
    Remove {
        #[arg(long)]
        email: String,
    },
    /// List the staff (email, role, status, name), oldest first.
    List,
}

/// Runs `command` on `database` and answers what to print. `public_url` prefixes set-up links.
///
/// # Errors
/// A role that is not one, an email taken by someone set up, no such staff member, or the store's.
pub async fn run(database: &Database, public_url: Option<&str>, command: StaffCommand) -> anyhow::Result<String> {
    // The command line never opens a sealed secret: any key will do here.
    let staff = StaffService::new(
        Arc::new(database.staff()),
        Arc::new(database.rate_counter()),
        Arc::new(SystemClock),
        StaffSettings::new(marque_app::admin::staff::SealKey::dev()),
    );
    let link = |path: String| format!("{}{path}", public_url.unwrap_or(""));
    let failed = |e: StaffError| anyhow::anyhow!("{e}");
    match command {
        StaffCommand::Add { email, name, role } => {
            let role = StaffRole::parse(role.trim()).map_err(|m| anyhow::anyhow!("{}", m.text()))?;
            match staff.add("cli", &email, &name, role).await {
                Ok(invitation) => Ok(format!(
                    "added {} ({}); their one-time set-up link (24 hours): {}",
                    invitation.staff.email,
                    invitation.staff.role,
                    link(invitation.code.link())
                )),
                Err(StaffError::EmailTaken) => {
                    let existing = staff
                        .all()
                        .await
                        .map_err(failed)?
                        .into_iter()
                        .find(|r| r.staff.email == email.trim().to_lowercase())
                        .filter(|r| r.status == StaffStatus::Invited)
                        .ok_or_else(|| anyhow::anyhow!("{}", StaffError::EmailTaken))?;
                    let code = staff.reissue("cli", &existing.staff.id).await.map_err(failed)?;
                    Ok(format!(
                        "{} was invited and has not set up; a new one-time set-up link (24 hours): {}",
                        existing.staff.email,
                        link(code.link())
                    ))
                }
                Err(e) => Err(failed(e)),
            }
        }
        StaffCommand::Remove { email } => {
            let removed = staff.remove_by_email("cli", &email).await.map_err(failed)?;
            Ok(format!("removed {} ({}); their sessions have ended", removed.email, removed.role))
        }
        StaffCommand::List => {
            let all = staff.all().await.map_err(failed)?;
            if all.is_empty() {
                return Ok("no staff".to_owned());
            }
            Ok(all
                .iter()
                .map(|r| format!("{}\t{}\t{}\t{}", r.staff.email, r.staff.role, r.status.as_str(), r.staff.name))
                .collect::<Vec<_>>()
                .join("\n"))
        }
    }
}
