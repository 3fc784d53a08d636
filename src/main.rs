//! gridtune's command-line entry point.

mod cli;

use clap::Parser;

fn main() {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
        .with_writer(std::io::stderr)
        .init();
    if let Err(e) = cli::run(cli::Cli::parse()) {
        eprintln!("error: {e:#}");
        // Bad input (maps, genomes, configs, positions, specs) is exit code 2.
        std::process::exit(2);
    }
}
