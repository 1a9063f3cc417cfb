//! [`PhotoFetcher`] for the photographs an import names by address, guarded against server-side
//! request forgery:
//!
//! - only `https` (plain `http` only for a host of the test-only allowlist);
//! - the host is resolved here and EVERY address it resolves to must be public (not private,
//!   loopback, link-local, unique-local, shared, multicast, reserved, documentation or
//!   unspecified; an IPv4 address inside IPv6 — mapped, compatible, NAT64 or 6to4 — is judged as
//!   IPv4), and the connection is made to a checked address (the client is told the address, so a
//!   second lookup cannot answer another: no DNS rebinding);
//! - no redirect is followed (one is refused), no proxy is used;
//! - the answer must be `200`, typed `image/jpeg`, `image/png` or `image/webp`, at most
//!   [`FETCH_MAX_BYTES`] (read no further), within [`FETCH_TIMEOUT`] in all.
//!
//! The allowlist (`MARQUE_TEST_PHOTO_HOSTS`, refused in `prod`) names hosts that may be fetched
//! whatever their addresses, over `http` too, so tests can serve photographs from 127.0.0.1.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use async_trait::async_trait;
use marque_ports::{PhotoFetchError, PhotoFetcher};

/// Most bytes one fetched photograph may have: a photograph file's own limit.
pub const FETCH_MAX_BYTES: usize = crate::MAX_PHOTO_BYTES;
/// How long one fetch may take in all (lookup, connection, answer).
pub const FETCH_TIMEOUT: Duration = Duration::from_secs(20);
/// The picture types taken.
const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/jpg", "image/png", "image/webp"];

/// Whether an address is on the public internet: what a fetch may connect to.
#[must_use]
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0 // "this network", 0.0.0.0 included
        || ip.is_loopback() // 127/8
        || ip.is_private() // 10/8, 172.16/12, 192.168/16
        || ip.is_link_local() // 169.254/16
        || (a == 100 && (b & 0xc0) == 64) // 100.64/10, carrier-grade NAT
        || (a == 192 && b == 0 && c == 0) // 192.0.0/24, protocol assignments
        || (a == 192 && b == 0 && c == 2) // documentation
        || (a == 198 && (b & 0xfe) == 18) // 198.18/15, benchmarking
        || (a == 198 && b == 51 && c == 100) // documentation
        || (a == 203 && b == 0 && c == 113) // documentation
        || a >= 224) // multicast, reserved, broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4); // ::ffff:a.b.c.d
    }
    let embedded = |hi: u16, lo: u16| Ipv4Addr::new((hi >> 8) as u8, hi as u8, (lo >> 8) as u8, lo as u8);
    if s[..6] == [0; 6] {
        // ::a.b.c.d (IPv4-compatible, deprecated), :: and ::1 among them.
        return false;
    }
    if s[0] == 0x64 && s[1] == 0xff9b {
        return is_public_v4(embedded(s[6], s[7])); // NAT64 64:ff9b::/96
    }
    if s[0] == 0x2002 {
        return is_public_v4(embedded(s[1], s[2])); // 6to4 2002::/16
    }
    !((s[0] & 0xfe00) == 0xfc00 // fc00::/7 unique local
        || (s[0] & 0xffc0) == 0xfe80 // fe80::/10 link-local
        || (s[0] & 0xffc0) == 0xfec0 // fec0::/10 site-local (deprecated)
        || (s[0] & 0xff00) == 0xff00 // multicast
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x100 && s[1..4] == [0, 0, 0])) // 100::/64 discard
}

/// Fetches photographs by address with the guard above.
#[derive(Debug, Clone, Default)]
pub struct GuardedPhotoFetcher {
    /// Hosts fetched whatever their addresses and over `http` too: tests only.
    allowed_hosts: Vec<String>,
    timeout: Option<Duration>,
}

impl GuardedPhotoFetcher {
    /// A fetcher for production: no host allowed past the guard.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The same fetcher letting `hosts` (names or addresses as URLs write them, any case) past
    /// the address guard and over plain `http`: for tests' local servers only.
    #[must_use]
    pub fn allowing_test_hosts(mut self, hosts: Vec<String>) -> Self {
        self.allowed_hosts =
            hosts.into_iter().map(|h| h.trim().to_ascii_lowercase()).filter(|h| !h.is_empty()).collect();
        self
    }

    fn allowed(&self, host: &str) -> bool {
        let host = host.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
        self.allowed_hosts.iter().any(|h| h.trim_start_matches('[').trim_end_matches(']') == host)
    }

    /// The address parsed and checked from its text: `(url, host, allowed)`.
    fn parse(&self, text: &str) -> Result<(url::Url, String, bool), PhotoFetchError> {
        let url = url::Url::parse(text).map_err(|e| PhotoFetchError::Refused(format!("not an address: {e}")))?;
        let host = url.host_str().ok_or_else(|| PhotoFetchError::Refused("no host".into()))?.to_owned();
        let allowed = self.allowed(&host);
        match url.scheme() {
            "https" => {}
            "http" if allowed => {}
            other => return Err(PhotoFetchError::Refused(format!("`{other}` is not https"))),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(PhotoFetchError::Refused("an address with credentials".into()));
        }
        if !allowed {
            if let Some(ip) = literal(&url) {
                if !is_public(ip) {
                    return Err(PhotoFetchError::Refused(format!("{ip} is not a public address")));
                }
            } else if is_localhost(&host) {
                return Err(PhotoFetchError::Refused("localhost".into()));
            }
        }
        Ok((url, host, allowed))
    }

    async fn fetch_checked(&self, text: &str) -> Result<Vec<u8>, PhotoFetchError> {
        let (url, host, allowed) = self.parse(text)?;
        let port = url.port_or_known_default().unwrap_or(443);
        let addresses: Vec<SocketAddr> = match literal(&url) {
            Some(ip) => vec![SocketAddr::new(ip, port)],
            None => tokio::net::lookup_host((host.as_str(), port))
                .await
                .map_err(|e| PhotoFetchError::Failed(format!("{host} does not resolve: {e}")))?
                .collect(),
        };
        let address = checked_address(&host, &addresses, allowed)?;
        let mut client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(Duration::from_secs(10));
        if literal(&url).is_none() {
            // Connect to the address checked above, never to a second lookup's answer.
            client = client.resolve(&host, address);
        }
        let client = client.build().map_err(|e| PhotoFetchError::Failed(e.to_string()))?;
        let failed = |e: reqwest::Error| PhotoFetchError::Failed(e.without_url().to_string());
        let mut answer = client.get(url).send().await.map_err(failed)?;
        let status = answer.status();
        if status.is_redirection() {
            return Err(PhotoFetchError::Refused(format!("a redirect ({status}) is not followed")));
        }
        if status != reqwest::StatusCode::OK {
            return Err(PhotoFetchError::Failed(format!("answered {status}")));
        }
        let kind = answer
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
            .unwrap_or_default();
        if !IMAGE_TYPES.contains(&kind.as_str()) {
            return Err(PhotoFetchError::Failed(format!("`{kind}` is not a picture")));
        }
        if answer.content_length().is_some_and(|n| n > FETCH_MAX_BYTES as u64) {
            return Err(PhotoFetchError::Failed("above 25 MB".into()));
        }
        let mut bytes = Vec::new();
        while let Some(chunk) = answer.chunk().await.map_err(failed)? {
            if bytes.len() + chunk.len() > FETCH_MAX_BYTES {
                return Err(PhotoFetchError::Failed("above 25 MB".into()));
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(bytes)
    }
}

/// The address to connect to: the first of those the host resolves to, once EVERY one of them is
/// public (a host answering one private address among public ones is refused whole).
///
/// # Errors
/// `Refused` for a private address among them (unless `allowed`), `Failed` for none at all.
pub fn checked_address(host: &str, addresses: &[SocketAddr], allowed: bool) -> Result<SocketAddr, PhotoFetchError> {
    if !allowed {
        if let Some(private) = addresses.iter().find(|a| !is_public(a.ip())) {
            return Err(PhotoFetchError::Refused(format!("{host} resolves to {}", private.ip())));
        }
    }
    addresses.first().copied().ok_or_else(|| PhotoFetchError::Failed(format!("{host} has no address")))
}

/// `localhost` and its subdomains (RFC 6761), a final dot or not.
fn is_localhost(host: &str) -> bool {
    let name = host.trim_end_matches('.').to_ascii_lowercase();
    name == "localhost" || name.ends_with(".localhost")
}

/// The address an URL names literally, if it does.
fn literal(url: &url::Url) -> Option<IpAddr> {
    match url.host()? {
        url::Host::Ipv4(ip) => Some(IpAddr::V4(ip)),
        url::Host::Ipv6(ip) => Some(IpAddr::V6(ip)),
        url::Host::Domain(_) => None,
    }
}

#[async_trait]
impl PhotoFetcher for GuardedPhotoFetcher {
    fn precheck(&self, url: &str) -> Result<(), PhotoFetchError> {
        self.parse(url).map(drop)
    }

    async fn fetch(&self, url: &str) -> Result<Vec<u8>, PhotoFetchError> {
        let limit = self.timeout.unwrap_or(FETCH_TIMEOUT);
        tokio::time::timeout(limit, self.fetch_checked(url))
            .await
            .map_err(|_| PhotoFetchError::Failed("no answer in time".into()))?
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiremock::matchers::{method, path};
    use wiremock::{Mock, MockServer, ResponseTemplate};

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn private_loopback_link_local_and_unspecified_addresses_are_not_public() {
        for refused in [
            "127.0.0.1",
            "127.255.0.9",
            "::1",
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.254",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "febf::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "2002:c0a8:101::1",
            "100.64.0.1",
            "224.0.0.1",
            "255.255.255.255",
            "ff02::1",
        ] {
            assert!(!is_public(ip(refused)), "{refused} must be refused");
        }
        for public in ["8.8.8.8", "172.15.255.255", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "::ffff:8.8.8.8"] {
            assert!(is_public(ip(public)), "{public} is public");
        }
    }

    #[test]
    fn only_https_to_a_public_literal_passes_the_precheck() {
        let f = GuardedPhotoFetcher::new();
        assert_eq!(f.precheck("https://cdn.example.com/a.jpg"), Ok(()));
        assert_eq!(f.precheck("https://8.8.8.8/a.jpg"), Ok(()));
        for refused in [
            "http://cdn.example.com/a.jpg",
            "ftp://cdn.example.com/a.jpg",
            "https://127.0.0.1/a.jpg",
            "https://[::1]/a.jpg",
            "https://[::ffff:127.0.0.1]/a.jpg",
            "https://10.0.0.5/a.jpg",
            "https://localhost/a.jpg",
            "https://user:pw@cdn.example.com/a.jpg",
            "https://0.0.0.0/a.jpg",
            "https://2130706433/a.jpg",
        ] {
            assert!(matches!(f.precheck(refused), Err(PhotoFetchError::Refused(_))), "{refused}");
        }
    }

    async fn picture_server() -> MockServer {
        let server = MockServer::start().await;
        Mock::given(method("GET"))
            .and(path("/a.jpg"))
            .respond_with(
                ResponseTemplate::new(200)
                    .insert_header("content-type", "image/jpeg")
                    .set_body_bytes(b"\xff\xd8\xffjpeg".to_vec()),
            )
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/page"))
            .respond_with(
                ResponseTemplate::new(200).insert_header("content-type", "text/html").set_body_string("<html>"),
            )
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/moved.jpg"))
            .respond_with(ResponseTemplate::new(302).insert_header("location", "http://169.254.169.254/latest"))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/huge.jpg"))
            .respond_with(ResponseTemplate::new(200).insert_header("content-type", "image/jpeg").set_body_bytes(vec![
                    0u8;
                    FETCH_MAX_BYTES
                        + 1
                ]))
            .mount(&server)
            .await;
        server
    }

    #[tokio::test]
    async fn a_local_server_is_fetched_only_through_the_test_allowlist() {
        let server = picture_server().await;
        let url = format!("{}/a.jpg", server.uri());
        assert!(url.starts_with("http://127.0.0.1:"), "{url}");
        let refused = GuardedPhotoFetcher::new().fetch(&url).await;
        assert!(matches!(refused, Err(PhotoFetchError::Refused(_))), "{refused:?}");
        let https = GuardedPhotoFetcher::new().fetch(&url.replacen("http://", "https://", 1)).await;
        assert!(matches!(https, Err(PhotoFetchError::Refused(_))), "127.0.0.1 over https too: {https:?}");
        assert_eq!(server.received_requests().await.map(|r| r.len()), Some(0), "nothing was asked of the server");

        let allowed = GuardedPhotoFetcher::new().allowing_test_hosts(vec!["127.0.0.1".into()]);
        assert_eq!(allowed.fetch(&url).await, Ok(b"\xff\xd8\xffjpeg".to_vec()));
        let page = allowed.fetch(&format!("{}/page", server.uri())).await;
        assert!(matches!(page, Err(PhotoFetchError::Failed(_))), "{page:?}");
        let moved = allowed.fetch(&format!("{}/moved.jpg", server.uri())).await;
        assert!(matches!(moved, Err(PhotoFetchError::Refused(_))), "{moved:?}");
        let huge = allowed.fetch(&format!("{}/huge.jpg", server.uri())).await;
        assert!(matches!(huge, Err(PhotoFetchError::Failed(_))), "{huge:?}");
    }

    #[test]
    fn a_name_with_any_private_address_among_its_answers_is_refused() {
        let at = |text: &str| SocketAddr::new(ip(text), 443);
        let public = [at("93.184.216.34"), at("2606:2800:220:1::1")];
        assert_eq!(checked_address("cdn.example", &public, false), Ok(public[0]));
        // A rebinding answer: one public address and one of the shop's own.
        let mixed = [at("93.184.216.34"), at("10.0.0.7")];
        assert!(matches!(checked_address("cdn.example", &mixed, false), Err(PhotoFetchError::Refused(_))));
        assert!(matches!(checked_address("x", &[at("::ffff:127.0.0.1")], false), Err(PhotoFetchError::Refused(_))));
        assert_eq!(checked_address("test", &[at("127.0.0.1")], true), Ok(at("127.0.0.1")));
        assert!(matches!(checked_address("none", &[], false), Err(PhotoFetchError::Failed(_))));
    }

    #[tokio::test]
    async fn localhost_by_name_is_refused_before_connecting() {
        let server = picture_server().await;
        let port = server.address().port();
        for name in ["localhost", "localhost.", "shop.localhost"] {
            let named = GuardedPhotoFetcher::new().fetch(&format!("https://{name}:{port}/a.jpg")).await;
            assert!(matches!(named, Err(PhotoFetchError::Refused(_))), "{name}: {named:?}");
        }
        assert_eq!(server.received_requests().await.map(|r| r.len()), Some(0));
    }
}
