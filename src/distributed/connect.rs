//! The NATS server a coordinator or worker talks to, its credentials, and
//! the JetStream streams both sides use.

use anyhow::Context;
use async_nats::jetstream::{self, consumer, stream};
use std::path::PathBuf;
use std::time::Duration;

/// The work-queue stream: one message per batch, each delivered to one
/// worker at a time and removed when a worker acknowledges it.
pub const WORK_STREAM: &str = "GRIDTUNE_WORK";
/// Batches go to `gridtune.work.<run>`.
pub const WORK_SUBJECTS: &str = "gridtune.work.>";
/// The durable pull consumer all workers share.
pub const WORKERS: &str = "workers";
/// Results go to `gridtune.results.<run>`.
pub const RESULT_STREAM: &str = "GRIDTUNE_RESULTS";
pub const RESULT_SUBJECTS: &str = "gridtune.results.>";
/// How long results are kept for a coordinator that reconnects.
const RESULT_AGE: Duration = Duration::from_secs(3600);
/// How long an unacknowledged batch waits before it is dropped.
const WORK_AGE: Duration = Duration::from_secs(7 * 24 * 3600);

/// How to reach the server: its URL and, if it asks for them, credentials
/// and TLS. Every option is passed to the client as given.
#[derive(Clone, Default)]
pub struct Server {
    /// `nats://HOST:4222` (or `tls://...`).
    pub url: String,
    /// A NATS creds file (a user JWT and its NKey seed).
    pub creds: Option<PathBuf>,
    pub user: Option<String>,
    pub password: Option<String>,
    pub token: Option<String>,
    /// A CA certificate (PEM) to check the server's certificate against.
    pub tls_ca: Option<PathBuf>,
    /// A client certificate and key (PEM), for servers that verify clients.
    pub tls_cert: Option<PathBuf>,
    pub tls_key: Option<PathBuf>,
    /// Require TLS even if the URL does not say `tls://`.
    pub tls: bool,
}

/// Everything but the secrets, which a debug line must not carry into a log.
impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |s: &Option<String>| s.as_ref().map(|_| "(hidden)");
        f.debug_struct("Server")
            .field("url", &self.url)
            .field("creds", &self.creds)
            .field("user", &self.user)
            .field("password", &hidden(&self.password))
            .field("token", &hidden(&self.token))
            .field("tls_ca", &self.tls_ca)
            .field("tls_cert", &self.tls_cert)
            .field("tls_key", &self.tls_key)
            .field("tls", &self.tls)
            .finish()
    }
}

impl Server {
    /// Connects, naming the client `name` on the server; `events` hears
    /// of disconnections and reconnections.
    pub async fn connect(
        &self,
        name: &str,
        events: impl Fn(async_nats::Event) + Send + Sync + 'static,
    ) -> anyhow::Result<async_nats::Client> {
        let mut options = async_nats::ConnectOptions::new()
            .name(name)
            .connection_timeout(Duration::from_secs(10))
            .event_callback(move |event| {
                events(event);
                async {}
            });
        if let Some(path) = &self.creds {
            options = options
                .credentials_file(path)
                .await
                .with_context(|| format!("cannot read the NATS creds file {}", path.display()))?;
        }
        match (&self.user, &self.password) {
            (Some(user), Some(password)) => options = options.user_and_password(user.clone(), password.clone()),
            (None, None) => {}
            _ => crate::bail_input!("--user and --password go together"),
        }
        if let Some(token) = &self.token {
            options = options.token(token.clone());
        }
        if let Some(ca) = &self.tls_ca {
            anyhow::ensure!(ca.is_file(), "the TLS CA file {} does not exist", ca.display());
            options = options.add_root_certificates(ca.clone()).require_tls(true);
        }
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => {
                options = options
                    .add_client_certificate(cert.clone(), key.clone())
                    .require_tls(true);
            }
            (None, None) => {}
            _ => crate::bail_input!("--tls-cert and --tls-key go together"),
        }
        if self.tls {
            options = options.require_tls(true);
        }
        options
            .connect(self.url.as_str())
            .await
            .with_context(|| format!("cannot connect to the NATS server at {}", self.url))
    }
}

/// The work stream, created if missing.
pub async fn work_stream(js: &jetstream::Context) -> anyhow::Result<stream::Stream> {
    open_stream(
        js,
        WORK_STREAM,
        WORK_SUBJECTS,
        stream::RetentionPolicy::WorkQueue,
        WORK_AGE,
    )
    .await
}

/// The results stream, created if missing.
pub async fn result_stream(js: &jetstream::Context) -> anyhow::Result<stream::Stream> {
    open_stream(
        js,
        RESULT_STREAM,
        RESULT_SUBJECTS,
        stream::RetentionPolicy::Limits,
        RESULT_AGE,
    )
    .await
}

/// A file-backed stream, created if missing.
async fn open_stream(
    js: &jetstream::Context,
    name: &str,
    subjects: &str,
    retention: stream::RetentionPolicy,
    max_age: Duration,
) -> anyhow::Result<stream::Stream> {
    js.get_or_create_stream(stream::Config {
        name: name.to_string(),
        subjects: vec![subjects.to_string()],
        retention,
        storage: stream::StorageType::File,
        max_age,
        ..Default::default()
    })
    .await
    .map_err(|e| anyhow::anyhow!("{e}"))
    .with_context(|| format!("cannot open or create the JetStream stream {name} (is JetStream on: nats-server -js?)"))
}

/// The workers' durable pull consumer, created with `lease` as its ack
/// wait if missing (an existing one keeps its own).
pub async fn workers_consumer(
    stream: &stream::Stream,
    lease: Duration,
) -> anyhow::Result<consumer::Consumer<consumer::pull::Config>> {
    stream
        .get_or_create_consumer(
            WORKERS,
            consumer::pull::Config {
                durable_name: Some(WORKERS.to_string()),
                ack_policy: consumer::AckPolicy::Explicit,
                ack_wait: lease,
                filter_subject: WORK_SUBJECTS.to_string(),
                ..Default::default()
            },
        )
        .await
        .map_err(|e| anyhow::anyhow!("{e}"))
        .with_context(|| format!("cannot open or create the consumer {WORKERS} on {WORK_STREAM}"))
}
