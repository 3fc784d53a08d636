//! `gridtune worker`: plays batches of games for coordinators (`evolve
//! --server`, `match --server`) through a NATS JetStream server.

use super::args::ServerArgs;
use anyhow::Result;
use clap::Args;
use gridtune::bail_input;
use gridtune::distributed::worker::{self, WorkerOptions};
use std::time::Duration;

#[derive(Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Games played at once (default: the machine's cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Play batches with program bots (cmd:, sh:, uai:): the coordinator's
    /// commands run on this machine. Without it such batches are left for
    /// a worker that allows them.
    #[arg(long)]
    pub allow_programs: bool,
    /// Seconds a batch stays leased to a worker that stops answering before
    /// another gets it (used when this worker creates the workers' consumer).
    #[arg(long, default_value_t = 10)]
    pub lease: u64,
    /// The gridtune version this worker claims (tests start a worker of
    /// another version with it).
    #[arg(long, hide = true)]
    pub claim_version: Option<String>,
}

pub fn run(a: &WorkerArgs) -> Result<()> {
    let Some(server) = a.server.server()? else {
        bail_input!("gridtune worker needs --server nats://HOST:4222");
    };
    let threads = a.threads.unwrap_or_else(rayon::current_num_threads);
    if threads == 0 {
        bail_input!("--threads must be at least 1");
    }
    if !(3..=3600).contains(&a.lease) {
        bail_input!("--lease {}: give 3 to 3600 seconds", a.lease);
    }
    let mut options = WorkerOptions::new(threads);
    options.allow_programs = a.allow_programs;
    options.lease = Duration::from_secs(a.lease);
    if let Some(v) = &a.claim_version {
        options.version = v.clone();
    }
    worker::run(&server, &options)
}
