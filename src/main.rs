//! gridtune's command-line entry point.

mod cli;

use clap::Parser;

fn main() {
    gridtune::logging::init();
    if let Err(e) = cli::run(cli::Cli::parse()) {
        eprintln!("error: {e:#}");
        // Bad input (maps, genomes, configs, positions, specs) is exit code 2.
        std::process::exit(2);
    }
}
