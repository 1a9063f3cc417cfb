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
}
