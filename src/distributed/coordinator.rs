//! The coordinator's side: [`Remote`], an [`Executor`] that publishes games
//! as batches on the work stream and gathers the workers' results.
//!
//! Each call of [`Executor::play`] splits its games into batches of at most
//! `batch_games`, publishes them, and waits for one valid result per batch,
//! matched by batch id: a duplicate (a batch delivered twice, after a
//! worker's lease ran out) or a result of another run is ignored, and a
//! result whose shape or counts do not fit its batch is logged and the batch
//! published again. The summaries come back in task order, so what the
//! caller computes from them is what a local run computes. It never waits
//! silently: when no worker has answered for `patience`, it logs so and
//! [`Remote::status`] (the progress line) says so, and it goes on waiting.

use super::connect::{self, Server};
use super::recent::{Refusals, Tell};
use super::wire::{self, Batch};
use super::worker::{self, WorkerOptions};
use crate::arena::executor::{Executor, GameSummary, GameTask};
use crate::game::mix64;
use crate::games::GameKit;
use async_nats::jetstream::{self, consumer};
use futures::StreamExt;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How a coordinator hands out its games.
#[derive(Clone, Debug)]
pub struct RemoteOptions {
    /// Names the run's subjects: the same run folder gives the same run, so
    /// a resumed coordinator drops the batches its killed process left.
    pub run: String,
    /// Games per batch.
    pub batch_games: usize,
    /// Silence from the workers after which the coordinator says so.
    pub patience: Duration,
    /// Threads of a worker inside the coordinator (0: none).
    pub local_threads: usize,
}

/// A run id from a text (the run folder): 16 hex digits.
pub fn run_id(text: &str) -> String {
    let mut h = 0x6772_6964u64;
    for chunk in text.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = mix64(h ^ u64::from_le_bytes(word));
    }
    format!("{h:016x}")
}

/// A fresh id for this process: its start time and pid.
fn nonce() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    format!("{:016x}", mix64(nanos ^ (u64::from(std::process::id()) << 40)))
}

/// One worker's share of the run, as the coordinator saw it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerTally {
    pub batches: u64,
    pub games: u64,
    /// Seconds the worker reported playing.
    pub seconds: f64,
}

#[derive(Debug)]
struct Seen {
    workers: BTreeMap<String, WorkerTally>,
    last_answer: Instant,
    waiting: usize,
    /// Results refused (another version, or a wrong shape or counts),
    /// each counted once however often it is read.
    refused: u64,
    /// The results refused lately: following the results again reads
    /// every stored one again.
    refusals: Refusals,
    /// Seconds spent publishing and checking, outside the workers' play.
    overhead: f64,
    batches: u64,
}

/// Publishes games to workers through a NATS server.
pub struct Remote {
    runtime: tokio::runtime::Runtime,
    js: jetstream::Context,
    server_url: String,
    options: RemoteOptions,
    nonce: String,
    sequence: AtomicU64,
    seen: Mutex<Seen>,
    stop_local: Arc<AtomicBool>,
}

impl Remote {
    /// Connects, makes the streams if needed, drops this run's batches left
    /// by an earlier process, and starts the local worker if asked.
    pub fn connect(server: &Server, options: RemoteOptions) -> anyhow::Result<Remote> {
        anyhow::ensure!(options.batch_games >= 1, "--batch-games must be at least 1");
        anyhow::ensure!(
            !options.run.is_empty() && options.run.bytes().all(|b| b.is_ascii_alphanumeric()),
            "a run id must be alphanumeric"
        );
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("gridtune-nats")
            .enable_all()
            .build()?;
        let url = server.url.clone();
        let js = runtime.block_on(async {
            let client = server
                .connect("gridtune coordinator", move |event| match event {
                    async_nats::Event::Connected => tracing::info!("connected to {url}"),
                    async_nats::Event::Disconnected => tracing::warn!("disconnected from {url}; reconnecting"),
                    other => tracing::warn!("NATS: {other}"),
                })
                .await?;
            let js = jetstream::new(client);
            let work = connect::work_stream(&js).await?;
            connect::result_stream(&js).await?;
            work.purge()
                .filter(format!("gridtune.work.{}", options.run))
                .await
                .map_err(|e| anyhow::anyhow!("cannot drop the run's earlier batches: {e}"))?;
            anyhow::Ok(js)
        })?;
        let remote = Remote {
            runtime,
            js,
            server_url: server.url.clone(),
            nonce: nonce(),
            sequence: AtomicU64::new(0),
            seen: Mutex::new(Seen {
                workers: BTreeMap::new(),
                last_answer: Instant::now(),
                waiting: 0,
                refused: 0,
                refusals: Refusals::new(Instant::now()),
                overhead: 0.0,
                batches: 0,
            }),
            stop_local: Arc::new(AtomicBool::new(false)),
            options,
        };
        if remote.options.local_threads > 0 {
            let pool = Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(remote.options.local_threads)
                    .thread_name(|i| format!("gridtune-local-{i}"))
                    .build()?,
            );
            let mut local = WorkerOptions::new(remote.options.local_threads);
            local.name = format!("{} (coordinator)", local.name);
            let (server, stop) = (server.clone(), Arc::clone(&remote.stop_local));
            remote.runtime.spawn(async move {
                if let Err(e) = worker::serve(server, local, pool, stop).await {
                    tracing::error!("the coordinator's own worker stopped: {e:#}");
                }
            });
        }
        tracing::info!(
            "coordinating run {} through {} ({} games a batch)",
            remote.options.run,
            remote.server_url,
            remote.options.batch_games
        );
        Ok(remote)
    }

    fn reply_subject(&self) -> String {
        format!("gridtune.results.{}", self.options.run)
    }

    /// The workers seen so far and their games.
    pub fn workers(&self) -> BTreeMap<String, WorkerTally> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).workers.clone()
    }

    /// The coordinator's own seconds per batch so far (publishing,
    /// checking, bookkeeping; the workers' play time excluded) and batches.
    pub fn overhead(&self) -> (f64, u64) {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        (seen.overhead, seen.batches)
    }

    /// One line for a progress bar: workers and their games, and how long
    /// the workers have been silent when that is long.
    pub fn status(&self) -> String {
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let games: Vec<String> = seen.workers.iter().map(|(w, t)| format!("{w} {}", t.games)).collect();
        let mut line = format!(
            "{} worker{}{}",
            seen.workers.len(),
            if seen.workers.len() == 1 { "" } else { "s" },
            if games.is_empty() {
                String::new()
            } else {
                format!(" ({})", games.join(", "))
            }
        );
        let silent = seen.last_answer.elapsed();
        if seen.waiting > 0 && silent >= self.options.patience {
            line.push_str(&format!(
                "; no worker has answered for {} s ({} batches waiting on {})",
                silent.as_secs(),
                seen.waiting,
                self.server_url
            ));
        }
        line
    }

    /// The run's last line: the workers, their games, and the coordinator's
    /// own time per batch.
    pub fn summary(&self) -> String {
        let (overhead, batches) = self.overhead();
        let per_batch = if batches == 0 {
            0.0
        } else {
            1000.0 * overhead / batches as f64
        };
        let refused = self.seen.lock().unwrap_or_else(|e| e.into_inner()).refused;
        format!(
            "{}; {batches} batches, {per_batch:.2} ms of the coordinator's own time per batch{}",
            self.status(),
            if refused > 0 {
                format!(", {refused} results refused")
            } else {
                String::new()
            }
        )
    }

    /// A consumer of the run's results: those published from now on, or
    /// (`all`, after the last one failed) every one the stream holds, which
    /// the batch ids sort out. Named, so it can be deleted when done.
    async fn follow_results(&self, all: bool) -> (String, consumer::pull::Stream) {
        loop {
            let name = format!(
                "coordinator-{}-{}-{}",
                self.options.run,
                self.nonce,
                self.sequence.fetch_add(1, Ordering::Relaxed)
            );
            let made = async {
                let stream = connect::result_stream(&self.js).await?;
                let consumer = stream
                    .create_consumer(consumer::pull::Config {
                        name: Some(name.clone()),
                        deliver_policy: if all {
                            consumer::DeliverPolicy::All
                        } else {
                            consumer::DeliverPolicy::New
                        },
                        ack_policy: consumer::AckPolicy::None,
                        filter_subject: self.reply_subject(),
                        inactive_threshold: Duration::from_secs(60),
                        ..Default::default()
                    })
                    .await
                    .map_err(|e| anyhow::anyhow!("cannot follow the results: {e}"))?;
                consumer
                    .messages()
                    .await
                    .map_err(|e| anyhow::anyhow!("cannot follow the results: {e}"))
            }
            .await;
            match made {
                Ok(stream) => return (name, stream),
                Err(e) => {
                    tracing::warn!("{e:#}; trying again");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Deletes a results consumer once its call is done (the server would
    /// drop it after a minute anyway).
    async fn forget(&self, name: &str) {
        if let Ok(stream) = self.js.get_stream(connect::RESULT_STREAM).await {
            let _ = stream.delete_consumer(name).await;
        }
    }

    /// Publishes a batch until the server takes it.
    async fn publish(&self, batch: &Batch, payload: &[u8]) {
        let subject = format!("gridtune.work.{}", self.options.run);
        let mut attempt = 0u32;
        loop {
            let sent = match self.js.publish(subject.clone(), payload.to_vec().into()).await {
                Ok(ack) => ack.await.map(|_| ()).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            match sent {
                Ok(()) => return,
                Err(e) => {
                    attempt += 1;
                    tracing::warn!(
                        "cannot publish batch `{}` (attempt {attempt}): {e}; trying again",
                        batch.id
                    );
                    tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt.min(10)))).await;
                }
            }
        }
    }

    /// Splits `tasks` into batches that fit a message: `batch_games` games
    /// each, halved while one is too large.
    fn batches<G: GameKit>(&self, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Vec<(Batch, Vec<u8>, usize)> {
        let mut out = Vec::new();
        let mut start = 0;
        let mut size = self.options.batch_games;
        while start < tasks.len() {
            let end = (start + size).min(tasks.len());
            let seq = self.sequence.fetch_add(1, Ordering::Relaxed);
            let id = format!("{}.{}.{seq}", self.options.run, self.nonce);
            let batch = Batch::new::<G>(id, self.reply_subject(), maps, &tasks[start..end]);
            let payload = batch.to_json();
            if payload.len() > wire::MAX_MESSAGE_BYTES / 2 && end - start > 1 {
                size = ((end - start) / 2).max(1);
                continue;
            }
            out.push((batch, payload, start));
            start = end;
        }
        out
    }

    async fn gather<G: GameKit>(&self, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Vec<GameSummary> {
        let mut busy = Instant::now();
        let (mut following, mut results) = self.follow_results(false).await;
        let mut errors = 0u32;
        let batches = self.batches::<G>(maps, tasks);
        let mut pending: HashMap<String, usize> = HashMap::new();
        // All batches out first, then their acknowledgements: one round
        // trip for the lot. Any that did not get through go again one by one.
        let subject = format!("gridtune.work.{}", self.options.run);
        let mut acks = Vec::with_capacity(batches.len());
        for (i, (batch, payload, _)) in batches.iter().enumerate() {
            acks.push((i, self.js.publish(subject.clone(), payload.clone().into()).await));
            pending.insert(batch.id.clone(), i);
        }
        for (i, sent) in acks {
            let stored = match sent {
                Ok(ack) => ack.await.is_ok(),
                Err(_) => false,
            };
            if !stored {
                let (batch, payload, _) = &batches[i];
                self.publish(batch, payload).await;
            }
        }
        {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            seen.waiting = pending.len();
            seen.last_answer = Instant::now();
            seen.batches += batches.len() as u64;
        }
        let mut overhead = busy.elapsed().as_secs_f64();
        let mut out: Vec<Option<GameSummary>> = vec![None; tasks.len()];
        let mut warned = Instant::now();
        while !pending.is_empty() {
            let next = tokio::time::timeout(Duration::from_secs(1), results.next()).await;
            busy = Instant::now();
            match next {
                Ok(Some(Ok(message))) => {
                    errors = 0;
                    let result = match wire::read_result(&message.payload) {
                        Ok(r) => r,
                        Err(e) => {
                            self.refused(&e);
                            continue;
                        }
                    };
                    let Some(&i) = pending.get(&result.id) else {
                        continue; // a duplicate, or another process's batch
                    };
                    let (batch, payload, start) = &batches[i];
                    match result.check_against(batch, G::PLAYERS) {
                        Ok(games) => {
                            for (k, game) in games.into_iter().enumerate() {
                                out[start + k] = Some(game);
                            }
                            pending.remove(&result.id);
                            crate::arena::add_games_finished(batch.games.len() as u64);
                            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
                            let tally = seen.workers.entry(wire_name(&result.worker)).or_default();
                            tally.batches += 1;
                            tally.games += batch.games.len() as u64;
                            tally.seconds += result.seconds;
                            seen.last_answer = Instant::now();
                            seen.waiting = pending.len();
                        }
                        Err(e) => {
                            tracing::warn!("{e}; publishing the batch again");
                            self.seen.lock().unwrap_or_else(|e| e.into_inner()).refused += 1;
                            self.publish(batch, payload).await;
                        }
                    }
                }
                Ok(Some(Err(e))) => {
                    errors += 1;
                    tracing::warn!("while waiting for results: {e}");
                    if errors >= 3 {
                        tracing::warn!("following the results again");
                        self.forget(&following).await;
                        (following, results) = self.follow_results(true).await;
                        errors = 0;
                    }
                }
                Ok(None) => {
                    tracing::warn!("the results consumer ended; following the results again");
                    self.forget(&following).await;
                    (following, results) = self.follow_results(true).await;
                }
                Err(_) => {
                    let silent = self
                        .seen
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .last_answer
                        .elapsed();
                    if silent >= self.options.patience && warned.elapsed() >= self.options.patience {
                        warned = Instant::now();
                        tracing::warn!(
                            "no worker has answered for {} s; {} batches waiting on {} (start `gridtune worker --server {}` on a machine)",
                            silent.as_secs(),
                            pending.len(),
                            self.server_url,
                            self.server_url
                        );
                    }
                }
            }
            overhead += busy.elapsed().as_secs_f64();
        }
        drop(results);
        busy = Instant::now();
        self.forget(&following).await;
        overhead += busy.elapsed().as_secs_f64();
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).overhead += overhead;
        out.into_iter()
            .map(|g| g.expect("every batch answered before the loop ends"))
            .collect()
    }
}

impl Remote {
    /// Logs a result that could not be read: a warning the first time,
    /// then at debug level and in a summary now and then.
    fn refused(&self, e: &wire::WireError) {
        let why = e.to_string();
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        match seen.refusals.note(e.batch_id().unwrap_or(&why), Instant::now()) {
            Tell::First => {
                seen.refused += 1;
                tracing::warn!("a result was refused: {why}");
            }
            Tell::Again => tracing::debug!("a result was refused again: {why}"),
            Tell::Summary { repeats, ids, over } => tracing::info!(
                "{repeats} more deliveries of {ids} results already refused in the last {} s",
                over.as_secs()
            ),
        }
    }
}

/// A worker's name as the coordinator shows it: printable, at most 80
/// characters.
fn wire_name(name: &str) -> String {
    name.chars().filter(|c| !c.is_control()).take(80).collect()
}

impl<G: GameKit> Executor<G> for Remote {
    fn play(&self, maps: &[G::Map], tasks: &[GameTask<'_>]) -> Vec<GameSummary> {
        if tasks.is_empty() {
            return Vec::new();
        }
        self.runtime.block_on(self.gather::<G>(maps, tasks))
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        self.stop_local.store(true, Ordering::Relaxed);
    }
}
