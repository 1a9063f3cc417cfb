//! moto's S3-compatible server (PyPI `moto[server]`) for tests: started on a free port of the
//! loopback, killed when dropped. `make moto` (`tools/moto-server.sh`) installs it and `make
//! test-rust` names it in `MARQUE_TEST_MOTO`; without that variable the caller is told to skip.

use std::io::{Read as _, Write as _};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The variable naming the `moto_server` executable.
pub const MOTO_ENV: &str = "MARQUE_TEST_MOTO";

/// A running `moto_server`, killed on drop (also when the test panics).
#[derive(Debug)]
pub struct Moto {
    child: Child,
    addr: SocketAddr,
}

impl Moto {
    /// Starts the server named by `MARQUE_TEST_MOTO`; when the variable is unset, prints
    /// `SKIPPED: {what} …` on stderr and answers `None`.
    ///
    /// # Panics
    /// When the variable is set but the server cannot be started or never answers.
    #[must_use]
    pub fn start_or_skip(what: &str) -> Option<Self> {
        match std::env::var(MOTO_ENV) {
            Ok(bin) if !bin.trim().is_empty() => Some(Self::start(bin.trim())),
            _ => {
                // Straight to the process's stderr: the test harness captures `eprintln!` of
                // passing tests, and a skip must be seen.
                let _ = writeln!(
                    std::io::stderr(),
                    "SKIPPED: {what}: no S3-compatible server; set {MOTO_ENV} to moto_server's path \
                     (`tools/moto-server.sh` installs it and prints the path; `make test` sets it)"
                );
                None
            }
        }
    }

    /// Starts `bin` on a free port and waits until it answers.
    ///
    /// # Panics
    /// When it cannot be started or does not answer within 60 s.
    #[must_use]
    pub fn start(bin: &str) -> Self {
        // Another process may take the free port between our probe and moto's bind: try again.
        for _ in 0..3 {
            let port = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("a free port on the loopback");
            let child = Command::new(bin)
                .args(["-H", "127.0.0.1", "-p", &port.to_string()])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("{MOTO_ENV}={bin} cannot be started: {e}"));
            let mut moto = Self { child, addr: SocketAddr::from((Ipv4Addr::LOCALHOST, port)) };
            let deadline = Instant::now() + Duration::from_secs(60);
            while Instant::now() < deadline {
                if moto.child.try_wait().ok().flatten().is_some() {
                    break;
                }
                if moto.request("GET", "/") == Some(200) {
                    return moto;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        panic!("{MOTO_ENV}={bin} did not answer on the loopback");
    }

    /// `http://127.0.0.1:{port}`.
    #[must_use]
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Creates a bucket (moto takes unsigned requests).
    ///
    /// # Panics
    /// When moto does not answer 200.
    pub fn create_bucket(&self, bucket: &str) {
        assert_eq!(self.request("PUT", &format!("/{bucket}")), Some(200), "creating bucket {bucket}");
    }

    /// The status of an empty HTTP/1.1 request, or `None` when the server does not answer.
    fn request(&self, method: &str, path: &str) -> Option<u16> {
        let mut stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(2)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .ok()?;
        let mut answer = Vec::new();
        stream.read_to_end(&mut answer).ok()?;
        String::from_utf8_lossy(answer.get(..12)?).strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
