//! `/robots.txt` and `/sitemap.xml`: every page a search engine should find, split
//! into `/sitemap-{n}.xml` parts behind a sitemap index once there are too many.

use marque_app::{CatalogError, CatalogService};
use marque_domain::calendar::civil_from_days;
use marque_domain::catalog::ProductId;

use super::head::escape;

/// The sitemap protocol's limit of addresses in one file.
pub const MAX_URLS_PER_FILE: usize = 50_000;
/// Product stamps read per store call while walking the catalog.
const STAMP_WINDOW: u32 = 5_000;
/// Pages every shop has, in the route table's order.
const STATIC_PATHS: [&str; 5] = ["/", "/about", "/contactus", "/policy", "/termandcondition"];

/// One address of the sitemap: a root-relative path (with its query) and, for
/// products, when it was listed (seconds since the Unix epoch).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitemapUrl {
    pub path: String,
    pub lastmod: Option<i64>,
}

impl SitemapUrl {
    fn page(path: String) -> Self {
        Self { path, lastmod: None }
    }
}

/// What `/sitemap.xml` (or one part) answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SitemapFile {
    /// Every address fits one file: the `<urlset>` itself.
    UrlSet(String),
    /// Too many: a `<sitemapindex>` of the parts.
    Index(String),
}

/// Every address: home and the static pages, categories, subcategories, brands,
/// then products in id order.
///
/// # Errors
/// [`CatalogError::Unavailable`] when the catalog cannot be read.
pub async fn urls(catalog: &CatalogService) -> Result<Vec<SitemapUrl>, CatalogError> {
    let mut urls: Vec<SitemapUrl> = STATIC_PATHS.iter().map(|p| SitemapUrl::page((*p).to_owned())).collect();
    let categories = catalog.categories().await?;
    urls.extend(categories.iter().map(|c| SitemapUrl::page(format!("/category/{}", segment(&c.slug)))));
    for c in &categories {
        urls.extend(
            c.subcategories
                .iter()
                .map(|s| SitemapUrl::page(format!("/subcategory/{}/{}", segment(&c.slug), segment(&s.slug)))),
        );
    }
    let brands = catalog.brands().await?;
    urls.extend(brands.iter().map(|b| SitemapUrl::page(format!("/brand/{}", segment(&b.slug)))));
    let mut after: Option<ProductId> = None;
    loop {
        let window = catalog.product_stamps(after.take(), STAMP_WINDOW).await?;
        let Some(last) = window.last() else { break };
        after = Some(last.id.clone());
        let full = window.len() == STAMP_WINDOW as usize;
        urls.extend(window.into_iter().map(|s| SitemapUrl {
            path: format!(
                "/product?{}",
                serde_urlencoded::to_string([("productId", s.id.as_str())]).unwrap_or_default()
            ),
            lastmod: Some(s.listed_at),
        }));
        if !full {
            break;
        }
    }
    Ok(urls)
}

/// How many part files `count` addresses need at `per_file` each (0 for none).
#[must_use]
pub fn part_count(count: usize, per_file: usize) -> usize {
    count.div_ceil(per_file.clamp(1, MAX_URLS_PER_FILE))
}

/// `/sitemap.xml`: the addresses themselves when they fit one file of `per_file`,
/// otherwise an index of the parts.
#[must_use]
pub fn sitemap(urls: &[SitemapUrl], origin: &str, per_file: usize) -> SitemapFile {
    let parts = part_count(urls.len(), per_file);
    if parts <= 1 {
        SitemapFile::UrlSet(url_set(urls, origin))
    } else {
        SitemapFile::Index(index(parts, origin))
    }
}

/// `/sitemap-{number}.xml`, from 1; `None` past the last part.
#[must_use]
pub fn part(urls: &[SitemapUrl], origin: &str, per_file: usize, number: usize) -> Option<String> {
    let per_file = per_file.clamp(1, MAX_URLS_PER_FILE);
    let start = number.checked_sub(1)?.checked_mul(per_file)?;
    if number > part_count(urls.len(), per_file).max(1) {
        return None;
    }
    let end = urls.len().min(start.saturating_add(per_file));
    Some(url_set(urls.get(start..end).unwrap_or_default(), origin))
}

/// The part number a path names: `/sitemap-3.xml` → 3.
#[must_use]
pub fn part_number(path: &str) -> Option<usize> {
    let digits = path.strip_prefix("/sitemap-")?.strip_suffix(".xml")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 9 {
        return None;
    }
    digits.parse().ok().filter(|n| *n >= 1)
}

/// robots.txt: everything may be crawled; the sitemap says where to start.
#[must_use]
pub fn robots(origin: &str) -> String {
    format!("User-agent: *\nAllow: /\n\nSitemap: {origin}/sitemap.xml\n")
}

fn url_set(urls: &[SitemapUrl], origin: &str) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for url in urls {
        xml.push_str("<url><loc>");
        xml.push_str(&escape(&format!("{origin}{}", url.path)));
        xml.push_str("</loc>");
        if let Some(seconds) = url.lastmod {
            xml.push_str("<lastmod>");
            xml.push_str(&w3c_datetime(seconds));
            xml.push_str("</lastmod>");
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

fn index(parts: usize, origin: &str) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for n in 1..=parts {
        xml.push_str("<sitemap><loc>");
        xml.push_str(&escape(&format!("{origin}/sitemap-{n}.xml")));
        xml.push_str("</loc></sitemap>\n");
    }
    xml.push_str("</sitemapindex>\n");
    xml
}

/// A path segment with everything but unreserved characters percent-encoded.
fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Seconds since the Unix epoch as a W3C datetime in UTC, e.g. `2026-01-01T00:00:00+00:00`.
#[must_use]
pub fn w3c_datetime(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00", of_day / 3_600, of_day % 3_600 / 60, of_day % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addresses(n: usize) -> Vec<SitemapUrl> {
        (0..n).map(|i| SitemapUrl { path: format!("/product?productId=p{i}"), lastmod: Some(0) }).collect()
    }

    #[test]
    fn dates_are_w3c_in_utc() {
        assert_eq!(w3c_datetime(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(w3c_datetime(1_767_225_600), "2026-01-01T00:00:00+00:00");
        assert_eq!(w3c_datetime(1_709_210_096), "2024-02-29T12:34:56+00:00");
        assert_eq!(w3c_datetime(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(w3c_datetime(-1), "1969-12-31T23:59:59+00:00");
    }

    #[test]
    fn text_is_escaped_and_segments_encoded() {
        let urls = [SitemapUrl { path: format!("/category/{}", segment("a&b <c>")), lastmod: None }];
        let xml = url_set(&urls, "https://shop.test/x?a=1&b='2'");
        assert!(xml.contains("<loc>https://shop.test/x?a=1&amp;b=&#39;2&#39;/category/a%26b%20%3Cc%3E</loc>"), "{xml}");
        assert!(!xml.contains("&b"), "{xml}");
    }

    #[test]
    fn one_file_until_the_limit_then_an_index_of_parts() {
        let origin = "https://shop.test";
        assert!(matches!(sitemap(&addresses(3), origin, 3), SitemapFile::UrlSet(_)));
        let SitemapFile::Index(xml) = sitemap(&addresses(7), origin, 3) else { panic!("7 addresses at 3 a file") };
        assert_eq!(xml.matches("<sitemap>").count(), 3);
        assert!(xml.contains("<loc>https://shop.test/sitemap-3.xml</loc>"));

        let urls = addresses(7);
        let parts: Vec<String> = (1..=3).map(|n| part(&urls, origin, 3, n).expect("a part")).collect();
        let counts: Vec<usize> = parts.iter().map(|p| p.matches("<url>").count()).collect();
        assert_eq!(counts, [3, 3, 1], "parts of at most 3, every address once");
        assert!(parts[2].contains("productId=p6<"));
        assert_eq!(part(&urls, origin, 3, 4), None);
        assert_eq!(part(&urls, origin, 3, 0), None);
        assert_eq!(part(&urls, origin, 3, usize::MAX), None);
        assert_eq!(part_count(100_001, usize::MAX), 3, "never more than the protocol's 50000 a file");
        assert_eq!(part_count(5, 0), 5, "at least one a file");
    }

    #[test]
    fn part_paths_are_read_strictly() {
        assert_eq!(part_number("/sitemap-1.xml"), Some(1));
        assert_eq!(part_number("/sitemap-12.xml"), Some(12));
        for path in [
            "/sitemap.xml",
            "/sitemap-0.xml",
            "/sitemap-.xml",
            "/sitemap-1a.xml",
            "/sitemap--1.xml",
            "/sitemap-99999999999.xml",
        ] {
            assert_eq!(part_number(path), None, "{path}");
        }
    }

    #[test]
    fn robots_allow_everything_and_name_the_sitemap() {
        let text = robots("https://shop.test");
        assert!(text.starts_with("User-agent: *\nAllow: /\n"));
        assert!(text.contains("Sitemap: https://shop.test/sitemap.xml\n"));
    }
}
