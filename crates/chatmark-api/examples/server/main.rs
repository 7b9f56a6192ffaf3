//! Example Bot API server over chatmark-api: binds 127.0.0.1 on the port given as the first
//! argument or in `CHATMARK_API_PORT` (default 8080; 0 picks a free one) and prints the bound
//! address as the first line of stdout.
//!
//! ```text
//! cargo run -p chatmark-api --example server -- 0
//! ```
//!
//! Settings (environment; the README's table gives each default and range):
//! `TESTWEBHOOK_TIMEOUT_MS`, `TESTWEBHOOK_DAILY_LIMIT`, `CHATMARK_MAX_BOTS`,
//! `CHATMARK_HEADER_TIMEOUT_MS` / `CHATMARK_BODY_TIMEOUT_MS` / `CHATMARK_IDLE_TIMEOUT_MS`,
//! `CHATMARK_MAX_CONNECTIONS`, `CHATMARK_ALLOW_LOOPBACK=1` (tests only), `CHATMARK_API_DB` (a
//! `postgres://` URL shared by several instances, or a SQLite file for one process),
//! `CHATMARK_QUOTA_SEED`, `CHATMARK_QUOTA_TOKENS`, `CHATMARK_BOT_TOKENS`,
//! `CHATMARK_EXTRA_ROOTS`, `CHATMARK_STORE_TIMEOUT_MS` (a store call's waits and statement),
//! `CHATMARK_DB_POOL_SIZE` / `CHATMARK_DB_IDLE_TIMEOUT_MS` (PostgreSQL connections),
//! `CHATMARK_SHUTDOWN_TIMEOUT_MS` (requests in flight at SIGTERM) and `CHATMARK_LOG` (the
//! JSON log lines on stdout after the address).
//!
//! Operators get `GET /healthz`, `GET /readyz` and `GET /metrics` (Prometheus), one JSON log
//! line per request with its request id, and a graceful shutdown on SIGTERM: requests in
//! flight are finished, then the process exits 0.

mod app;
mod conn;
mod ops;
mod postgres;
mod probe;
mod seed;
mod sqlite;

use std::io::Write;
use std::net::Ipv4Addr;
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    let port = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("CHATMARK_API_PORT").ok())
        .unwrap_or_else(|| "8080".to_owned());
    let Ok(port) = port.parse::<u16>() else {
        eprintln!("server: port {port:?} is not a number in 0-65535");
        return ExitCode::from(2);
    };
    let config = match app::Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::from(2);
        }
    };
    let app = match app::build(&config).await {
        Ok(app) => {
            for note in &app.notes {
                eprintln!("server: {note}");
            }
            app
        }
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::FAILURE;
        }
    };
    match &config.bot_tokens {
        Some(tokens) => eprintln!("server: serving {} bot token(s)", tokens.len()),
        None => eprintln!(
            "server: demo mode: any bot token is accepted (set CHATMARK_BOT_TOKENS to restrict)"
        ),
    }
    let listener = match tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("server: cannot bind 127.0.0.1:{port}: {e}");
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => {
            println!("{addr}");
            let _ = std::io::stdout().flush();
            // then one JSON line per request on stdout
            ops::init_logs(config.log_level);
        }
        Err(e) => {
            eprintln!("server: {e}");
            return ExitCode::FAILURE;
        }
    }
    let stop = async {
        let signal = stop_signal().await;
        tracing::info!(signal, "shutdown: stopping");
        app.drain();
    };
    let served = conn::serve(listener, app.router.clone(), config, stop).await;
    app.close();
    if let Err(e) = served {
        eprintln!("server: {e}");
        return ExitCode::FAILURE;
    }
    tracing::info!("shutdown: stopped");
    ExitCode::SUCCESS
}

/// Resolves on SIGTERM (what an orchestrator sends) or SIGINT (Ctrl-C), naming it; never
/// when the handlers cannot be installed.
async fn stop_signal() -> &'static str {
    use tokio::signal::unix::{signal, SignalKind};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        eprintln!("server: cannot install the SIGTERM handler; stop the server by killing it");
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => "SIGTERM",
        _ = int.recv() => "SIGINT",
    }
}
