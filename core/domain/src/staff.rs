//! The shop's staff: who runs the back office, and what each role may touch.
//!
//! Staff are not customers: their own records, sessions and sign-in. Every admin use case takes
//! the [`Staff`] making the call and asks [`Staff::require`] for the [`Area`] it touches before
//! it reads or changes anything; the HTTP layer only turns a token into a [`Staff`].

use serde::{Deserialize, Serialize};

use crate::Message;

/// Identifier of a staff member, opaque (e.g. `s3f9c1…`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct StaffId(pub String);

impl StaffId {
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for StaffId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a staff member is for. Roles are not ranked: `catalog` and `fulfilment` see different
/// halves of the shop, `owner` sees everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StaffRole {
    /// Everything, including staff, customers' offers, the audit trail and sales figures.
    Owner,
    /// Products, categories, brands, photographs, stock and imports.
    Catalog,
    /// Orders, shipping, refunds, returns and grievances; reads customers.
    Fulfilment,
}

impl StaffRole {
    /// Every role, in the order the admin lists them.
    pub const ALL: [StaffRole; 3] = [StaffRole::Owner, StaffRole::Catalog, StaffRole::Fulfilment];

    /// The stored and wire name: `owner`, `catalog`, `fulfilment`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            StaffRole::Owner => "owner",
            StaffRole::Catalog => "catalog",
            StaffRole::Fulfilment => "fulfilment",
        }
    }

    /// The role named `name` (exactly as [`StaffRole::as_str`] writes it).
    ///
    /// # Errors
    /// [`Message::StaffRoleUnknown`] for any other text.
    pub fn parse(name: &str) -> Result<Self, Message> {
        StaffRole::ALL.into_iter().find(|r| r.as_str() == name).ok_or(Message::StaffRoleUnknown)
    }

    /// Whether this role may use `area`.
    #[must_use]
    pub const fn may(self, area: Area) -> bool {
        match self {
            StaffRole::Owner => true,
            StaffRole::Catalog => matches!(
                area,
                Area::Dashboard
                    | Area::Products
                    | Area::Categories
                    | Area::Brands
                    | Area::Photos
                    | Area::Stock
                    | Area::Imports
            ),
            StaffRole::Fulfilment => matches!(
                area,
                Area::Dashboard | Area::Orders | Area::Refunds | Area::Returns | Area::Grievances | Area::CustomersRead
            ),
        }
    }

    /// The roles that may use `area`, in [`StaffRole::ALL`]'s order.
    #[must_use]
    pub fn allowed(area: Area) -> Vec<StaffRole> {
        StaffRole::ALL.into_iter().filter(|r| r.may(area)).collect()
    }
}

impl std::fmt::Display for StaffRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A part of the back office, as the role check names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Area {
    /// The dashboard and one's own account (`GET /api/admin/me`): every role.
    Dashboard,
    Products,
    Categories,
    Brands,
    Photos,
    Stock,
    Imports,
    Orders,
    Refunds,
    Returns,
    Grievances,
    /// Finding customers and reading their orders.
    CustomersRead,
    /// Changing a customer (anything but reading).
    Customers,
    Offers,
    Staff,
    Audit,
    Sales,
}

impl Area {
    /// Every area.
    pub const ALL: [Area; 17] = [
        Area::Dashboard,
        Area::Products,
        Area::Categories,
        Area::Brands,
        Area::Photos,
        Area::Stock,
        Area::Imports,
        Area::Orders,
        Area::Refunds,
        Area::Returns,
        Area::Grievances,
        Area::CustomersRead,
        Area::Customers,
        Area::Offers,
        Area::Staff,
        Area::Audit,
        Area::Sales,
    ];
}

/// A staff member as a use case sees the caller: who, and with which role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Staff {
    pub id: StaffId,
    /// Lower-case email address, unique among staff.
    pub email: String,
    pub name: String,
    pub role: StaffRole,
}

/// A staff member asked for an area their role does not cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the role `{role}` may not use {area:?}")]
pub struct Forbidden {
    pub role: StaffRole,
    pub area: Area,
}

impl Forbidden {
    /// The message a refused staff member reads (`staff.forbidden`).
    #[must_use]
    pub const fn message(self) -> Message {
        Message::StaffForbidden
    }
}

impl Staff {
    /// Refuses early when this staff member's role does not cover `area`: every admin use case
    /// calls it before it reads or writes anything.
    ///
    /// # Errors
    /// [`Forbidden`] when the role may not use `area`.
    pub fn require(&self, area: Area) -> Result<(), Forbidden> {
        if self.role.may(area) {
            Ok(())
        } else {
            Err(Forbidden { role: self.role, area })
        }
    }
}

/// Characters a staff password may have, at least and at most (the customers' rule does not apply).
pub const STAFF_PASSWORD_MIN: usize = 12;
pub const STAFF_PASSWORD_MAX: usize = 128;

/// A staff member's password as chosen at set-up: 12 to 128 characters, any characters.
#[derive(Clone, PartialEq, Eq)]
pub struct StaffPassword(String);

impl std::fmt::Debug for StaffPassword {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StaffPassword([redacted])")
    }
}

impl StaffPassword {
    /// # Errors
    /// [`Message::StaffPasswordRule`] when it has fewer than 12 or more than 128 characters.
    pub fn parse(text: &str) -> Result<Self, Message> {
        let n = text.chars().count();
        if (STAFF_PASSWORD_MIN..=STAFF_PASSWORD_MAX).contains(&n) {
            Ok(StaffPassword(text.to_owned()))
        } else {
            Err(Message::StaffPasswordRule)
        }
    }

    #[must_use]
    pub fn expose(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn staff(role: StaffRole) -> Staff {
        Staff { id: StaffId("s1".into()), email: "a@b.in".into(), name: "A".into(), role }
    }

    #[test]
    fn owner_may_use_every_area() {
        for area in Area::ALL {
            assert!(staff(StaffRole::Owner).require(area).is_ok(), "{area:?}");
        }
    }

    #[test]
    fn catalog_and_fulfilment_see_their_own_halves() {
        let catalog = staff(StaffRole::Catalog);
        let fulfilment = staff(StaffRole::Fulfilment);
        for area in [Area::Products, Area::Categories, Area::Brands, Area::Photos, Area::Stock, Area::Imports] {
            assert!(catalog.require(area).is_ok() && fulfilment.require(area).is_err(), "{area:?}");
        }
        for area in [Area::Orders, Area::Refunds, Area::Returns, Area::Grievances, Area::CustomersRead] {
            assert!(fulfilment.require(area).is_ok() && catalog.require(area).is_err(), "{area:?}");
        }
        for area in [Area::Customers, Area::Offers, Area::Staff, Area::Audit, Area::Sales] {
            assert_eq!(catalog.require(area), Err(Forbidden { role: StaffRole::Catalog, area }));
            assert!(fulfilment.require(area).is_err(), "{area:?}");
        }
        assert!(catalog.require(Area::Dashboard).is_ok() && fulfilment.require(Area::Dashboard).is_ok());
        assert_eq!(StaffRole::allowed(Area::Offers), vec![StaffRole::Owner]);
        assert_eq!(StaffRole::allowed(Area::CustomersRead), vec![StaffRole::Owner, StaffRole::Fulfilment]);
    }

    #[test]
    fn roles_parse_only_their_own_names() {
        for role in StaffRole::ALL {
            assert_eq!(StaffRole::parse(role.as_str()), Ok(role));
        }
        for bad in ["", "Owner", "admin", "owner ", "fulfillment"] {
            assert_eq!(StaffRole::parse(bad), Err(Message::StaffRoleUnknown), "{bad:?}");
        }
        assert_eq!(serde_json::to_string(&StaffRole::Fulfilment).ok().as_deref(), Some("\"fulfilment\""));
    }

    #[test]
    fn staff_passwords_are_twelve_to_one_hundred_twenty_eight_characters() {
        assert!(StaffPassword::parse(&"a".repeat(11)).is_err());
        assert!(StaffPassword::parse(&"a".repeat(12)).is_ok());
        assert!(StaffPassword::parse(&"अ".repeat(128)).is_ok(), "characters, not bytes");
        assert!(StaffPassword::parse(&"a".repeat(129)).is_err());
        assert_eq!(
            StaffPassword::parse("correct horse battery").map(|p| format!("{p:?}")),
            Ok("StaffPassword([redacted])".to_owned())
        );
    }
}
