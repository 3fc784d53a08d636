//! Logging with `tracing`: events go to stderr (warnings and errors unless
//! RUST_LOG says otherwise) and, once a command names one, to a log file
//! (`run.log` in an evolve run folder; info and above unless RUST_LOG says
//! otherwise). Stderr lines take the progress bar off the line first.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Mutex;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::prelude::*;
use tracing_subscriber::EnvFilter;

/// The log file, once a command opened one.
static LOG_FILE: Mutex<Option<File>> = Mutex::new(None);

/// Installs the global subscriber: a stderr layer (`stderr_default`, such
/// as `warn`) and a file layer (`info`), each filtered by RUST_LOG instead
/// when it is set.
pub fn init(stderr_default: &str) {
    let filter = |default: &str| EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    // Colour codes only reach a terminal: piped or redirected stderr (CI
    // logs, a test harness, `2> file`) gets plain text. NO_COLOR is honoured.
    let colour = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let stderr = tracing_subscriber::fmt::layer()
        .with_ansi(colour)
        .with_writer(Stderr)
        .with_filter(filter(stderr_default));
    let file = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(LogFile)
        .with_filter(filter("info"));
    let _ = tracing_subscriber::registry().with(stderr).with(file).try_init();
}

/// Appends log events to `path` from now on (a resumed run keeps its log).
pub fn log_to_file(path: &Path) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    *LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()) = Some(file);
    Ok(())
}

/// Stderr, with the progress bar taken off the line before each event.
struct Stderr;

struct StderrWriter;

impl Write for StderrWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        crate::progress::suspend(|| std::io::stderr().write_all(buf))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

impl<'a> MakeWriter<'a> for Stderr {
    type Writer = StderrWriter;

    fn make_writer(&'a self) -> Self::Writer {
        StderrWriter
    }
}

/// The log file, or nowhere while none is open.
struct LogFile;

struct LogFileWriter;

impl Write for LogFileWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Some(f) = LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            f.write_all(buf)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match LOG_FILE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

impl<'a> MakeWriter<'a> for LogFile {
    type Writer = LogFileWriter;

    fn make_writer(&'a self) -> Self::Writer {
        LogFileWriter
    }
}
