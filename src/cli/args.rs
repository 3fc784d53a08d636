//! The argument groups several commands share: the game, the search budget,
//! program bots' time limits and bots files, and SPRT bounds.

use anyhow::Result;
use clap::Args;
use gridtune::bots::{BotSpec, SpecContext};
use gridtune::games::GameKit;
use gridtune::referee::command::BotsFile;
use gridtune::referee::TimeLimits;
use gridtune::search::Limits;
use gridtune::stats::Sprt;
use gridtune::{bad_input, bail_input};
use std::path::PathBuf;
use std::time::Duration;

/// Where bots come from besides the built-in specs, and the time limits of
/// program bots.
#[derive(Args)]
pub struct BotsArgs {
    /// A bots file (RON list of (name, spec, dir, turn_ms, first_turn_ms)):
    /// its names can be given as --bot.
    #[arg(long = "bots-file")]
    pub bots_file: Option<PathBuf>,
    /// Time limit per turn for program bots, in ms (default: the game's);
    /// UAI engines keep their spec's limit.
    #[arg(long)]
    pub turn_ms: Option<u64>,
    /// Time limit of a program bot's first turn, in ms (default: the game's);
    /// UAI engines keep their spec's limit.
    #[arg(long)]
    pub first_turn_ms: Option<u64>,
}

impl BotsArgs {
    fn load(&self) -> Result<Option<BotsFile>> {
        self.bots_file
            .as_deref()
            .map(BotsFile::load)
            .transpose()
            .map_err(|e| bad_input!("{e}"))
    }

    fn time_limits<G: GameKit>(&self) -> Result<Option<TimeLimits>> {
        if self.turn_ms == Some(0) || self.first_turn_ms == Some(0) {
            bail_input!("time limits must be at least 1 ms");
        }
        if self.turn_ms.is_none() && self.first_turn_ms.is_none() {
            return Ok(None);
        }
        let d = G::TIME_LIMITS;
        Ok(Some(TimeLimits::millis(
            self.first_turn_ms.unwrap_or(d.first.as_millis() as u64),
            self.turn_ms.unwrap_or(d.later.as_millis() as u64),
        )))
    }

    /// Parses `specs`; with none given, every bot of the bots file.
    pub fn specs<G: GameKit>(&self, specs: &[String], search: Limits) -> Result<Vec<BotSpec>> {
        let file = self.load()?;
        let ctx = SpecContext {
            search,
            bots: file.as_ref(),
            time: self.time_limits::<G>()?,
        };
        let names: Vec<String> = match (specs.is_empty(), &file) {
            (true, Some(f)) => f.names().iter().map(|n| n.to_string()).collect(),
            _ => specs.to_vec(),
        };
        Ok(names
            .iter()
            .map(|s| BotSpec::parse::<G>(s, &ctx))
            .collect::<Result<Vec<_>, _>>()?)
    }
}

#[derive(Args)]
pub struct GameArg {
    /// The game: isolation, lightcycles, slime or ataxx.
    #[arg(long)]
    pub game: String,
}

#[derive(Args)]
pub struct BudgetArgs {
    /// Search budget per move of genome bots, in nodes (deterministic).
    #[arg(long, default_value_t = 2000, conflicts_with = "ms")]
    pub nodes: u64,
    /// Search budget per move of genome bots, in milliseconds (overrides --nodes).
    #[arg(long)]
    pub ms: Option<u64>,
}

impl BudgetArgs {
    pub fn limits(&self) -> Limits {
        match self.ms {
            Some(ms) => Limits::time(Duration::from_millis(ms)),
            None => Limits::nodes(self.nodes),
        }
    }
}

/// An SPRT's `ELO0,ELO1` bounds given as `flag`.
pub fn parse_sprt(flag: &str, text: &str, alpha: f64, beta: f64) -> Result<Sprt> {
    let bounds: Vec<f64> = text
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| bad_input!("{flag} {text}: expected ELO0,ELO1 such as 0,10"))?;
    let [elo0, elo1] = bounds[..] else {
        bail_input!("{flag} {text}: expected two numbers, ELO0,ELO1");
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| bad_input!("{flag} {text}: {e}"))
}

/// The NATS server of a distributed run, and how to log in to it.
///
/// Secrets come from the environment or a file by preference: a command
/// line is readable by every user of the machine (`ps`, /proc), a process's
/// environment and a mode-600 file only by its owner.
#[derive(Args, Clone, Default)]
pub struct ServerArgs {
    /// A NATS server with JetStream (nats://HOST:4222): play the games on
    /// the workers (`gridtune worker`) connected to it instead of on this
    /// machine's cores.
    #[arg(long, value_name = "URL")]
    pub server: Option<String>,
    /// A NATS credentials file (user JWT and NKey seed).
    #[arg(long, value_name = "FILE", requires = "server")]
    pub creds: Option<PathBuf>,
    /// The NATS user; the password comes from the NATS_PASSWORD environment
    /// variable, --password-file or --password.
    #[arg(long, requires = "server")]
    pub user: Option<String>,
    /// The NATS user's password (with --user). Other users of this machine
    /// can see it in `ps`: set NATS_PASSWORD or give --password-file instead.
    #[arg(long, requires = "server", requires = "user", conflicts_with = "password_file")]
    pub password: Option<String>,
    /// A file holding the NATS user's password (with --user), such as a
    /// systemd credential; a final line break is not part of it.
    #[arg(long, value_name = "FILE", requires = "server", requires = "user")]
    pub password_file: Option<PathBuf>,
    /// A NATS token. Other users of this machine can see it in `ps`: set
    /// NATS_TOKEN or give --token-file instead.
    #[arg(long, requires = "server", conflicts_with = "token_file")]
    pub token: Option<String>,
    /// A file holding the NATS token; a final line break is not part of it.
    #[arg(long, value_name = "FILE", requires = "server")]
    pub token_file: Option<PathBuf>,
    /// A CA certificate (PEM) the server's TLS certificate must chain to.
    #[arg(long, value_name = "FILE", requires = "server")]
    pub tls_ca: Option<PathBuf>,
    /// A client certificate (PEM), for a server that verifies clients (with --tls-key).
    #[arg(long, value_name = "FILE", requires = "server", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// The client certificate's key (PEM).
    #[arg(long, value_name = "FILE", requires = "server", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Require TLS.
    #[arg(long, requires = "server")]
    pub tls: bool,
}

/// The environment variable a password is read from.
pub const PASSWORD_VAR: &str = "NATS_PASSWORD";
/// The environment variable a token is read from.
pub const TOKEN_VAR: &str = "NATS_TOKEN";

impl ServerArgs {
    /// The server to connect to, if one was given, with its secrets read
    /// from the flags, their files or the environment.
    pub fn server(&self) -> Result<Option<gridtune::distributed::connect::Server>> {
        let Some(url) = self.server.clone() else {
            return Ok(None);
        };
        // A password is looked for only for a --user, and NATS_TOKEN only
        // when no other credentials were given: the `nats` tool reads the
        // same variables, and one left in a shell must not be sent along
        // with credentials of another kind.
        let password = match &self.user {
            None => None,
            Some(user) => Some(
                secret(
                    self.password.as_deref(),
                    self.password_file.as_deref(),
                    "password",
                    PASSWORD_VAR,
                )?
                .ok_or_else(|| {
                    bad_input!(
                        "--user {user} needs a password: set {PASSWORD_VAR}, or give --password-file FILE \
                             (or --password, which other users of this machine can see)"
                    )
                })?,
            ),
        };
        let token = match (&self.token, &self.token_file) {
            (None, None) if self.user.is_some() || self.creds.is_some() => None,
            _ => secret(self.token.as_deref(), self.token_file.as_deref(), "token", TOKEN_VAR)?,
        };
        Ok(Some(gridtune::distributed::connect::Server {
            url,
            creds: self.creds.clone(),
            user: self.user.clone(),
            password,
            token,
            tls_ca: self.tls_ca.clone(),
            tls_cert: self.tls_cert.clone(),
            tls_key: self.tls_key.clone(),
            tls: self.tls,
        }))
    }
}

/// A secret from its flag, else its file, else environment variable `var`
/// (unset or empty: none).
fn secret(flag: Option<&str>, file: Option<&std::path::Path>, what: &str, var: &str) -> Result<Option<String>> {
    if let Some(value) = flag {
        if value.is_empty() {
            bail_input!("the NATS {what} given is empty");
        }
        return Ok(Some(value.to_string()));
    }
    if let Some(path) = file {
        let text = gridtune::error::read_input(path, &format!("the NATS {what} file"))?;
        let value = text
            .strip_suffix('\n')
            .map_or(text.as_str(), |t| t.strip_suffix('\r').unwrap_or(t));
        if value.is_empty() {
            bail_input!("the NATS {what} file {} is empty", path.display());
        }
        return Ok(Some(value.to_string()));
    }
    match std::env::var(var) {
        Ok(value) if value.is_empty() => Ok(None),
        Ok(value) => Ok(Some(value)),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => bail_input!("{var} is not valid UTF-8"),
    }
}

/// How a coordinator (`evolve --server`, `match --server`) hands out games.
#[derive(Args, Clone, Debug)]
pub struct CoordinatorArgs {
    /// With --server, also play batches on this many of this machine's threads.
    #[arg(long, default_value_t = 0, requires = "server")]
    pub local_threads: usize,
    /// With --server, games per batch a worker takes at once.
    #[arg(long, default_value_t = 8, requires = "server")]
    pub batch_games: usize,
    /// With --server, seconds without an answer from any worker before the
    /// progress line and the log say so (the run keeps waiting).
    #[arg(long, default_value_t = 60, requires = "server")]
    pub patience: u64,
}

impl CoordinatorArgs {
    /// Connects a coordinator for run `run` when a server was given.
    pub fn remote(
        &self,
        server: &ServerArgs,
        run: String,
    ) -> Result<Option<std::sync::Arc<gridtune::distributed::coordinator::Remote>>> {
        let Some(server) = server.server()? else {
            return Ok(None);
        };
        if self.batch_games == 0 {
            bail_input!("--batch-games must be at least 1");
        }
        let options = gridtune::distributed::coordinator::RemoteOptions {
            run,
            batch_games: self.batch_games,
            patience: Duration::from_secs(self.patience.max(1)),
            local_threads: self.local_threads,
        };
        Ok(Some(std::sync::Arc::new(
            gridtune::distributed::coordinator::Remote::connect(&server, options)?,
        )))
    }
}
