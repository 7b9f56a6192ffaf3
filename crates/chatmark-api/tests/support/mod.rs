//! Helpers shared by the integration tests: the example binary as a process, one HTTP
//! request over a fresh connection, temporary paths, and a throwaway PostgreSQL cluster.

pub mod postgres;

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// How long any one exchange with a server may take before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(20);

/// POSTs `body` with extra headers; answers the status and the JSON body.
pub async fn post(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, Value) {
    let exchange = async {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let mut req = format!(
            "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        out
    };
    let out = tokio::time::timeout(DEADLINE, exchange)
        .await
        .expect("server answered in time");
    let text = String::from_utf8(out).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A webhook answering every request with `status_line` (e.g. `302 Found`).
pub async fn webhook(status_line: &'static str, extra: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut chunk = [0u8; 512];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match s.read(&mut chunk).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => buf.extend_from_slice(&chunk[..n]),
                    }
                }
                let answer = format!(
                    "HTTP/1.1 {status_line}\r\n{extra}Content-Length: 0\r\nConnection: close\r\n\r\n"
                );
                let _ = s.write_all(answer.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/hook")
}

/// A sendMessage answer's id: a string of digits on the wire.
pub fn message_id(v: &Value) -> u64 {
    v["result"]["message_id"].as_str().unwrap().parse().unwrap()
}

/// A fresh path in the temporary directory for this test process (removed first, with the
/// SQLite side files).
pub fn temp_path(name: &str) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("chatmark-api-{}-{name}", std::process::id()));
    for suffix in ["", "-wal", "-shm"] {
        let mut p = path.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
    path
}

/// The example binary, when `cargo test` built it beside the test binaries.
pub fn example_exe() -> Option<std::path::PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|p| Some(p.parent()?.parent()?.join("examples").join("server")))
        .filter(|p| p.exists())
}

/// Stops a server process however the test ends.
pub struct KillOnDrop(pub std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the example binary on a free port with `env` over the test's environment minus
/// the settings a test must choose itself, and reads the address it prints first; `None`
/// when the binary was not built.
pub fn serve_example_with(env: &[(&str, &str)]) -> Option<(KillOnDrop, SocketAddr)> {
    serve_example_logged(env).map(|(child, addr, _)| (child, addr))
}

/// The lines a server process writes on stdout after its address (its JSON log) and on
/// stderr, gathered by threads as they come.
#[derive(Clone, Default)]
pub struct Output(std::sync::Arc<std::sync::Mutex<(Vec<String>, Vec<String>)>>);

impl Output {
    /// The stdout lines so far.
    pub fn stdout(&self) -> Vec<String> {
        self.0.lock().unwrap().0.clone()
    }

    /// The stderr lines so far.
    pub fn stderr(&self) -> Vec<String> {
        self.0.lock().unwrap().1.clone()
    }

    /// Waits (up to `DEADLINE`) for a stdout line that `pred` accepts, and answers it.
    pub fn wait_for(&self, pred: impl Fn(&str) -> bool) -> String {
        let started = std::time::Instant::now();
        loop {
            if let Some(line) = self.stdout().into_iter().find(|l| pred(l)) {
                return line;
            }
            assert!(
                started.elapsed() < DEADLINE,
                "no such log line in:\n{}",
                self.stdout().join("\n")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// [`serve_example_with`], also gathering what the process writes after its address.
pub fn serve_example_logged(env: &[(&str, &str)]) -> Option<(KillOnDrop, SocketAddr, Output)> {
    use std::io::{BufRead, BufReader};
    let mut cmd = std::process::Command::new(example_exe()?);
    cmd.arg("0")
        .env_remove("CHATMARK_ALLOW_LOOPBACK")
        .env_remove("CHATMARK_BOT_TOKENS")
        .env_remove("CHATMARK_API_DB")
        .env_remove("CHATMARK_LOG")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = KillOnDrop(cmd.spawn().unwrap());
    let output = Output::default();
    let stderr = BufReader::new(child.0.stderr.take().unwrap());
    let into = output.clone();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            into.0.lock().unwrap().1.push(line);
        }
    });
    let mut stdout = BufReader::new(child.0.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    let addr = first.trim().parse().unwrap_or_else(|_| {
        panic!(
            "the server printed {first:?}, not its address; stderr:\n{}",
            output.stderr().join("\n")
        )
    });
    let into = output.clone();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            into.0.lock().unwrap().0.push(line);
        }
    });
    Some((child, addr, output))
}
