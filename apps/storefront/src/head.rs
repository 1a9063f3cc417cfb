//! Writes a page's head into the shell's HTML: title, description, canonical
//! link, Open Graph tags and JSON-LD, so shared links and search engines see the real page.

use super::first_load::{script_ids, Preload, PreloadKind};

/// Where in the shell's `<head>` the page's tags go.
pub const HEAD_MARKER: &str = "<!--marque-head-->";
/// The shell's own title, replaced by the page's.
const SHELL_TITLE: &str = "<title>Marque Parts</title>";

/// Served when the frontends have not been built, so the API and pages still answer.
pub const PLACEHOLDER_TEMPLATE: &str = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Marque Parts</title>\n<!--marque-head-->\n</head>\n<body>\n<div id=\"root\"><p>The storefront has not been built yet. Run <code>make run</code>.</p></div>\n</body>\n</html>\n";

/// What a page says about itself.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageHead {
    /// The page's own title; `None` is the shop's default title.
    pub title: Option<String>,
    /// `None` is the shop's default description.
    pub description: Option<String>,
    /// Path and meaningful query of the page's one true address, e.g. `/product?productId=p1`.
    pub canonical: String,
    /// Open Graph type (`website`, `product`).
    pub og_type: &'static str,
    /// Absolute or root-relative image for link previews.
    pub image: Option<String>,
    /// Structured data (schema.org), written as `application/ld+json`.
    pub json_ld: Option<serde_json::Value>,
    /// Keep the page out of search indexes (not-found pages, the one-time sign-in landings).
    pub noindex: bool,
    /// Files the page needs first (its remote's entry and chunks), hinted before the browser finds them.
    pub preloads: Vec<Preload>,
    /// The answers of the page's first API calls, as JSON, embedded as `<script id="marque-data">`.
    pub initial_data: Option<String>,
    /// A signed-in customer's first answers (`crate::signed_in`), embedded as `<script id="marque-session-data">`.
    pub session_data: Option<String>,
}

/// The shop as pages introduce it.
#[derive(Debug)]
pub struct Site<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// Scheme and host, no trailing slash.
    pub origin: &'a str,
    /// The shop's identity as JSON, embedded for the frontends as
    /// `<script id="marque-shop" type="application/json">`; empty for none.
    pub identity_json: &'a str,
    /// The `x-client-validation` value the frontends send on authorized calls, published as
    /// `<meta name="marque-client-validation">`; empty for none.
    pub client_validation: &'a str,
    /// Remote name → entry script URL (`/composition.json`), embedded as `<script id="marque-composition">` so the
    /// shell registers the remotes without a round trip; empty for none.
    pub composition_json: &'a str,
}

/// JSON made safe inside a `<script>` element: `<` never appears raw, so no
/// value can close the element or open a comment early.
fn script_json(json: &str) -> String {
    json.replace('<', "\\u003c")
}

/// `{title} - {shop}`, or the shop's name alone.
#[must_use]
pub fn full_title(title: Option<&str>, shop: &str) -> String {
    match title {
        Some(t) if !t.trim().is_empty() => format!("{} - {shop}", t.trim()),
        _ => shop.to_owned(),
    }
}

/// The template with this page's title and head tags in place.
#[must_use]
pub fn render(template: &str, head: &PageHead, site: &Site<'_>) -> String {
    let title = full_title(head.title.as_deref(), site.name);
    let description = head.description.as_deref().unwrap_or(site.description);
    let canonical = format!("{}{}", site.origin, head.canonical);
    let mut tags = vec![
        format!("<meta name=\"description\" content=\"{}\">", escape(description)),
        format!("<link rel=\"canonical\" href=\"{}\">", escape(&canonical)),
        format!("<meta property=\"og:site_name\" content=\"{}\">", escape(site.name)),
        format!("<meta property=\"og:type\" content=\"{}\">", head.og_type),
        format!("<meta property=\"og:title\" content=\"{}\">", escape(&title)),
        format!("<meta property=\"og:description\" content=\"{}\">", escape(description)),
        format!("<meta property=\"og:url\" content=\"{}\">", escape(&canonical)),
        "<meta property=\"og:locale\" content=\"en_IN\">".to_owned(),
    ];
    if let Some(image) = &head.image {
        let absolute = if image.starts_with('/') { format!("{}{image}", site.origin) } else { image.clone() };
        tags.push(format!("<meta property=\"og:image\" content=\"{}\">", escape(&absolute)));
    }
    if head.noindex {
        tags.push("<meta name=\"robots\" content=\"noindex\">".to_owned());
    }
    if let Some(data) = &head.json_ld {
        tags.push(format!("<script type=\"application/ld+json\">{}</script>", script_json(&data.to_string())));
    }
    if !site.client_validation.is_empty() {
        tags.push(format!("<meta name=\"marque-client-validation\" content=\"{}\">", escape(site.client_validation)));
    }
    if !site.identity_json.is_empty() {
        tags.push(format!(
            "<script id=\"{}\" type=\"application/json\">{}</script>",
            script_ids().shop,
            script_json(site.identity_json)
        ));
    }
    if !site.composition_json.is_empty() {
        tags.push(format!(
            "<script id=\"{}\" type=\"application/json\">{}</script>",
            script_ids().composition,
            script_json(site.composition_json)
        ));
    }
    if let Some(data) = &head.initial_data {
        tags.push(format!(
            "<script id=\"{}\" type=\"application/json\">{}</script>",
            script_ids().answers,
            script_json(data)
        ));
    }
    if let Some(data) = &head.session_data {
        tags.push(format!(
            "<script id=\"{}\" type=\"application/json\">{}</script>",
            script_ids().session_answers,
            script_json(data)
        ));
    }
    let title_tag = format!("<title>{}</title>", escape(&title));
    let html = if template.contains(SHELL_TITLE) {
        template.replacen(SHELL_TITLE, &title_tag, 1)
    } else {
        template.replacen("</head>", &format!("{title_tag}\n</head>"), 1)
    };
    let tags = tags.join("\n");
    let html = if html.contains(HEAD_MARKER) {
        html.replacen(HEAD_MARKER, &tags, 1)
    } else {
        html.replacen("</head>", &format!("{tags}\n</head>"), 1)
    };
    // After the shell's own entry and chunks, which the page needs before its remote's.
    if head.preloads.is_empty() {
        return html;
    }
    let links: String = head.preloads.iter().map(preload_link).collect();
    html.replacen("</head>", &format!("{links}</head>"), 1)
}

fn preload_link(preload: &Preload) -> String {
    match preload.kind {
        PreloadKind::Script => format!("<link rel=\"preload\" as=\"script\" href=\"{}\">", escape(&preload.href)),
        PreloadKind::Image => match &preload.responsive {
            None => format!("<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"{}\">", escape(&preload.href)),
            Some((srcset, sizes)) => format!(
                "<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"{}\" imagesrcset=\"{}\" imagesizes=\"{}\">",
                escape(&preload.href),
                escape(srcset),
                escape(sizes)
            ),
        },
    }
}

/// Escapes text for an HTML attribute or element.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SITE: Site<'static> = Site {
        client_validation: "",
        name: "Marque Parts",
        description: "Default.",
        origin: "https://shop.test",
        identity_json: r#"{"name":"Marque Parts","address":"</script><script>alert(1)</script>"}"#,
        composition_json: r#"{"catalog":"/remotes/catalog/remoteEntry.js"}"#,
    };

    #[test]
    fn composition_data_and_preloads_are_written_as_json_and_hints_never_as_scripts_that_run() {
        let head = PageHead {
            canonical: "/".into(),
            og_type: "website",
            initial_data: Some(r#"[{"path":"/api/get/x","query":{},"body":{"name":"</script><script>"}}]"#.into()),
            session_data: Some(
                r#"{"for":"ab","answers":[{"path":"/api/user","query":{},"body":{"name":"</script>"}}]}"#.into(),
            ),
            preloads: vec![
                Preload { href: "/remotes/catalog/remoteEntry.js".into(), kind: PreloadKind::Script, responsive: None },
                Preload { href: "/media/parts/disc.svg".into(), kind: PreloadKind::Image, responsive: None },
            ],
            ..PageHead::default()
        };
        let html = render(PLACEHOLDER_TEMPLATE, &head, &SITE);
        assert!(html.contains(
            "<script id=\"marque-composition\" type=\"application/json\">{\"catalog\":\"/remotes/catalog/remoteEntry.js\"}</script>"
        ));
        assert!(html.contains("<script id=\"marque-data\" type=\"application/json\">[{\"path\""), "{html}");
        assert!(!html.contains("</script><script>\"}"), "the data closed its element: {html}");
        assert!(
            html.contains("<script id=\"marque-session-data\" type=\"application/json\">{\"for\":\"ab\""),
            "{html}"
        );
        assert!(!html.contains("\"name\":\"</script>"), "the customer's data closed its element: {html}");
        let preloads = "<link rel=\"preload\" as=\"script\" href=\"/remotes/catalog/remoteEntry.js\">\
                        <link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"/media/parts/disc.svg\"></head>";
        assert!(html.contains(preloads), "{html}");
        // Every script the server writes is data: no inline script a content security policy would have to allow.
        let scripts = html.matches("<script").count();
        let data =
            html.matches("type=\"application/json\">").count() + html.matches("type=\"application/ld+json\">").count();
        assert_eq!(scripts, data);
        let plain = render(PLACEHOLDER_TEMPLATE, &PageHead { canonical: "/".into(), ..PageHead::default() }, &SITE);
        assert!(
            !plain.contains("marque-data")
                && !plain.contains("marque-session-data")
                && !plain.contains("rel=\"preload\"")
        );
    }

    #[test]
    fn titles_follow_the_pattern() {
        assert_eq!(full_title(Some("Brake Disc"), "Marque Parts"), "Brake Disc - Marque Parts");
        assert_eq!(full_title(None, "Marque Parts"), "Marque Parts");
        assert_eq!(full_title(Some("  "), "Marque Parts"), "Marque Parts");
    }

    #[test]
    fn head_goes_in_at_the_marker_and_text_is_escaped() {
        let head = PageHead {
            title: Some("Disc <\"A\"> & co".into()),
            canonical: "/product?productId=p1".into(),
            og_type: "product",
            json_ld: Some(serde_json::json!({ "name": "</script><b>" })),
            ..PageHead::default()
        };
        let html = render(PLACEHOLDER_TEMPLATE, &head, &SITE);
        assert!(html.contains("<title>Disc &lt;&quot;A&quot;&gt; &amp; co - Marque Parts</title>"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://shop.test/product?productId=p1\">"));
        assert!(html.contains("<meta name=\"description\" content=\"Default.\">"));
        assert!(html.contains("\\u003c/script>\\u003cb>"), "{html}");
        assert!(!html.contains(HEAD_MARKER));
        assert_eq!(html.matches("<title>").count(), 1);
    }

    #[test]
    fn the_shop_identity_is_embedded_as_json_that_cannot_close_its_script() {
        let html = render(PLACEHOLDER_TEMPLATE, &PageHead::default(), &SITE);
        let start = "<script id=\"marque-shop\" type=\"application/json\">";
        let from = html.find(start).expect("embedded") + start.len();
        let to = from + html[from..].find("</script>").expect("closed");
        let json: serde_json::Value = serde_json::from_str(&html[from..to]).expect("the whole object, intact");
        assert_eq!(json["address"], "</script><script>alert(1)</script>");
        assert!(!html.contains("<script>alert(1)"));
    }
}
