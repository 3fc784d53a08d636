//! gridtune's command-line entry point.

mod cli;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    gridtune::logging::init(cli.stderr_log_level());
    if let Err(e) = cli::run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(gridtune::error::exit_code(&e));
    }
}
