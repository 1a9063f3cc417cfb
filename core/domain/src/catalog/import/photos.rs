//! The `photos` column of an import: `|`-separated entries, each a file name in the zip uploaded
//! with the CSV file or an `https://` address. Only the cell's form is checked here; whether the
//! zip holds the name, and whether an address may be fetched, are the import's and the fetcher's.

use crate::catalog::MAX_PRODUCT_PHOTOS;
use crate::Message;

/// Longest file name or address one entry may be.
pub const PHOTO_ENTRY_MAX_BYTES: usize = 2_048;

/// Where one photograph of a row comes from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PhotoSource {
    /// A file in the zip, by its name there (`front.jpg`, `brakes/pad-1.jpg`).
    File(String),
    /// An address the worker fetches (`https://…`; `http://` only for a test-only allowed host).
    Url(String),
}

impl PhotoSource {
    /// The entry as the cell wrote it (for reports and for storing the task).
    #[must_use]
    pub fn text(&self) -> &str {
        match self {
            PhotoSource::File(t) | PhotoSource::Url(t) => t,
        }
    }

    /// Reads a stored entry back: an address when it starts with a scheme, a file name otherwise.
    #[must_use]
    pub fn stored(text: &str) -> PhotoSource {
        if has_scheme(text) {
            PhotoSource::Url(text.to_owned())
        } else {
            PhotoSource::File(text.to_owned())
        }
    }
}

fn has_scheme(text: &str) -> bool {
    text.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// Whether a zip entry's name stays inside its folder: relative, with no `..` part, no backslash,
/// no drive letter and no NUL.
#[must_use]
pub fn safe_file_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('/')
        && !name.contains('\\')
        && !name.contains('\0')
        && name.chars().nth(1).is_none_or(|c| c != ':')
        && name.split('/').all(|part| part != "..")
}

/// Reads a `photos` cell: its entries in order (empty entries skipped).
///
/// # Errors
/// [`Message::ImportPhotoNameInvalid`] for an entry that is an address of another scheme than
/// `https` or `http`, an unsafe file name, or longer than [`PHOTO_ENTRY_MAX_BYTES`];
/// [`Message::ImportPhotosTooMany`] past [`MAX_PRODUCT_PHOTOS`]. (`http` is refused later, by the
/// fetcher, unless a test allows its host.)
pub fn photo_list(cell: &str) -> Result<Vec<PhotoSource>, Message> {
    let mut photos = Vec::new();
    for entry in cell.split('|').map(str::trim).filter(|e| !e.is_empty()) {
        if entry.len() > PHOTO_ENTRY_MAX_BYTES {
            return Err(Message::ImportPhotoNameInvalid);
        }
        let source = PhotoSource::stored(entry);
        match &source {
            PhotoSource::Url(url) => {
                let lower = url.to_ascii_lowercase();
                if !(lower.starts_with("https://") || lower.starts_with("http://")) || url.contains(char::is_whitespace)
                {
                    return Err(Message::ImportPhotoNameInvalid);
                }
            }
            PhotoSource::File(name) if !safe_file_name(name) => return Err(Message::ImportPhotoNameInvalid),
            PhotoSource::File(_) => {}
        }
        photos.push(source);
    }
    if photos.len() > MAX_PRODUCT_PHOTOS {
        return Err(Message::ImportPhotosTooMany);
    }
    Ok(photos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_lists_files_and_addresses_in_order() {
        assert_eq!(
            photo_list(" front.jpg | https://cdn.example/a.jpg||side/b.png ").expect("valid"),
            vec![
                PhotoSource::File("front.jpg".into()),
                PhotoSource::Url("https://cdn.example/a.jpg".into()),
                PhotoSource::File("side/b.png".into()),
            ]
        );
        assert_eq!(photo_list(""), Ok(vec![]));
    }

    #[test]
    fn names_that_leave_the_folder_and_other_schemes_are_refused() {
        for bad in [
            "../etc/passwd",
            "a/../../b.jpg",
            "/abs.jpg",
            "C:\\x.jpg",
            "c:x.jpg",
            "ftp://x/a.jpg",
            "file:///etc/passwd",
        ] {
            assert_eq!(photo_list(bad), Err(Message::ImportPhotoNameInvalid), "{bad}");
        }
        let many = vec!["a.jpg"; MAX_PRODUCT_PHOTOS + 1].join("|");
        assert_eq!(photo_list(&many), Err(Message::ImportPhotosTooMany));
    }

    #[test]
    fn safe_names_stay_inside_their_folder() {
        assert!(safe_file_name("a.jpg"));
        assert!(safe_file_name("dir/a..b.jpg"));
        assert!(!safe_file_name("dir/../a.jpg"));
        assert!(!safe_file_name("/a.jpg"));
        assert!(!safe_file_name(""));
    }
}
