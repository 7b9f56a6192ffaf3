//! A throwaway PostgreSQL cluster for one test: `initdb` into a fresh temporary directory
//! (as an unprivileged user when the tests run as root: PostgreSQL refuses root), served
//! on 127.0.0.1 only (no Unix socket), without durability (fsync off: nothing here must
//! survive a crash), stopped and removed when dropped.
//!
//! The server binaries come from `pg_config --bindir`, else the newest
//! `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package; `scripts/test` installs it),
//! else `PATH`. Without them [`Cluster::start`] answers `None` and the test says it was
//! skipped — unless `CHATMARK_REQUIRE_POSTGRES=1` (set by `scripts/test`), which makes a
//! missing PostgreSQL a failure.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A running PostgreSQL cluster; dropping it stops the server and removes its files.
pub struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    /// The unprivileged (uid, gid) the server runs as when the tests run as root.
    user: Option<(u32, u32)>,
}

/// Whether a missing PostgreSQL must fail the test instead of skipping it.
pub fn required() -> bool {
    std::env::var("CHATMARK_REQUIRE_POSTGRES").is_ok_and(|v| v == "1")
}

/// The directory holding `initdb`, `pg_ctl` and `psql`.
fn bindir() -> Option<PathBuf> {
    let has_initdb = |d: &Path| d.join("initdb").is_file();
    if let Ok(out) = Command::new("pg_config").arg("--bindir").output() {
        let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if out.status.success() && has_initdb(&dir) {
            return Some(dir);
        }
    }
    let mut debian: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse().ok()?;
            Some((version, e.path().join("bin")))
        })
        .filter(|(_, dir)| has_initdb(dir))
        .collect();
    debian.sort();
    if let Some((_, dir)) = debian.pop() {
        return Some(dir);
    }
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .find(|d| has_initdb(d))
}

/// The (uid, gid) of `name` in `/etc/passwd`.
fn account(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut f = line.split(':');
        (f.next()? == name).then_some(())?;
        let uid = f.nth(1)?.parse().ok()?;
        let gid = f.next()?.parse().ok()?;
        Some((uid, gid))
    })
}

/// A free port on 127.0.0.1 (free when asked; the start retries if it is taken meanwhile).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

impl Cluster {
    /// Starts a cluster for the test `name`, or `None` (the test is skipped) when no
    /// PostgreSQL is installed and [`required`] is not set.
    pub fn start(name: &str) -> Option<Cluster> {
        Cluster::start_with_tls(name, None)
    }

    /// [`Cluster::start`], the server also accepting TLS with the PEM certificate chain
    /// and key of `tls` when given (`ssl=on`).
    pub fn start_with_tls(name: &str, tls: Option<(&str, &str)>) -> Option<Cluster> {
        Cluster::start_with(name, tls, "")
    }

    /// [`Cluster::start_with_tls`] with more server options (`-c name=value …`, after the
    /// defaults, which they override: `-c max_connections=8`).
    pub fn start_with(name: &str, tls: Option<(&str, &str)>, extra: &str) -> Option<Cluster> {
        let Some(bin) = bindir() else {
            assert!(
                !required(),
                "CHATMARK_REQUIRE_POSTGRES=1 but no PostgreSQL server binaries were found \
                 (install Debian's postgresql package)"
            );
            eprintln!("PostgreSQL not installed; {name} skipped");
            return None;
        };
        let root = std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0);
        let user = root.then(|| {
            account("postgres")
                .or_else(|| account("nobody"))
                .expect("an unprivileged account (postgres or nobody) to run PostgreSQL as")
        });
        let dir = std::env::temp_dir().join(format!(
            "chatmark-pg-{}-{name}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos())
        ));
        std::fs::create_dir_all(&dir).unwrap();
        if let Some((uid, gid)) = user {
            std::os::unix::fs::chown(&dir, Some(uid), Some(gid)).unwrap();
        }
        let mut cluster = Cluster {
            dir,
            bin,
            port: 0,
            user,
        };
        let data = cluster.data();
        cluster.run(
            "initdb",
            &[
                "-D",
                &data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
            ],
        );
        let mut ssl = String::new();
        if let Some((cert, key)) = tls {
            for (file, pem) in [("server.crt", cert), ("server.key", key)] {
                let path = cluster.dir.join("data").join(file);
                std::fs::write(&path, pem).unwrap();
                // PostgreSQL refuses a key that others may read
                let owner_only = std::os::unix::fs::PermissionsExt::from_mode(0o600);
                std::fs::set_permissions(&path, owner_only).unwrap();
                if let Some((uid, gid)) = user {
                    std::os::unix::fs::chown(&path, Some(uid), Some(gid)).unwrap();
                }
            }
            ssl.push_str(" -c ssl=on");
        }
        let log = cluster
            .dir
            .join("server.log")
            .to_string_lossy()
            .into_owned();
        for attempt in 0..3 {
            cluster.port = free_port();
            let options = format!(
                "-c listen_addresses=127.0.0.1 -c port={} -c unix_socket_directories='' \
                 -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
                 -c max_connections=200{ssl} {extra}",
                cluster.port
            );
            let started = cluster.try_run(
                "pg_ctl",
                &[
                    "-D", &data, "-l", &log, "-o", &options, "-w", "-t", "60", "start",
                ],
            );
            if started {
                return Some(cluster);
            }
            let text = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(attempt < 2, "PostgreSQL did not start:\n{text}");
        }
        unreachable!()
    }

    /// A URL of the database `db` for the user `postgres` (no password: trust on loopback).
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// A URL of the database `db` for the role `user` (no password: trust on loopback).
    pub fn url_as(&self, user: &str, db: &str) -> String {
        format!("postgres://{user}@127.0.0.1:{}/{db}", self.port)
    }

    /// Creates the empty database `db`.
    pub fn create_db(&self, db: &str) {
        self.sql(&format!("CREATE DATABASE {db}"));
    }

    /// Runs `sql` as the superuser in the database `postgres`.
    pub fn sql(&self, sql: &str) {
        let port = self.port.to_string();
        self.run(
            "psql",
            &[
                "-h",
                "127.0.0.1",
                "-p",
                &port,
                "-U",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-q",
                "-c",
                sql,
                "postgres",
            ],
        );
    }

    fn data(&self) -> String {
        self.dir.join("data").to_string_lossy().into_owned()
    }

    fn command(&self, tool: &str) -> Command {
        let mut cmd = Command::new(self.bin.join(tool));
        cmd.stdin(Stdio::null())
            .env_remove("PGDATA")
            .env_remove("PGHOST")
            .current_dir(&self.dir);
        if let Some((uid, gid)) = self.user {
            cmd.uid(uid).gid(gid).env("HOME", &self.dir);
        }
        cmd
    }

    fn try_run(&self, tool: &str, args: &[&str]) -> bool {
        let out = self.command(tool).args(args).output().unwrap();
        if !out.status.success() {
            eprintln!(
                "{tool} {args:?} failed: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        out.status.success()
    }

    fn run(&self, tool: &str, args: &[&str]) {
        assert!(self.try_run(tool, args), "{tool} failed (see above)");
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.port != 0 {
            let data = self.data();
            let _ = self
                .command("pg_ctl")
                .args(["-D", &data, "-m", "immediate", "-w", "stop"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
