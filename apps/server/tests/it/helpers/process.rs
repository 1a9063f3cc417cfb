//! The real `marque-server` binary as a child process, for tests that kill, stop and restart it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use super::TestShop;

/// A running `marque-server serve`; killed (SIGKILL) when dropped.
#[derive(Debug)]
pub struct ServerProcess {
    pub child: Child,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// Where its stderr (the logs) goes.
    pub log: PathBuf,
}

/// Spawns `command` (a `serve` with its stdout piped) and waits up to two minutes for its `listening on …` line:
/// the child and its address, `None` when the line never came. Its stdout is read to the end on a thread of its
/// own, so the child never blocks on a full pipe nor stops on a closed one (a log line failing with a broken pipe).
pub fn spawn_listening(command: &mut Command) -> (Child, Option<String>) {
    let mut child = command.spawn().expect("marque-server starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(addr) = line.strip_prefix("listening on ") {
                let _ = tx.send(addr.trim().to_owned());
            }
        }
    });
    (child, rx.recv_timeout(Duration::from_secs(120)).ok())
}

/// Starts the binary (this package's, or `MARQUE_SERVER_BIN`) with only `env` (and `PATH`) in its environment, listening on a free port,
/// and waits for its `listening on …` line.
pub fn start(env: &[(&str, String)], log: &Path) -> ServerProcess {
    let stderr = std::fs::OpenOptions::new().create(true).append(true).open(log).expect("the log file");
    // `MARQUE_SERVER_BIN` names a copy, for machines where other builds share the target directory.
    let bin = std::env::var_os("MARQUE_SERVER_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_marque-server").into());
    let mut command = Command::new(bin);
    command
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("MARQUE_ADDR", "127.0.0.1:0")
        .env("RUST_LOG", "info,surrealdb=warn,surrealdb_core=warn")
        // Every test is one client (127.0.0.1) doing far more than a person: limits set for that.
        .env("MARQUE_SIGNUPS_PER_HOUR", "10000")
        .env("MARQUE_CODE_REQUESTS_PER_HOUR", "10000")
        .env("MARQUE_SIGN_INS_PER_HOUR", "10000")
        .env("MARQUE_CATALOG_MISSES_PER_MINUTE", "100000")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(stderr);
    for (key, value) in env {
        command.env(key, value);
    }
    let (mut child, listening) = spawn_listening(&mut command);
    match listening {
        Some(base) => ServerProcess { child, base, log: log.to_owned() },
        None => {
            let _ = child.kill();
            let logs = std::fs::read_to_string(log).unwrap_or_default();
            panic!("marque-server did not start listening; its log:\n{logs}");
        }
    }
}

impl ServerProcess {
    pub fn shop(&self) -> TestShop {
        let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().expect("a client");
        TestShop { base: self.base.clone(), client }
    }

    /// SIGKILL: no shutdown, no flush.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Sends `signal` (a name `kill -s` knows: `TERM`, `INT`) with the system's `kill`.
    pub fn signal(&self, signal: &str) {
        let sent = Command::new("kill").args(["-s", signal, &self.child.id().to_string()]).status().expect("kill runs");
        assert!(sent.success(), "kill -s {signal} {}", self.child.id());
    }

    /// The exit status, waiting at most `within`.
    pub fn wait_exit(&mut self, within: Duration) -> Option<std::process::ExitStatus> {
        let started = std::time::Instant::now();
        while started.elapsed() < within {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn logs(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("--- marque-server's log ({}) ---\n{}", self.log.display(), self.logs());
        }
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A free port on 127.0.0.1 (bound, then released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("addr").port()
}
