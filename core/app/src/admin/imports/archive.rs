//! The zip of photographs uploaded with an import's file: its central directory checked before
//! the zip is kept (every name stays in its folder; no entry, and not the whole, unpacks past its
//! limit or by more than [`RATIO_MAX`] times), and an entry read by name, within its size, by the
//! photograph worker. Reading is blocking file I/O: callers run it on the blocking pool.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use marque_domain::catalog::import::photos::safe_file_name;
use marque_domain::Message;

use crate::admin::photos::MAX_PHOTO_FILE_BYTES;

/// Largest zip an import takes.
pub const ZIP_MAX_BYTES: u64 = 1024 * 1024 * 1024;
/// Most bytes one entry may unpack to: a photograph's own limit.
pub const ENTRY_MAX_BYTES: u64 = MAX_PHOTO_FILE_BYTES as u64;
/// Most bytes all entries together may unpack to.
pub const TOTAL_MAX_BYTES: u64 = 2 * ZIP_MAX_BYTES;
/// Most times an entry may unpack larger than it is stored (photographs barely compress).
pub const RATIO_MAX: u64 = 100;
/// Most entries a zip may hold.
pub const ENTRIES_MAX: usize = 100_000;

/// The names of the zip's files, after checking every entry of its directory.
///
/// # Errors
/// [`Message::ImportZipInvalid`] for a file that is not a readable zip (or has too many entries),
/// [`Message::ImportZipUnsafePath`] for a name with `..`, an absolute path or a backslash,
/// [`Message::ImportZipBomb`] for an entry above [`ENTRY_MAX_BYTES`], entries above
/// [`TOTAL_MAX_BYTES`] in all, or one that unpacks more than [`RATIO_MAX`] times.
pub fn inspect(path: &Path) -> Result<HashSet<String>, Message> {
    let file = std::fs::File::open(path).map_err(|_| Message::ImportZipInvalid)?;
    let mut zip = zip::ZipArchive::new(file).map_err(|_| Message::ImportZipInvalid)?;
    if zip.len() > ENTRIES_MAX {
        return Err(Message::ImportZipInvalid);
    }
    let mut names = HashSet::new();
    let mut total: u64 = 0;
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i).map_err(|_| Message::ImportZipInvalid)?;
        // The name as stored, not as the zip crate would tidy it: `a/../b` is refused, not read as `a/b`.
        let raw = String::from_utf8_lossy(entry.name_raw()).into_owned();
        if !safe_file_name(raw.trim_end_matches('/')) {
            return Err(Message::ImportZipUnsafePath);
        }
        let name = entry.name().map_err(|_| Message::ImportZipInvalid)?.into_owned();
        if entry.is_dir() {
            continue;
        }
        let (size, packed) = (entry.size(), entry.compressed_size());
        total = total.saturating_add(size);
        if size > ENTRY_MAX_BYTES || total > TOTAL_MAX_BYTES || size > packed.max(1).saturating_mul(RATIO_MAX) {
            return Err(Message::ImportZipBomb);
        }
        names.insert(name);
    }
    Ok(names)
}

/// One file of the zip by name, unpacked no further than [`ENTRY_MAX_BYTES`] whatever its
/// directory says.
///
/// # Errors
/// [`Message::ImportPhotoNotInZip`] when it has no such file; [`Message::ImportZipInvalid`] when
/// it cannot be read; [`Message::ImportZipBomb`] past the limit.
pub fn read(path: &Path, name: &str) -> Result<Vec<u8>, Message> {
    let file = std::fs::File::open(path).map_err(|_| Message::ImportZipInvalid)?;
    let mut zip = zip::ZipArchive::new(file).map_err(|_| Message::ImportZipInvalid)?;
    let entry = match zip.by_name(name) {
        Ok(entry) => entry,
        Err(zip::result::ZipError::FileNotFound) => return Err(Message::ImportPhotoNotInZip),
        Err(_) => return Err(Message::ImportZipInvalid),
    };
    let mut bytes = Vec::new();
    entry.take(ENTRY_MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|_| Message::ImportZipInvalid)?;
    if bytes.len() as u64 > ENTRY_MAX_BYTES {
        return Err(Message::ImportZipBomb);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    fn zip_of(entries: &[(&str, &[u8], bool)]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().expect("temp");
        let mut zip = zip::ZipWriter::new(file.reopen().expect("reopen"));
        for (name, bytes, deflate) in entries {
            let method = if *deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
            let options = zip::write::SimpleFileOptions::default().compression_method(method);
            zip.start_file(*name, options).expect("start");
            zip.write_all(bytes).expect("write");
        }
        zip.finish().expect("finish");
        file
    }

    #[test]
    fn a_zip_of_photographs_lists_its_names_and_reads_them_back() {
        let zip = zip_of(&[("a.jpg", b"one", false), ("dir/b.png", b"two", true)]);
        let names = inspect(zip.path()).expect("fine");
        assert_eq!(names, HashSet::from(["a.jpg".to_owned(), "dir/b.png".to_owned()]));
        assert_eq!(read(zip.path(), "dir/b.png").expect("read"), b"two");
        assert_eq!(read(zip.path(), "c.jpg"), Err(Message::ImportPhotoNotInZip));
    }

    #[test]
    fn names_that_leave_the_folder_refuse_the_zip() {
        for bad in ["../evil.jpg", "a/../../evil.jpg", "/etc/evil.jpg"] {
            let zip = zip_of(&[("fine.jpg", b"x", false), (bad, b"y", false)]);
            assert_eq!(inspect(zip.path()), Err(Message::ImportZipUnsafePath), "{bad}");
        }
    }

    #[test]
    fn a_zip_bomb_is_refused_by_its_directory_and_by_its_reading() {
        // 30 MB of zeros deflate to a few tens of kilobytes: past the entry limit and the ratio.
        let zeros = vec![0u8; 30 * 1024 * 1024];
        let bomb = zip_of(&[("zeros.jpg", &zeros, true)]);
        assert_eq!(inspect(bomb.path()), Err(Message::ImportZipBomb));
        assert_eq!(read(bomb.path(), "zeros.jpg"), Err(Message::ImportZipBomb));
        // Under the size limit but packed 1000 times over: refused by the ratio.
        let packed = zip_of(&[("small.jpg", &zeros[..2 * 1024 * 1024], true)]);
        assert_eq!(inspect(packed.path()), Err(Message::ImportZipBomb));
    }

    #[test]
    fn what_is_not_a_zip_is_refused() {
        let mut file = tempfile::NamedTempFile::new().expect("temp");
        file.write_all(b"sku,name\nA,B\n").expect("write");
        assert_eq!(inspect(file.path()), Err(Message::ImportZipInvalid));
    }
}
