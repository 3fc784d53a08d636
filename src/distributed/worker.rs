//! `gridtune worker`: pulls batches from the work stream, plays them on its
//! own rayon pool, publishes each result, then acknowledges the batch.
//!
//! A batch stays leased to the worker while it plays (it tells the server
//! it is still working every third of the lease), so a worker that dies
//! loses nothing: the batch is delivered to another after its lease. A
//! batch of another gridtune or protocol version, or one with program bots
//! on a worker without `--allow-programs`, is refused with a logged message
//! and left (a negative acknowledgement) for a worker that can play it; the
//! server offers it again each second, so only its first refusal is a
//! warning ([`super::recent`]). A malformed or oversized batch is logged as
//! an error and terminated: no worker could play it. A game that panics (a
//! bug) terminates its batch with an error; the worker goes on.

use super::connect::{self, Server};
use super::recent::{Refusals, Tell};
use super::wire::{self, Batch, BatchResult, WireError};
use crate::arena::executor::{Executor, GameSummary, Local};
use crate::games::registry::GameVisitor;
use crate::games::GameKit;
use async_nats::jetstream::{self, AckKind};
use futures::StreamExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// Games played at once.
    pub threads: usize,
    /// Play batches with program bots (`cmd:`, `sh:`, `uai:`).
    pub allow_programs: bool,
    /// The lease of a batch the workers' consumer is created with: a batch
    /// whose worker stops answering goes to another after it.
    pub lease: Duration,
    /// The gridtune version this worker plays batches of (its own, unless a
    /// test says otherwise).
    pub version: String,
    /// How the worker names itself in results and on the server.
    pub name: String,
}

impl WorkerOptions {
    pub fn new(threads: usize) -> Self {
        WorkerOptions {
            threads,
            allow_programs: false,
            lease: Duration::from_secs(10),
            version: wire::VERSION.to_string(),
            name: worker_name(),
        }
    }
}

/// `host-pid`: how a worker names itself.
pub fn worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".into());
    format!("{host}-{}", std::process::id())
}

/// Runs a worker until the process is stopped.
pub fn run(server: &Server, options: &WorkerOptions) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("gridtune-nats")
        .enable_all()
        .build()?;
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads)
            .thread_name(|i| format!("gridtune-worker-{i}"))
            .build()?,
    );
    let stop = Arc::new(AtomicBool::new(false));
    runtime.block_on(serve(server.clone(), options.clone(), pool, stop))
}

/// Games and seconds since the last throughput line.
struct Throughput {
    batches: u64,
    games: u64,
    since: Instant,
    total_batches: u64,
    total_games: u64,
}

impl Throughput {
    const EVERY: Duration = Duration::from_secs(30);

    fn add(&mut self, games: u64) {
        self.batches += 1;
        self.games += games;
        self.total_batches += 1;
        self.total_games += games;
        let seconds = self.since.elapsed().as_secs_f64();
        if self.since.elapsed() >= Self::EVERY {
            tracing::info!(
                "{} batches, {} games in the last {seconds:.0} s: {:.1} games/s ({} batches, {} games in all)",
                self.batches,
                self.games,
                self.games as f64 / seconds,
                self.total_batches,
                self.total_games
            );
            self.batches = 0;
            self.games = 0;
            self.since = Instant::now();
        }
    }
}

/// Batches a worker plays at once.
const IN_FLIGHT: usize = 2;

/// The worker loop on the current runtime, until `stop` is set: the
/// coordinator's `--local-threads` runs one beside its own work.
pub async fn serve(
    server: Server,
    options: WorkerOptions,
    pool: Arc<rayon::ThreadPool>,
    stop: Arc<AtomicBool>,
) -> anyhow::Result<()> {
    let url = server.url.clone();
    let client = server
        .connect(&format!("gridtune worker {}", options.name), move |event| match event {
            async_nats::Event::Connected => tracing::info!("connected to {url}"),
            async_nats::Event::Disconnected => tracing::warn!("disconnected from {url}; reconnecting"),
            other => tracing::warn!("NATS: {other}"),
        })
        .await?;
    tracing::info!(
        worker = %options.name,
        threads = options.threads,
        allow_programs = options.allow_programs,
        "worker connected to {} (gridtune {}, protocol {})",
        server.url,
        options.version,
        wire::PROTOCOL
    );
    let js = jetstream::new(client);
    let stream = connect::work_stream(&js).await?;
    connect::result_stream(&js).await?;
    let consumer = connect::workers_consumer(&stream, options.lease).await?;
    let throughput = Arc::new(std::sync::Mutex::new(Throughput {
        batches: 0,
        games: 0,
        since: Instant::now(),
        total_batches: 0,
        total_games: 0,
    }));
    // Two batches at once: while one plays its last games on part of the
    // pool, the next already fills the rest, and round trips overlap play.
    let slots = Arc::new(tokio::sync::Semaphore::new(IN_FLIGHT));
    let refusals = Arc::new(std::sync::Mutex::new(Refusals::new(Instant::now())));
    let options = Arc::new(options);
    while !stop.load(Ordering::Relaxed) {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            break;
        };
        let fetched = consumer
            .fetch()
            .max_messages(1)
            .expires(Duration::from_secs(2))
            .messages()
            .await;
        let mut messages = match fetched {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!("cannot fetch a batch: {e}; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        match messages.next().await {
            Some(Ok(message)) => {
                let (js, options, pool, throughput, refusals) = (
                    js.clone(),
                    Arc::clone(&options),
                    Arc::clone(&pool),
                    Arc::clone(&throughput),
                    Arc::clone(&refusals),
                );
                tokio::spawn(async move {
                    if let Some(games) = handle(&js, &message, &options, &pool, &refusals).await {
                        throughput.lock().unwrap_or_else(|e| e.into_inner()).add(games);
                    }
                    drop(slot);
                });
            }
            Some(Err(e)) => {
                tracing::warn!("cannot fetch a batch: {e}; trying again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            None => {}
        }
    }
    // Let the batches under way finish before returning.
    let _ = slots.acquire_many(IN_FLIGHT as u32).await;
    Ok(())
}

/// What became of a batch.
enum Outcome {
    Played(Vec<GameSummary>),
    /// For another worker (version, programs), or its result could not be
    /// published: left with a delay. `id` is the batch's (or, if it has
    /// none, the message's).
    Refused {
        id: String,
        why: String,
    },
    /// No worker can play it.
    Broken(String),
}

/// Plays one message's batch; returns its games when it was played.
async fn handle(
    js: &jetstream::Context,
    message: &jetstream::Message,
    options: &WorkerOptions,
    pool: &Arc<rayon::ThreadPool>,
    refusals: &std::sync::Mutex<Refusals>,
) -> Option<u64> {
    let started = Instant::now();
    let outcome = match wire::read_batch_as(&message.payload, &options.version) {
        Err(e) if e.for_another_worker() => refused(&e),
        Err(e) => Outcome::Broken(e.to_string()),
        Ok(batch) => {
            let batch = Arc::new(batch);
            let (pool, b, allow) = (Arc::clone(pool), Arc::clone(&batch), options.allow_programs);
            let mut playing = tokio::task::spawn_blocking(move || play(&b, allow, &pool));
            let mut tick = tokio::time::interval(options.lease / 3);
            tick.tick().await;
            let played = loop {
                tokio::select! {
                    done = &mut playing => break done,
                    _ = tick.tick() => {
                        if let Err(e) = message.ack_with(AckKind::Progress).await {
                            tracing::warn!("cannot extend the lease of batch `{}`: {e}", batch.id);
                        }
                    }
                }
            };
            match played {
                Ok(Ok(games)) => {
                    let result = BatchResult::new(&batch.id, &options.name, &games, started.elapsed().as_secs_f64());
                    if publish(js, &batch, &result).await {
                        Outcome::Played(games)
                    } else {
                        Outcome::Refused {
                            id: batch.id.clone(),
                            why: format!("the result of batch `{}` could not be published", batch.id),
                        }
                    }
                }
                Ok(Err(e)) if e.for_another_worker() => refused(&e),
                Ok(Err(e)) => Outcome::Broken(e.to_string()),
                Err(e) => Outcome::Broken(format!("batch `{}`: a game panicked: {e}", batch.id)),
            }
        }
    };
    let (kind, games) = match outcome {
        Outcome::Played(games) => {
            tracing::info!(
                "batch done: {} games in {:.2} s",
                games.len(),
                started.elapsed().as_secs_f64()
            );
            (AckKind::Ack, Some(games.len() as u64))
        }
        Outcome::Refused { id, why } => {
            let tell = refusals
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .note(&id, Instant::now());
            match tell {
                Tell::First => tracing::warn!("refused: {why}"),
                Tell::Again => tracing::debug!("refused again: {why}"),
                Tell::Summary { repeats, ids, over } => tracing::info!(
                    "refused {repeats} more deliveries of {ids} batches already reported in the last {} s; \
                     they wait for a worker that can play them",
                    over.as_secs()
                ),
            }
            (AckKind::Nak(Some(Duration::from_secs(1))), None)
        }
        Outcome::Broken(why) => {
            tracing::error!("rejected a batch: {why}");
            (AckKind::Term, None)
        }
    };
    if let Err(e) = message.ack_with(kind).await {
        tracing::warn!("cannot acknowledge a batch: {e}");
    }
    games
}

fn refused(e: &WireError) -> Outcome {
    let why = e.to_string();
    Outcome::Refused {
        id: e.batch_id().map_or_else(|| why.clone(), str::to_string),
        why,
    }
}

/// Publishes a result, trying a few times; false if it never got through
/// (the batch is then left to be played again).
async fn publish(js: &jetstream::Context, batch: &Batch, result: &BatchResult) -> bool {
    let payload = result.to_json();
    for attempt in 1..=5u32 {
        let sent = match js.publish(batch.reply.clone(), payload.clone().into()).await {
            Ok(ack) => ack.await.map(|_| ()).map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        match sent {
            Ok(()) => return true,
            Err(e) => {
                tracing::warn!(
                    "cannot publish the result of batch `{}` (attempt {attempt}): {e}",
                    batch.id
                );
                tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt))).await;
            }
        }
    }
    false
}

/// Decodes and plays a batch on `pool`.
fn play(batch: &Batch, allow_programs: bool, pool: &rayon::ThreadPool) -> Result<Vec<GameSummary>, WireError> {
    struct Play<'a> {
        batch: &'a Batch,
        allow_programs: bool,
        pool: &'a rayon::ThreadPool,
    }
    impl GameVisitor for Play<'_> {
        type Output = Result<Vec<GameSummary>, WireError>;
        fn visit<G: GameKit>(self) -> Self::Output {
            let decoded = self.batch.decode::<G>(self.allow_programs)?;
            let tasks = decoded.tasks();
            Ok(self
                .pool
                .install(|| <Local as Executor<G>>::play(&Local, &decoded.maps, &tasks)))
        }
    }
    let play = Play {
        batch,
        allow_programs,
        pool,
    };
    crate::games::visit(&batch.game, play).unwrap_or_else(|| {
        Err(WireError::Invalid {
            id: batch.id.chars().take(200).collect(),
            why: format!(
                "unknown game `{}`; games: {}",
                batch.game.chars().take(50).collect::<String>(),
                crate::games::NAMES.join(", ")
            ),
        })
    })
}
