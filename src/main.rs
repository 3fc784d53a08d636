//! gridtune's command-line entry point.

mod cli;

use clap::Parser;

fn main() {
    gridtune::logging::init();
    if let Err(e) = cli::run(cli::Cli::parse()) {
        eprintln!("error: {e:#}");
        std::process::exit(gridtune::error::exit_code(&e));
    }
}
