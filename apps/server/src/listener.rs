//! The TCP listener the shop serves on: poem's, with `TCP_NODELAY` on every connection.
//!
//! hyper writes a response's head and a streamed body (static files) in separate
//! small writes. With Nagle's algorithm on, the second write waits for the
//! client's delayed ACK of the first (~40 ms on Linux) on every keep-alive
//! request; poem's `TcpListener` offers no hook to turn it off, so this acceptor
//! wraps tokio's listener and sets the option on each accepted socket.

use std::io;

use poem::http::uri::Scheme;
use poem::listener::Acceptor;
use poem::web::{LocalAddr, RemoteAddr};
use tokio::net::{TcpListener, TcpStream, ToSocketAddrs};

/// Accepts TCP connections with `TCP_NODELAY` set.
#[derive(Debug)]
pub struct NoDelayAcceptor {
    local_addr: LocalAddr,
    listener: TcpListener,
}

impl NoDelayAcceptor {
    /// Binds to `addr` (port 0 picks a free port).
    ///
    /// # Errors
    /// When the address cannot be bound.
    pub async fn bind(addr: impl ToSocketAddrs) -> io::Result<Self> {
        let listener = TcpListener::bind(addr).await?;
        let local_addr = LocalAddr(listener.local_addr()?.into());
        Ok(Self { local_addr, listener })
    }
}

impl Acceptor for NoDelayAcceptor {
    type Io = TcpStream;

    fn local_addr(&self) -> Vec<LocalAddr> {
        vec![self.local_addr.clone()]
    }

    async fn accept(&mut self) -> io::Result<(Self::Io, LocalAddr, RemoteAddr, Scheme)> {
        let (stream, remote) = self.listener.accept().await?;
        if let Err(e) = stream.set_nodelay(true) {
            // The connection still works, only slower; not worth refusing it.
            tracing::warn!(error = %e, "could not set TCP_NODELAY on a connection");
        }
        Ok((stream, self.local_addr.clone(), RemoteAddr(remote.into()), Scheme::HTTP))
    }
}

/// Why `MARQUE_ENV=dev` may not listen on `addr`: the development adapters (the outbox with every
/// code, the sign-in stand-in, payments without money) must never be reachable beyond this machine,
/// so every address `addr` names must be a loopback one (`127.0.0.0/8`, `::1`, `localhost`).
///
/// # Errors
/// A message naming the address when it is not loopback or does not resolve.
pub async fn dev_listens_on_loopback(addr: &str) -> Result<(), String> {
    let resolved: Vec<std::net::SocketAddr> = tokio::net::lookup_host(addr)
        .await
        .map_err(|e| format!("MARQUE_ADDR `{addr}` does not name an address to listen on: {e}"))?
        .collect();
    let beyond = resolved.iter().find(|a| !a.ip().is_loopback());
    match beyond.or_else(|| resolved.is_empty().then_some(&UNSPECIFIED)) {
        None => Ok(()),
        Some(a) => Err(format!(
            "MARQUE_ENV=dev listens only on a loopback address (127.0.0.1, ::1, localhost), but MARQUE_ADDR is `{addr}` \
             ({ip}): the development outbox, sign-in stand-in and payment sandbox would be reachable from other machines. \
             Use MARQUE_ADDR=127.0.0.1:<port>, or MARQUE_ENV=prod with its settings",
            ip = a.ip()
        )),
    }
}

const UNSPECIFIED: std::net::SocketAddr = std::net::SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), 0);

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_connections_have_nodelay_set() {
        let mut acceptor = NoDelayAcceptor::bind("127.0.0.1:0").await.expect("binds");
        let addr = *acceptor.local_addr()[0].as_socket_addr().expect("a socket address");
        let client = tokio::spawn(TcpStream::connect(addr));
        let (stream, _, remote, scheme) = acceptor.accept().await.expect("accepts");
        assert!(stream.nodelay().expect("readable option"), "TCP_NODELAY is set");
        assert_eq!(scheme, Scheme::HTTP);
        let client = client.await.expect("joins").expect("connects");
        assert_eq!(remote.as_socket_addr().copied(), client.local_addr().ok());
    }

    #[tokio::test]
    async fn dev_listens_only_on_loopback() {
        for addr in ["127.0.0.1:8080", "127.0.0.1:0", "[::1]:8080", "localhost:8080", "127.1.2.3:80"] {
            assert_eq!(dev_listens_on_loopback(addr).await, Ok(()), "{addr}");
        }
        for addr in ["0.0.0.0:8080", "[::]:8080", "192.168.1.20:8080", "10.0.0.1:0"] {
            let refusal = dev_listens_on_loopback(addr).await.expect_err(addr);
            assert!(refusal.contains("MARQUE_ENV=dev listens only on a loopback address") && refusal.contains(addr), "{refusal}");
        }
        assert!(dev_listens_on_loopback("no port").await.is_err());
    }
}
