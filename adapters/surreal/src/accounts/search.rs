//! Finding customers for the back office (the `search_users` contract of [`AccountStore`]):
//! an email through `email_claim`'s index, a mobile through `mobile_number`'s, name words through
//! the full-text index of migration 17 (every query word must begin a name word, as the catalog's
//! product search).
//!
//! [`AccountStore`]: marque_ports::AccountStore

use marque_domain::address::typed_mobile_digits;
use marque_ports::{AccountStoreError, UserRecord, UsersPage};

use super::{unavailable, UserRow, USER_FIELDS};
use crate::conn::Conn;

/// The matching ids, newest account first, then the window's customers. `{WHERE}` is the
/// conditions the text allows (an email, a mobile, name words), joined by `OR`.
const SEARCH: &str = "
LET $words = search::analyze('customer_query', $text)
    .filter(|$w| string::len($w) >= 2)
    .map(|$w| string::slice($w, 0, 10))
    .distinct();
LET $terms = array::join($words, ' ');
LET $found = (SELECT id, created_at FROM user WHERE {WHERE} ORDER BY created_at DESC, id ASC).id;
RETURN array::len($found);
SELECT {FIELDS} FROM array::slice($found, $offset, $end);
";

/// Whether the text has a word that could begin a name word (two letters or digits, or more).
fn has_name_words(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric()).any(|w| w.chars().count() >= 2)
}

pub(super) async fn users(db: &Conn, text: &str, offset: u64, limit: u32) -> Result<UsersPage, AccountStoreError> {
    let text = text.trim();
    let email = text.contains('@').then(|| text.to_lowercase());
    let mobile = typed_mobile_digits(text);
    let mut conditions = Vec::new();
    if email.is_some() {
        conditions.push("email_claim = $email");
    }
    if mobile.is_some() {
        conditions.push("mobile_number = $mobile");
    }
    if email.is_none() && has_name_words(text) {
        conditions.push("name @1@ $terms");
    }
    if conditions.is_empty() || limit == 0 {
        return Ok(UsersPage::default());
    }
    let surql = SEARCH.replace("{WHERE}", &conditions.join(" OR ")).replace("{FIELDS}", USER_FIELDS);
    let offset = i64::try_from(offset).unwrap_or(i64::MAX);
    let mut answer = db
        .query(surql)
        .bind(("text", text.to_owned()))
        .bind(("email", email))
        .bind(("mobile", mobile))
        .bind(("offset", offset))
        .bind(("end", offset.saturating_add(i64::from(limit))))
        .await
        .and_then(surrealdb::IndexedResults::check)
        .map_err(|e| unavailable(&e))?;
    let total: Option<i64> = answer.take(3).map_err(|e| unavailable(&e))?;
    let rows: Vec<UserRow> = answer.take(4).map_err(|e| unavailable(&e))?;
    Ok(UsersPage {
        users: rows.into_iter().map(UserRecord::from).collect(),
        total: u64::try_from(total.unwrap_or(0)).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mobiles_are_read_in_the_ways_people_type_them() {
        for typed in ["9876543210", "98765 43210", "+91 98765-43210", "09876543210", "919876543210"] {
            assert_eq!(typed_mobile_digits(typed).as_deref(), Some("9876543210"), "{typed}");
        }
        for not in ["98765", "asha 9876543210", "+44 20 7946 0958 12", ""] {
            assert_eq!(typed_mobile_digits(not), None, "{not}");
        }
        assert!(has_name_words("Asha R"));
        assert!(!has_name_words("a . b"));
    }
}
