//! Pictures the project draws itself: part illustrations and maker logos as SVG.
//!
//! `/media/parts/{kind}-{n}.svg` draws a part of that kind (the subcategory slug)
//! in colour scheme `n`; `/media/new-car-logo/{slug}.svg` draws a maker's badge.
//! Both are pure functions of the path, so they cache forever.

use poem::http::StatusCode;
use poem::web::Path;
use poem::{handler, Response};

use super::head::escape;

const PALETTES: [(&str, &str); 6] = [
    ("#e8eef7", "#1f4e8c"),
    ("#f3ece3", "#8c5a1f"),
    ("#e6f2ec", "#1f7a4f"),
    ("#efe9f5", "#5b3a8c"),
    ("#f5e8e8", "#8c2f2f"),
    ("#ececec", "#3a3a3a"),
];

#[handler]
pub fn media(Path(path): Path<String>) -> Response {
    let svg = match path.split_once('/') {
        Some(("parts", file)) => file.strip_suffix(".svg").and_then(part_svg),
        Some(("new-car-logo", file)) => file.strip_suffix(".svg").and_then(logo_svg),
        _ => None,
    };
    match svg {
        Some(svg) => Response::builder()
            .content_type("image/svg+xml")
            .header("cache-control", "public, max-age=31536000, immutable")
            .body(svg),
        None => Response::builder().status(StatusCode::NOT_FOUND).content_type("text/plain").body("no such image"),
    }
}

fn valid_slug(s: &str) -> bool {
    !s.is_empty() && s.len() <= 60 && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn title_case(slug: &str) -> String {
    slug.split('-')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A part drawing: a shape that hints at the part, on a coloured card, with its name.
fn part_svg(stem: &str) -> Option<String> {
    let (kind, n) = stem.rsplit_once('-')?;
    let n: usize = n.parse().ok()?;
    if !valid_slug(kind) {
        return None;
    }
    let (bg, fg) = PALETTES[n % PALETTES.len()];
    let label = escape(&title_case(kind));
    let shape = shape_for(kind, fg);
    Some(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 300" width="400" height="300" role="img" aria-label="{label}"><rect width="400" height="300" rx="16" fill="{bg}"/>{shape}<text x="200" y="276" font-family="Arial, sans-serif" font-size="20" text-anchor="middle" fill="{fg}">{label}</text></svg>"##
    ))
}

fn shape_for(kind: &str, fg: &str) -> String {
    let round = ["disc", "wheel", "pump", "clutch", "alternator", "starter", "torque", "fan", "pulley", "turbo"];
    let lamp = ["lamp", "light", "indicator"];
    let long = ["shaft", "rack", "arm", "absorber", "strut", "pipe", "hose", "exhaust", "silencer"];
    if round.iter().any(|k| kind.contains(k)) {
        format!(
            r#"<circle cx="200" cy="130" r="90" fill="none" stroke="{fg}" stroke-width="14"/><circle cx="200" cy="130" r="34" fill="{fg}"/><g fill="{fg}"><circle cx="200" cy="70" r="8"/><circle cx="260" cy="130" r="8"/><circle cx="200" cy="190" r="8"/><circle cx="140" cy="130" r="8"/></g>"#
        )
    } else if lamp.iter().any(|k| kind.contains(k)) {
        format!(
            r#"<path d="M90 80 Q200 20 310 80 L290 200 Q200 230 110 200 Z" fill="none" stroke="{fg}" stroke-width="12"/><circle cx="170" cy="130" r="32" fill="{fg}" opacity=".8"/><circle cx="245" cy="130" r="22" fill="{fg}" opacity=".5"/>"#
        )
    } else if long.iter().any(|k| kind.contains(k)) {
        format!(
            r#"<rect x="60" y="110" width="280" height="40" rx="20" fill="{fg}"/><circle cx="70" cy="130" r="30" fill="none" stroke="{fg}" stroke-width="12"/><circle cx="330" cy="130" r="30" fill="none" stroke="{fg}" stroke-width="12"/>"#
        )
    } else {
        format!(
            r#"<rect x="90" y="50" width="220" height="160" rx="18" fill="none" stroke="{fg}" stroke-width="14"/><rect x="130" y="90" width="140" height="80" rx="8" fill="{fg}" opacity=".75"/><g fill="{fg}"><rect x="70" y="80" width="20" height="20"/><rect x="70" y="160" width="20" height="20"/><rect x="310" y="80" width="20" height="20"/><rect x="310" y="160" width="20" height="20"/></g>"#
        )
    }
}

/// A maker's badge: initials in a ring. Our own drawing, not the maker's trademark art.
fn logo_svg(slug: &str) -> Option<String> {
    if !valid_slug(slug) {
        return None;
    }
    let name = title_case(slug);
    let initials: String = name.split(' ').filter_map(|w| w.chars().next()).take(2).collect();
    let hue = slug.bytes().fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b))) % 360;
    let name = escape(&name);
    Some(format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200" width="200" height="200" role="img" aria-label="{name}"><circle cx="100" cy="100" r="92" fill="hsl({hue},45%,96%)" stroke="hsl({hue},55%,30%)" stroke-width="8"/><text x="100" y="118" font-family="Arial, sans-serif" font-size="56" font-weight="700" text-anchor="middle" fill="hsl({hue},55%,30%)">{initials}</text><text x="100" y="160" font-family="Arial, sans-serif" font-size="16" text-anchor="middle" fill="hsl({hue},55%,30%)">{name}</text></svg>"##
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drawings_are_deterministic_and_refuse_odd_names() {
        assert_eq!(part_svg("brake-disc-2"), part_svg("brake-disc-2"));
        assert!(part_svg("brake-disc-2").is_some_and(|s| s.contains("Brake Disc")));
        assert!(part_svg("brake-disc").is_none());
        assert!(part_svg("<script>-1").is_none());
        assert!(logo_svg("mercedes-benz").is_some_and(|s| s.contains(">MB<")));
        assert!(logo_svg("../etc").is_none());
    }
}
