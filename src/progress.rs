//! A one-line progress bar on stderr, redrawn in place by a background
//! thread, for long commands (`evolve`, `match`). It is drawn only when
//! stderr is a terminal; anything else that writes to the terminal while it
//! is up goes through [`suspend`], which takes the bar off the line first.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// True while a bar is on the screen; held while drawing or printing.
static DRAWN: Mutex<bool> = Mutex::new(false);

/// How often the bar is redrawn.
const TICK: Duration = Duration::from_millis(250);

/// Runs `f` (which prints) with the bar off the screen; the bar comes back
/// on its next redraw.
pub fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let mut drawn = DRAWN.lock().unwrap_or_else(|e| e.into_inner());
    if *drawn {
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(b"\r\x1b[2K");
        let _ = err.flush();
        *drawn = false;
    }
    f()
}

/// Prints a line on stdout without tearing the bar.
pub fn println(line: &str) {
    suspend(|| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    });
}

/// Whether a bar should be drawn: not with `--quiet`, and only on a terminal.
pub fn wanted(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal()
}

/// A running bar. Dropping it (or [`Bar::finish`]) stops the thread and
/// clears the line.
pub struct Bar {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Bar {
    /// Starts redrawing `render()`'s line, if `enabled`.
    pub fn start(enabled: bool, mut render: impl FnMut() -> String + Send + 'static) -> Bar {
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let thread = enabled.then(|| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || loop {
                {
                    let (lock, wake) = &*stop;
                    let stopped = lock.lock().unwrap_or_else(|e| e.into_inner());
                    let (stopped, _) = wake
                        .wait_timeout_while(stopped, TICK, |s| !*s)
                        .unwrap_or_else(|e| e.into_inner());
                    if *stopped {
                        return;
                    }
                }
                let line = fit(&render(), terminal_width());
                let mut drawn = DRAWN.lock().unwrap_or_else(|e| e.into_inner());
                let mut err = std::io::stderr().lock();
                let _ = write!(err, "\r\x1b[2K{line}");
                let _ = err.flush();
                *drawn = true;
            })
        });
        Bar { stop, thread }
    }

    pub fn finish(self) {}
}

impl Drop for Bar {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            let (lock, wake) = &*self.stop;
            *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
            wake.notify_all();
            let _ = thread.join();
            suspend(|| ());
        }
    }
}

/// The terminal's width in columns (stderr's), or 100 if unknown.
fn terminal_width() -> usize {
    // SAFETY: TIOCGWINSZ fills the winsize we pass and reads nothing else.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut size) } == 0;
    if ok && size.ws_col > 0 {
        usize::from(size.ws_col)
    } else {
        100
    }
}

/// Cuts `line` to `width - 1` characters, so the cursor never wraps.
fn fit(line: &str, width: usize) -> String {
    line.chars().take(width.saturating_sub(1).max(10)).collect()
}

/// A duration as `1h05m`, `4m07s` or `12s`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
    }
}

/// What a bar line shows.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// What is running: `gen 3/10`, `match`.
    pub stage: String,
    pub done: u64,
    /// The games expected, when known.
    pub total: Option<u64>,
    pub games_per_second: Option<f64>,
    pub seconds_left: Option<f64>,
    /// The figure that matters most: `best 85.7`, `score 47.5%`.
    pub note: String,
}

impl Line {
    /// `gen 3/10 [=======>      ] 420/968 games  35.2 games/s  2m41s left  best 85.7`
    pub fn render(&self) -> String {
        const WIDTH: usize = 24;
        let mut text = self.stage.clone();
        match self.total {
            Some(total) if total > 0 => {
                let filled = ((self.done.min(total) as f64 / total as f64) * WIDTH as f64) as usize;
                let head = if filled < WIDTH { ">" } else { "" };
                text.push_str(&format!(
                    " [{}{head}{}] {}/{total} games",
                    "=".repeat(filled),
                    " ".repeat(WIDTH - filled - head.len()),
                    self.done
                ));
            }
            _ => text.push_str(&format!(" {} games", self.done)),
        }
        if let Some(rate) = self.games_per_second {
            text.push_str(&format!("  {rate:.1} games/s"));
        }
        if let Some(left) = self.seconds_left {
            text.push_str(&format!("  {} left", duration(left)));
        }
        if !self.note.is_empty() {
            text.push_str("  ");
            text.push_str(&self.note);
        }
        text.trim_start().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_shows_stage_bar_games_rate_time_left_and_note() {
        let line = Line {
            stage: "gen 3/10".into(),
            done: 484,
            total: Some(968),
            games_per_second: Some(35.24),
            seconds_left: Some(161.0),
            note: "best 85.7".into(),
        };
        assert_eq!(
            line.render(),
            "gen 3/10 [============>           ] 484/968 games  35.2 games/s  2m41s left  best 85.7"
        );
        let full = Line {
            done: 968,
            ..line.clone()
        };
        assert!(full.render().contains("[========================] 968/968"));
        let unknown = Line {
            total: None,
            seconds_left: None,
            ..line
        };
        assert_eq!(unknown.render(), "gen 3/10 484 games  35.2 games/s  best 85.7");
    }

    #[test]
    fn durations_and_fitting() {
        assert_eq!(duration(12.4), "12s");
        assert_eq!(duration(247.0), "4m07s");
        assert_eq!(duration(3900.0), "1h05m");
        assert_eq!(fit("abcdefghijklmnop", 12), "abcdefghijk");
    }

    #[test]
    fn a_disabled_bar_starts_no_thread() {
        let bar = Bar::start(false, || unreachable!("a disabled bar never renders"));
        assert!(bar.thread.is_none());
    }
}
