//! Runs on several machines through NATS JetStream, against a real
//! `nats-server` started on 127.0.0.1 with a temporary store:
//!
//! - an evolve run on two workers, one killed with SIGKILL mid-run and the
//!   coordinator killed and resumed, ends with the same genomes.csv,
//!   generations.csv, checkpoint and best.ron as the run on this machine;
//! - a worker of another version refuses batches with a message (once per
//!   batch, however often it comes back) and leaves them, a malformed batch
//!   is logged and survived, the coordinator says when no worker answers,
//!   and `match --server` under an SPRT gives the same result as the match
//!   on this machine;
//! - a coordinator with `--local-threads` and no worker plays the run
//!   itself, and ends as the local run does;
//! - a password or token from the environment or a file logs in to a
//!   server that requires it, and a missing one is a clear error.
//!
//! The tests are skipped, with a message, only where `nats-server` is not
//! installed; CI (.ci/run) installs it.

use std::io::Read;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

mod common;
use common::{checkpointed_generation, gridtune, isolation_config, root, run_outputs, scratch, stderr, stdout};

/// What must match a local run byte for byte.
fn results(run: &Path) -> String {
    run_outputs(run, &["genomes.csv", "best.ron"])
}

/// A nats-server with JetStream on a free port, stopped when dropped.
struct NatsServer {
    child: Child,
    url: String,
}

impl NatsServer {
    /// Starts one, or None (with a message) when nats-server is not installed.
    fn start(dir: &Path) -> Option<NatsServer> {
        NatsServer::start_with(dir, &[])
    }

    /// [`NatsServer::start`] with more of nats-server's options, such as
    /// the credentials it requires.
    fn start_with(dir: &Path, options: &[&str]) -> Option<NatsServer> {
        let installed = Command::new("nats-server")
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok();
        if !installed {
            eprintln!("SKIPPED: nats-server is not installed (apt-get install -y nats-server); CI installs it");
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let store = dir.join("jetstream");
        std::fs::create_dir_all(&store).unwrap();
        let child = Command::new("nats-server")
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(&store)
            .args(options)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("nats-server.log")).unwrap())
            .spawn()
            .expect("nats-server starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not listen on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(NatsServer {
            child,
            url: format!("nats://127.0.0.1:{port}"),
        })
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `gridtune worker` whose log goes to a file; killed when dropped.
struct Worker {
    child: Child,
    log: PathBuf,
}

impl Worker {
    fn start(server: &NatsServer, log: PathBuf, extra: &[&str]) -> Worker {
        Worker::start_with(server, log, extra, &[])
    }

    /// [`Worker::start`] with environment variables set (none of the NATS
    /// secrets are inherited from the test's own environment).
    fn start_with(server: &NatsServer, log: PathBuf, extra: &[&str], env: &[(&str, &str)]) -> Worker {
        let child = worker_command(server, extra, env)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("the worker starts");
        let mut worker = Worker { child, log };
        worker.wait_for("worker connected");
        worker
    }

    fn log(&self) -> String {
        let mut text = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.log) {
            let _ = f.read_to_string(&mut text);
        }
        text
    }

    fn wait_for(&mut self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.log().contains(what) {
            assert!(
                self.running(),
                "the worker ended before it logged `{what}`:\n{}",
                self.log()
            );
            assert!(
                Instant::now() < deadline,
                "the worker never logged `{what}`:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn worker_command(server: &NatsServer, extra: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gridtune"));
    command
        .args(["worker", "--server", &server.url, "--threads", "1", "--lease", "3"])
        .args(extra)
        .env("NO_COLOR", "1")
        .env_remove("NATS_PASSWORD")
        .env_remove("NATS_TOKEN")
        .envs(env.iter().copied());
    command
}

/// The build identity `gridtune --version` prints (`0.1.0+src.<16 hex>`),
/// which the workers compare.
fn build() -> String {
    let o = gridtune(&["--version"], root());
    assert!(o.status.success(), "{}", stderr(&o));
    let build = stdout(&o)
        .trim()
        .strip_prefix("gridtune ")
        .unwrap_or_default()
        .to_string();
    let hash = build
        .strip_prefix(concat!(env!("CARGO_PKG_VERSION"), "+src."))
        .unwrap_or_else(|| panic!("gridtune --version: {}", stdout(&o)));
    assert!(
        hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "gridtune --version: {}",
        stdout(&o)
    );
    build
}

fn config(dir: &Path) -> String {
    isolation_config(
        &dir.join("evolve.ron"),
        "seed: 5, games: 300, eval_every: 2, nodes: 200",
        "ga: (twin_pairs: 2, max_rounds: 2, hall_of_fame_interval: 2)",
    )
}

/// Waits until the run has checkpointed `generation`, with the coordinator
/// still running.
fn wait_for_generation(coordinator: &mut Child, run: &Path, generation: u32) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while checkpointed_generation(run) < generation {
        assert!(
            coordinator.try_wait().unwrap().is_none(),
            "the coordinator ended before generation {generation}"
        );
        assert!(Instant::now() < deadline, "generation {generation} never came");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// What the evolve run of [`config`] on this machine alone gives, run once
/// for the tests that compare a distributed run with it.
fn local_results() -> &'static str {
    static LOCAL: OnceLock<String> = OnceLock::new();
    LOCAL.get_or_init(|| {
        let dir = scratch("distributed-local");
        let config = config(&dir);
        let local = dir.join("local");
        let o = gridtune(
            &[
                "evolve",
                "--game",
                "isolation",
                "--config",
                &config,
                "--out",
                &local.display().to_string(),
            ],
            root(),
        );
        assert!(o.status.success(), "{}", stderr(&o));
        results(&local)
    })
}

#[test]
fn evolve_on_workers_killed_and_resumed_matches_the_local_run() {
    let dir = scratch("distributed-evolve");
    let Some(server) = NatsServer::start(&dir) else { return };
    let config = config(&dir);
    let expected = local_results();

    let mut first = Worker::start(&server, dir.join("worker1.log"), &[]);
    let mut second = Worker::start(&server, dir.join("worker2.log"), &[]);
    let run = dir.join("distributed");
    let coordinator_log = dir.join("coordinator.log");
    let mut coordinator = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(["evolve", "--game", "isolation", "--config", &config, "--out"])
        .arg(&run)
        .args(["--server", &server.url, "--batch-games", "4", "--patience", "2"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&coordinator_log).unwrap())
        .spawn()
        .unwrap();
    // A worker dies mid-batch: its batch goes to the other after the lease.
    wait_for_generation(&mut coordinator, &run, 1);
    first.wait_for("batch done");
    first.child.kill().unwrap(); // SIGKILL
    first.child.wait().unwrap();
    // The coordinator dies too, and is resumed.
    wait_for_generation(&mut coordinator, &run, 3);
    coordinator.kill().unwrap();
    coordinator.wait().unwrap();
    let o = gridtune(
        &[
            "evolve",
            "--game",
            "isolation",
            "--resume",
            &run.display().to_string(),
            "--server",
            &server.url,
            "--batch-games",
            "4",
        ],
        root(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(second.running(), "the second worker died:\n{}", second.log());
    assert!(
        stdout(&o).contains("1 worker"),
        "the coordinator reports the workers it saw:\n{}",
        stdout(&o)
    );
    let workers = std::fs::read_to_string(run.join("workers.csv")).unwrap();
    assert!(
        workers.starts_with("worker,batches,games,seconds\n") && workers.lines().count() >= 3,
        "{workers}"
    );
    let report = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(
        report.contains("<section id=\"workers\">"),
        "the report lists the workers"
    );
    assert!(
        expected == results(&run),
        "the distributed run differs from the local one"
    );
}

#[test]
fn a_coordinator_with_local_threads_and_no_worker_plays_the_run_itself() {
    let dir = scratch("distributed-local-threads");
    let Some(server) = NatsServer::start(&dir) else { return };
    let config = config(&dir);
    let run = dir.join("run");
    let log = dir.join("coordinator.log");
    let mut coordinator = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(["evolve", "--game", "isolation", "--config", &config, "--out"])
        .arg(&run)
        .args(["--server", &server.url, "--local-threads", "1", "--batch-games", "4"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    // Without its own worker it would wait for one forever.
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Some(status) = coordinator.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = coordinator.kill();
            let _ = coordinator.wait();
            panic!(
                "the coordinator did not finish on its own threads:\n{}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(
        status.success(),
        "{}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
    let workers = std::fs::read_to_string(run.join("workers.csv")).unwrap();
    let rows: Vec<&str> = workers.lines().skip(1).collect();
    assert!(
        rows.len() == 1 && rows[0].contains("(coordinator)"),
        "only the coordinator's own worker played:\n{workers}"
    );
    assert!(
        local_results() == results(&run),
        "the run on the coordinator's own threads differs from the local one"
    );
}

/// Publishes a message on the work stream, as a stranger could.
fn publish_raw(url: &str, payload: &'static [u8]) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = async_nats::connect(url).await.unwrap();
        let js = async_nats::jetstream::new(client);
        js.publish("gridtune.work.stranger", payload.into())
            .await
            .unwrap()
            .await
            .unwrap();
    });
}

#[test]
fn refusals_and_match_under_an_sprt_on_workers() {
    let dir = scratch("distributed-match");
    let Some(server) = NatsServer::start(&dir) else { return };
    // Debug level shows the refusals of batches already refused.
    let mut old = Worker::start_with(
        &server,
        dir.join("old.log"),
        &["--claim-version", "0.0.0-other"],
        &[("RUST_LOG", "info,gridtune=debug,async_nats=warn")],
    );
    publish_raw(&server.url, b"{ this is not a batch");
    old.wait_for("rejected a batch: a batch is not valid JSON");
    assert!(old.running(), "the worker did not survive a malformed batch");

    let args = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "match",
            "--game",
            "isolation",
            "--bot",
            &format!("genome:{}/genomes/isolation/default.ron", root().display()),
            "--bot",
            "judge:mobility",
            "--fresh-maps",
            "--nodes",
            "300",
            "--sprt",
            "0,100",
            "--games",
            "200",
            "--concurrency",
            "8",
            "--seed",
            "3",
            "--json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let local = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(args(&[]))
        .output()
        .unwrap();
    assert!(local.status.success(), "{}", stderr(&local));

    // Only the worker of another version at first: it refuses every batch,
    // and the coordinator says nobody answers.
    let mut coordinator = Command::new(env!("CARGO_BIN_EXE_gridtune"))
        .args(args(&["--server", &server.url, "--patience", "1"]))
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    old.wait_for("refused: batch");
    let refusal = format!(
        "was made by gridtune {} (protocol 1); this worker is gridtune 0.0.0-other",
        build()
    );
    assert!(old.log().contains(&refusal), "{refusal}\n{}", old.log());
    std::thread::sleep(Duration::from_secs(3));
    let _good = Worker::start(&server, dir.join("good.log"), &[]);
    let deadline = Instant::now() + Duration::from_secs(300);
    while coordinator.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the match on workers never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    let remote = coordinator.wait_with_output().unwrap();
    assert!(remote.status.success(), "{}", stderr(&remote));
    assert!(
        stderr(&remote).contains("no worker has answered for"),
        "{}",
        stderr(&remote)
    );
    assert!(old.running(), "the worker of another version died:\n{}", old.log());
    // Each batch came back to it every second; it warned of each once.
    let log = old.log();
    let mut warned = std::collections::HashMap::new();
    for line in log.lines() {
        if let Some((_, rest)) = line.split_once("refused: batch `") {
            let id = rest.split('`').next().unwrap_or_default();
            *warned.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    assert!(
        !warned.is_empty() && warned.values().all(|&n| n == 1),
        "one warning per refused batch: {warned:?}\n{log}"
    );
    assert!(
        log.lines()
            .any(|l| l.contains("DEBUG") && l.contains("refused again: batch `")),
        "the batches came back and were refused again, at debug level:\n{log}"
    );
    let without_time = |o: &std::process::Output| -> String {
        stdout(o)
            .lines()
            .filter(|l| !l.contains("\"seconds\""))
            .map(|l| l.to_string() + "\n")
            .collect()
    };
    assert_eq!(without_time(&local), without_time(&remote));
    assert!(stdout(&local).contains("\"sprt\""), "{}", stdout(&local));
}

/// A worker that cannot start or log in: its exit code and stderr.
fn failed_worker(server: &NatsServer, extra: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let o = worker_command(server, extra, env).output().unwrap();
    assert!(!o.status.success(), "the worker should have failed:\n{}", stderr(&o));
    (o.status.code(), stderr(&o))
}

#[test]
fn secrets_from_the_environment_or_a_file_log_in_to_a_server_that_requires_them() {
    let dir = scratch("distributed-credentials");
    let Some(users) = NatsServer::start_with(&dir.join("server-users"), &["--user", "gridtune", "--pass", "s3cret"])
    else {
        return;
    };
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let password_file = file("password", "s3cret\n");
    let user = ["--user", "gridtune"];
    Worker::start_with(&users, dir.join("env.log"), &user, &[("NATS_PASSWORD", "s3cret")]);
    Worker::start_with(
        &users,
        dir.join("file.log"),
        &["--user", "gridtune", "--password-file", &password_file],
        &[],
    );
    // The flag still works, and wins over the environment.
    Worker::start_with(
        &users,
        dir.join("flag.log"),
        &["--user", "gridtune", "--password", "s3cret"],
        &[("NATS_PASSWORD", "wrong")],
    );

    let (code, why) = failed_worker(&users, &user, &[("NATS_PASSWORD", "wrong")]);
    assert!(
        code == Some(1) && why.contains(&format!("cannot connect to the NATS server at {}", users.url)),
        "{code:?} {why}"
    );
    let (code, why) = failed_worker(&users, &user, &[]);
    assert!(
        code == Some(2) && why.contains("--user gridtune needs a password: set NATS_PASSWORD, or give --password-file"),
        "{code:?} {why}"
    );
    let missing = dir.join("no-such-file").display().to_string();
    let (code, why) = failed_worker(&users, &["--user", "gridtune", "--password-file", &missing], &[]);
    assert!(
        code == Some(2) && why.contains(&format!("cannot read the NATS password file {missing}")),
        "{code:?} {why}"
    );
    let empty = file("empty", "\n");
    let (code, why) = failed_worker(&users, &["--user", "gridtune", "--password-file", &empty], &[]);
    assert!(
        code == Some(2) && why.contains(&format!("the NATS password file {empty} is empty")),
        "{code:?} {why}"
    );
    let (code, why) = failed_worker(
        &users,
        &[
            "--user",
            "gridtune",
            "--password",
            "s3cret",
            "--password-file",
            &password_file,
        ],
        &[],
    );
    assert!(code == Some(2) && why.contains("cannot be used with"), "{code:?} {why}");

    let Some(tokens) = NatsServer::start_with(&dir.join("server-token"), &["--auth", "t0ken"]) else {
        return;
    };
    let token_file = file("token", "t0ken\r\n");
    Worker::start_with(&tokens, dir.join("token-env.log"), &[], &[("NATS_TOKEN", "t0ken")]);
    Worker::start_with(&tokens, dir.join("token-file.log"), &["--token-file", &token_file], &[]);
    let (code, why) = failed_worker(&tokens, &[], &[]);
    assert!(code == Some(1) && why.contains("cannot connect"), "{code:?} {why}");
    // NATS_TOKEN is not sent along with a user's password.
    let (code, why) = failed_worker(
        &tokens,
        &["--user", "gridtune", "--password", "x"],
        &[("NATS_TOKEN", "t0ken")],
    );
    assert!(code == Some(1) && why.contains("cannot connect"), "{code:?} {why}");
}
