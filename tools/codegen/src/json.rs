//! Just enough JSON to write the generated TypeScript's values (JSON is valid
//! TypeScript), kept here because the crate takes no serialisation dependency
//! beyond serde's traits.

use std::fmt::Write as _;

/// A JSON value; objects keep their keys in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl From<&str> for Json {
    fn from(s: &str) -> Self {
        Json::Str(s.to_owned())
    }
}

impl From<String> for Json {
    fn from(s: String) -> Self {
        Json::Str(s)
    }
}

impl From<bool> for Json {
    fn from(b: bool) -> Self {
        Json::Bool(b)
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Self {
        Json::Int(n)
    }
}

impl From<usize> for Json {
    fn from(n: usize) -> Self {
        Json::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

impl<T: Into<Json>> From<Option<T>> for Json {
    fn from(v: Option<T>) -> Self {
        v.map_or(Json::Null, Into::into)
    }
}

impl<T: Into<Json>> From<Vec<T>> for Json {
    fn from(v: Vec<T>) -> Self {
        Json::Arr(v.into_iter().map(Into::into).collect())
    }
}

/// Builds an object from `key => value` pairs.
macro_rules! obj {
    ($($k:expr => $v:expr),* $(,)?) => {
        $crate::json::Json::Obj(vec![$(($k.to_string(), $crate::json::Json::from($v))),*])
    };
}
pub(crate) use obj;

/// Values this short stay on one line.
const INLINE_WIDTH: usize = 110;

impl Json {
    /// Pretty text: a value that fits in [`INLINE_WIDTH`] stays on one line,
    /// larger arrays and objects put one member per line.
    #[must_use]
    pub fn render(&self, indent: usize) -> String {
        let inline = self.inline();
        if inline.len() + indent <= INLINE_WIDTH {
            return inline;
        }
        let pad = "  ".repeat(indent + 1);
        let close = "  ".repeat(indent);
        match self {
            Json::Arr(items) => {
                let body: Vec<String> = items.iter().map(|v| format!("{pad}{}", v.render(indent + 1))).collect();
                format!("[\n{},\n{close}]", body.join(",\n"))
            }
            Json::Obj(members) => {
                let body: Vec<String> =
                    members.iter().map(|(k, v)| format!("{pad}{}: {}", quote(k), v.render(indent + 1))).collect();
                format!("{{\n{},\n{close}}}", body.join(",\n"))
            }
            _ => inline,
        }
    }

    fn inline(&self) -> String {
        match self {
            Json::Null => "null".to_owned(),
            Json::Bool(b) => b.to_string(),
            Json::Int(n) => n.to_string(),
            Json::Str(s) => quote(s),
            Json::Arr(items) => format!("[{}]", items.iter().map(Json::inline).collect::<Vec<_>>().join(", ")),
            Json::Obj(members) => format!(
                "{{ {} }}",
                members.iter().map(|(k, v)| format!("{}: {}", quote(k), v.inline())).collect::<Vec<_>>().join(", ")
            )
            .replace("{  }", "{}"),
        }
    }
}

/// A JSON string literal. Non-ASCII characters are escaped so the generated
/// file reads the same in any editor and no invisible character hides in it.
#[must_use]
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0_u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
        assert_eq!(quote("é"), r#""\u00e9""#);
        assert_eq!(quote("😀"), r#""\ud83d\ude00""#);
        assert_eq!(quote("\u{7f}"), r#""\u007f""#);
    }

    #[test]
    fn small_values_stay_on_one_line() {
        let v = obj! { "a" => 1_i64, "b" => vec!["x", "y"], "c" => Option::<bool>::None };
        assert_eq!(v.render(0), r#"{ "a": 1, "b": ["x", "y"], "c": null }"#);
        assert_eq!(Json::Obj(vec![]).render(0), "{}");
        let long = Json::from(vec!["0123456789".repeat(3); 5]);
        assert!(long.render(0).starts_with("[\n  \""));
    }
}
