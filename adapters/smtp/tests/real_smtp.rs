//! `SmtpNotifier` against real SMTP servers on this machine: a small sink written here (always),
//! and `aiosmtpd` when a Python has it (skipped out loud otherwise).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marque_ports::{Channel, Notification, Notifier, NotifyError};
use marque_smtp::{SmtpConfig, SmtpNotifier, SmtpSecurity};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

const FROM: &str = "Marque Parts <no-reply@marque.example>";

/// One message as the server received it.
#[derive(Debug, Clone, Default)]
struct Received {
    mail_from: String,
    rcpt_to: Vec<String>,
    data: String,
}

/// An SMTP server that speaks just enough of RFC 5321 for one client, and remembers every message.
struct Sink {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Received>>>,
}

#[derive(Debug, Clone, Copy)]
enum Behaviour {
    Accept,
    /// `550` for every RCPT TO: the mailbox does not exist.
    RefuseRecipients,
    /// Accepts the connection and never says a word.
    Silent,
}

async fn start_sink(behaviour: Behaviour) -> Sink {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind the sink");
    let addr = listener.local_addr().expect("the sink's address");
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = Arc::clone(&received);
    tokio::spawn(async move {
        while let Ok((socket, _)) = listener.accept().await {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                if let Err(e) = converse(socket, behaviour, store).await {
                    eprintln!("sink connection ended: {e}");
                }
            });
        }
    });
    Sink { addr, received }
}

async fn converse(
    socket: tokio::net::TcpStream,
    behaviour: Behaviour,
    store: Arc<Mutex<Vec<Received>>>,
) -> std::io::Result<()> {
    let (read, mut write) = socket.into_split();
    if let Behaviour::Silent = behaviour {
        tokio::time::sleep(Duration::from_secs(30)).await;
        return Ok(());
    }
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 sink.test ESMTP ready\r\n").await?;
    let mut current = Received::default();
    while let Some(line) = lines.next_line().await? {
        let upper = line.to_ascii_uppercase();
        let reply: &[u8] = if upper.starts_with("EHLO") || upper.starts_with("HELO") {
            b"250 sink.test\r\n"
        } else if upper.starts_with("MAIL FROM:") {
            current = Received { mail_from: address(&line), ..Received::default() };
            b"250 2.1.0 OK\r\n"
        } else if upper.starts_with("RCPT TO:") {
            if let Behaviour::RefuseRecipients = behaviour {
                b"550 5.1.1 No such mailbox\r\n"
            } else {
                current.rcpt_to.push(address(&line));
                b"250 2.1.5 OK\r\n"
            }
        } else if upper == "DATA" {
            write.write_all(b"354 End data with <CR><LF>.<CR><LF>\r\n").await?;
            while let Some(data_line) = lines.next_line().await? {
                if data_line == "." {
                    break;
                }
                // Dot-stuffing: the client doubled every leading dot.
                let unstuffed = data_line.strip_prefix('.').unwrap_or(&data_line);
                current.data.push_str(unstuffed);
                current.data.push('\n');
            }
            store.lock().expect("the sink's store").push(std::mem::take(&mut current));
            b"250 2.0.0 Queued\r\n"
        } else if upper == "QUIT" {
            write.write_all(b"221 2.0.0 Bye\r\n").await?;
            return Ok(());
        } else if upper == "RSET" || upper == "NOOP" {
            current = Received::default();
            b"250 2.0.0 OK\r\n"
        } else {
            b"502 5.5.2 Command not recognised\r\n"
        };
        write.write_all(reply).await?;
    }
    Ok(())
}

/// `MAIL FROM:<a@b> SIZE=1` → `a@b`
fn address(line: &str) -> String {
    line.split_once('<').and_then(|(_, rest)| rest.split_once('>')).map(|(a, _)| a.to_owned()).unwrap_or_default()
}

fn notifier_for(port: u16) -> SmtpNotifier {
    let mut config = SmtpConfig::new("127.0.0.1", FROM);
    config.port = port;
    config.security = SmtpSecurity::Plain;
    config.timeout = Duration::from_secs(2);
    SmtpNotifier::new(config).expect("a valid configuration")
}

fn one_time_code_email(recipient: &str, code: &str) -> Notification {
    Notification {
        channel: Channel::Email,
        recipient: recipient.to_owned(),
        subject: "Your Marque sign-up code".to_owned(),
        text: format!("Your Marque code is {code}. It is valid for 10 minutes. Do not share it with anyone."),
        template: None,
        attachments: Vec::new(),
    }
}

/// The six digits after "code is " in what the server received.
fn code_in(data: &str) -> Option<String> {
    let (_, after) = data.split_once("code is ")?;
    let code: String = after.chars().take_while(char::is_ascii_digit).collect();
    (code.len() == 6).then_some(code)
}

#[tokio::test]
async fn a_one_time_code_reaches_a_real_smtp_server_and_reads_back() {
    let sink = start_sink(Behaviour::Accept).await;
    let notifier = notifier_for(sink.addr.port());

    notifier.send(&one_time_code_email("asha@example.in", "730215")).await.expect("the sink accepts");
    notifier
        .send(&one_time_code_email("ravi@example.in", "118204"))
        .await
        .expect("a second message on the pooled connection");

    let received = sink.received.lock().expect("the sink's store").clone();
    assert_eq!(received.len(), 2, "{received:?}");
    assert_eq!(received[0].mail_from, "no-reply@marque.example");
    assert_eq!(received[0].rcpt_to, ["asha@example.in"]);
    assert!(received[0].data.contains("Subject: Your Marque sign-up code"), "{}", received[0].data);
    assert!(received[0].data.contains("To: asha@example.in"), "{}", received[0].data);
    assert_eq!(code_in(&received[0].data).as_deref(), Some("730215"));
    assert_eq!(received[1].rcpt_to, ["ravi@example.in"]);
    assert_eq!(code_in(&received[1].data).as_deref(), Some("118204"));
}

#[tokio::test]
async fn a_mailbox_the_server_refuses_is_refused() {
    let sink = start_sink(Behaviour::RefuseRecipients).await;
    let outcome = notifier_for(sink.addr.port()).send(&one_time_code_email("nobody@example.in", "000111")).await;
    assert!(matches!(outcome, Err(NotifyError::Refused { .. })), "{outcome:?}");
    assert!(sink.received.lock().expect("the sink's store").is_empty());
}

#[tokio::test]
async fn a_malformed_recipient_is_refused_before_any_connection() {
    // Nothing listens on this port: a refusal must come from the address alone.
    let port = closed_port().await;
    let outcome = notifier_for(port).send(&one_time_code_email("not an address", "000111")).await;
    assert!(matches!(outcome, Err(NotifyError::Refused { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_server_that_is_not_there_is_unavailable() {
    let port = closed_port().await;
    let outcome = notifier_for(port).send(&one_time_code_email("asha@example.in", "000111")).await;
    assert!(matches!(outcome, Err(NotifyError::Unavailable { .. })), "{outcome:?}");
}

#[tokio::test]
async fn a_server_that_never_answers_is_unavailable_after_the_timeout() {
    let sink = start_sink(Behaviour::Silent).await;
    let started = std::time::Instant::now();
    let outcome = notifier_for(sink.addr.port()).send(&one_time_code_email("asha@example.in", "000111")).await;
    assert!(matches!(outcome, Err(NotifyError::Unavailable { .. })), "{outcome:?}");
    assert!(started.elapsed() < Duration::from_secs(10), "gave up after {:?}", started.elapsed());
}

async fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    listener.local_addr().expect("address").port()
    // dropped here: the port is closed again
}

/// The Python that runs aiosmtpd: `MARQUE_TEST_AIOSMTPD` (`make test` sets it to the venv that
/// `tools/py-tool.sh aiosmtpd` installs from its lock), else Debian's, where `python3-aiosmtpd` lands
/// (another `python3` first on the PATH, pyenv's, lacks it).
fn aiosmtpd_python() -> (String, bool) {
    match std::env::var("MARQUE_TEST_AIOSMTPD") {
        Ok(python) if !python.is_empty() => (python, true),
        _ if std::path::Path::new("/usr/bin/python3").exists() => ("/usr/bin/python3".into(), false),
        _ => ("python3".into(), false),
    }
}

/// aiosmtpd (PyPI, pinned in `tools/python/aiosmtpd.txt`): an SMTP server nobody here wrote.
#[tokio::test]
async fn a_one_time_code_reaches_aiosmtpd() {
    let (python, named) = aiosmtpd_python();
    let probe = std::process::Command::new(&python).args(["-c", "import aiosmtpd"]).output();
    let importable = probe.is_ok_and(|o| o.status.success());
    // A Python named on purpose must have it: a broken install fails here rather than skipping.
    assert!(importable || !named, "MARQUE_TEST_AIOSMTPD={python} cannot import aiosmtpd");
    if !importable {
        eprintln!(
            "SKIPPED a_one_time_code_reaches_aiosmtpd: {python} cannot import aiosmtpd \
             (`make aiosmtpd` installs it; `make test` sets MARQUE_TEST_AIOSMTPD)"
        );
        return;
    }
    let port = closed_port().await;
    let mut server = tokio::process::Command::new(&python)
        .args(["-u", "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Debugging", "-l", &format!("127.0.0.1:{port}")])
        .stdout(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("start aiosmtpd");
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(std::time::Instant::now() < deadline, "aiosmtpd did not start listening on {port}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    notifier_for(port).send(&one_time_code_email("meera@example.in", "905517")).await.expect("aiosmtpd accepts");

    let stdout = server.stdout.take().expect("aiosmtpd's stdout");
    let mut lines = BufReader::new(stdout).lines();
    let mut printed = String::new();
    let read = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(line) = lines.next_line().await.expect("read aiosmtpd's output") {
            printed.push_str(&line);
            printed.push('\n');
            if code_in(&printed).is_some() {
                break;
            }
        }
    })
    .await;
    server.kill().await.expect("stop aiosmtpd");
    assert!(read.is_ok(), "aiosmtpd printed no code within 10 s:\n{printed}");
    assert_eq!(code_in(&printed).as_deref(), Some("905517"), "{printed}");
    assert!(printed.contains("meera@example.in"), "{printed}");
}
