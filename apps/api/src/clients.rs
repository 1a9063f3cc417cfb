//! Who a client is, for per-client limits.
//!
//! A client is keyed by its address: the socket's peer, or, when that peer is one of the
//! `MARQUE_TRUSTED_PROXIES` (the load balancer of `docs/deploy.md`), the right-most address of
//! `X-Forwarded-For` that is not a trusted proxy (what the first proxy saw; everything left of
//! it is whatever the client chose to send). An IPv6 client is keyed by its /64, the block one
//! subscriber gets, so walking through the addresses of one's own block is one client.

use std::net::{IpAddr, Ipv6Addr};

use poem::Request;

/// One network: an address and how many leading bits of it count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Network {
    addr: IpAddr,
    bits: u8,
}

impl Network {
    fn parse(s: &str) -> Option<Self> {
        let (addr, bits) = match s.split_once('/') {
            Some((a, b)) => (a.trim().parse::<IpAddr>().ok()?, Some(b.trim().parse::<u8>().ok()?)),
            None => (s.trim().parse::<IpAddr>().ok()?, None),
        };
        let addr = canonical(addr);
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let bits = bits.unwrap_or(max);
        (bits <= max).then_some(Self { addr, bits })
    }

    fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                prefix(u128::from(u32::from(net)) << 96, self.bits)
                    == prefix(u128::from(u32::from(ip)) << 96, self.bits)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                prefix(u128::from(net), self.bits) == prefix(u128::from(ip), self.bits)
            }
            _ => false,
        }
    }
}

/// The leading `bits` of `value`.
fn prefix(value: u128, bits: u8) -> u128 {
    if bits == 0 {
        0
    } else {
        value & (u128::MAX << (128 - u32::from(bits.min(128))))
    }
}

/// An IPv4 address mapped into IPv6 is the IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 @ IpAddr::V4(_) => v4,
    }
}

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<Network>);

impl TrustedProxies {
    /// Parses `10.0.0.0/8, 192.168.1.7, fd00::/8`; empty means none.
    ///
    /// # Errors
    /// The first entry that is not an address or a CIDR.
    pub fn parse(list: &str) -> Result<Self, String> {
        list.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                Network::parse(s).ok_or_else(|| format!("MARQUE_TRUSTED_PROXIES: `{s}` is not an address or a CIDR"))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|n| n.contains(ip))
    }

    /// The client of a request from `peer` carrying these `X-Forwarded-For` values (in order).
    #[must_use]
    pub fn client(&self, peer: IpAddr, forwarded_for: &[&str]) -> IpAddr {
        if !self.trusts(peer) {
            return canonical(peer);
        }
        let mut client = canonical(peer);
        let hops = forwarded_for.iter().flat_map(|v| v.split(',')).map(str::trim).collect::<Vec<_>>();
        for hop in hops.into_iter().rev() {
            let Some(ip) = parse_hop(hop) else { break };
            client = canonical(ip);
            if !self.trusts(ip) {
                break;
            }
        }
        client
    }
}

/// One `X-Forwarded-For` entry: an address, possibly with a port (`203.0.113.9:4711`,
/// `[2001:db8::1]:443`).
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>().ok().or_else(|| hop.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
}

/// The key a client's limits are counted under: an IPv4 address, or an IPv6 address's /64.
#[must_use]
pub fn key(ip: IpAddr) -> String {
    match canonical(ip) {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => format!("{}/64", Ipv6Addr::from(prefix(u128::from(v6), 64))),
    }
}

/// The key of the client that sent `req`, as `proxies` tell it.
#[must_use]
pub fn client_key(req: &Request, proxies: &TrustedProxies) -> String {
    let Some(peer) = req.remote_addr().as_socket_addr().map(std::net::SocketAddr::ip) else {
        return "unknown".to_owned();
    };
    let forwarded: Vec<&str> =
        req.headers().get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect();
    key(proxies.client(peer, &forwarded))
}

tokio::task_local! {
    /// The key of the client whose request is being answered, for calls made in-process on
    /// its behalf (the storefront asks the API for the data its pages embed).
    static CLIENT: String;
}

/// Works out each request's client once (see [`client_key`]) and keeps it for the request.
#[derive(Debug, Clone)]
pub struct RememberClient(pub std::sync::Arc<TrustedProxies>);

impl<E: poem::Endpoint> poem::Middleware<E> for RememberClient {
    type Output = RememberClientEndpoint<E>;

    fn transform(&self, ep: E) -> Self::Output {
        RememberClientEndpoint { inner: ep, proxies: self.0.clone() }
    }
}

#[derive(Debug)]
pub struct RememberClientEndpoint<E> {
    inner: E,
    proxies: std::sync::Arc<TrustedProxies>,
}

impl<E: poem::Endpoint> poem::Endpoint for RememberClientEndpoint<E> {
    type Output = E::Output;

    async fn call(&self, req: Request) -> poem::Result<Self::Output> {
        let key = client_key(&req, &self.proxies);
        CLIENT.scope(key, self.inner.call(req)).await
    }
}

/// The client key of the instance's own warm-up requests (asked in-process, no peer): never a
/// shopper's, which is an address or `unknown`.
pub const WARM_UP: &str = "warm-up";

/// Runs `call` (an in-process request) as the instance's own warm-up: its catalog misses spend
/// no client's budget (see `catalog_budget::guarded`).
pub async fn as_warm_up<F: std::future::Future>(call: F) -> F::Output {
    CLIENT.scope(WARM_UP.to_owned(), call).await
}

/// The key of the client `req` is answered for: the one [`RememberClient`] found, else (a route
/// tree without it) the socket's peer.
#[must_use]
pub fn current(req: &Request) -> String {
    CLIENT.try_with(Clone::clone).unwrap_or_else(|_| client_key(req, &TrustedProxies::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("an address")
    }

    #[test]
    fn without_trusted_proxies_the_peer_is_the_client_whatever_it_forwards() {
        let none = TrustedProxies::default();
        assert_eq!(none.client(ip("10.0.0.5"), &["203.0.113.9"]), ip("10.0.0.5"));
        let lb = TrustedProxies::parse("10.0.0.0/8").expect("parses");
        assert_eq!(
            lb.client(ip("198.51.100.1"), &["203.0.113.9"]),
            ip("198.51.100.1"),
            "an untrusted peer's header is ignored"
        );
    }

    #[test]
    fn from_a_trusted_proxy_the_right_most_untrusted_address_is_the_client() {
        let lb = TrustedProxies::parse(" 10.0.0.0/8 , 192.168.7.7").expect("parses");
        assert_eq!(lb.client(ip("10.1.2.3"), &["203.0.113.9"]), ip("203.0.113.9"));
        // The client sent a made-up address first; the proxies appended what they saw.
        assert_eq!(lb.client(ip("10.1.2.3"), &["1.2.3.4, 203.0.113.9, 192.168.7.7"]), ip("203.0.113.9"));
        assert_eq!(
            lb.client(ip("10.1.2.3"), &["1.2.3.4", "203.0.113.9"]),
            ip("203.0.113.9"),
            "several headers are one list"
        );
        assert_eq!(lb.client(ip("10.1.2.3"), &["203.0.113.9:4711"]), ip("203.0.113.9"));
        assert_eq!(lb.client(ip("10.1.2.3"), &["[2001:db8::1]:443"]), ip("2001:db8::1"));
        assert_eq!(lb.client(ip("10.1.2.3"), &[]), ip("10.1.2.3"), "no header: the proxy itself");
        assert_eq!(lb.client(ip("10.1.2.3"), &["garbage"]), ip("10.1.2.3"), "nothing readable: the proxy itself");
        assert_eq!(lb.client(ip("10.1.2.3"), &["10.9.9.9"]), ip("10.9.9.9"), "all trusted: the left-most");
        assert_eq!(lb.client(ip("::ffff:10.1.2.3"), &["203.0.113.9"]), ip("203.0.113.9"), "an IPv4-mapped peer");
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        assert_eq!(key(ip("2001:db8:1:2:aaaa::1")), "2001:db8:1:2::/64");
        assert_eq!(key(ip("2001:db8:1:2:ffff:1:2:3")), key(ip("2001:db8:1:2::9")));
        assert_ne!(key(ip("2001:db8:1:3::1")), key(ip("2001:db8:1:2::1")));
        assert_eq!(key(ip("203.0.113.9")), "203.0.113.9");
        assert_eq!(key(ip("::ffff:203.0.113.9")), "203.0.113.9");
    }

    #[test]
    fn malformed_proxies_are_refused() {
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        assert!(TrustedProxies::parse("proxy.internal").is_err());
        assert_eq!(TrustedProxies::parse(" , ").expect("empty"), TrustedProxies::default());
        let v6 = TrustedProxies::parse("fd00::/8").expect("parses");
        assert!(v6.trusts(ip("fd12::1")) && !v6.trusts(ip("fe80::1")) && !v6.trusts(ip("10.0.0.1")));
        assert!(TrustedProxies::parse("0.0.0.0/0").expect("parses").trusts(ip("8.8.8.8")));
    }
}
