//! A bot program as a child process: started in its own process group, fed
//! through a writer thread, read line by line with deadlines, its stderr
//! captured turn by turn, and killed with everything it started.
//!
//! Every pipe has its own thread so that no bot can block the referee: a bot
//! that never reads its stdin fills the pipe and stalls only its writer; a
//! bot that never answers trips a deadline on a channel.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most of one stdout line the referee keeps; the rest of a longer line
/// is read and dropped, so a bot printing megabytes costs no memory.
pub const MAX_LINE: usize = 4096;

/// The most stderr kept per turn: what the server's replay viewer shows.
pub const STDERR_PER_TURN: usize = 2000;

/// How to start a bot program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub dir: Option<std::path::PathBuf>,
}

/// One line of a bot's stdout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line without its newline, cut at [`MAX_LINE`] bytes (lossy UTF-8).
    pub text: String,
    /// Whether a newline ended it (the Slime control program needs one).
    pub newline: bool,
    /// Bytes the line had beyond [`MAX_LINE`].
    pub cut: usize,
    /// When the reader took the line off the pipe. A reply is timed by this,
    /// not by when the referee's game thread got to it: with more bots than
    /// cores (two Light Cycles or Slime games at once) that thread can be
    /// scheduled late, or be reading another seat's reply first.
    pub arrived: Instant,
}

/// Why no line came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoLine {
    /// The deadline passed.
    Timeout,
    /// Stdout closed: the bot exited or crashed.
    Closed,
}

/// A running bot program.
pub struct BotProcess {
    child: Child,
    stdin: Option<Sender<Vec<u8>>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<StderrPipe>>,
    stderr_reader: std::thread::JoinHandle<()>,
    /// Set once stdout has closed; later reads fail at once.
    closed: bool,
    reaped: Option<ExitStatus>,
}

/// The stderr pipe and what has been read from it. Bytes move from the pipe
/// to `text` only under the lock, so whoever holds the lock and finds the pipe
/// empty knows that everything the bot wrote so far is in `text`: the reply
/// it printed after its debug output can never overtake that output.
struct StderrPipe {
    pipe: std::process::ChildStderr,
    text: String,
    dropped: usize,
}

impl StderrPipe {
    /// Reads whatever the pipe holds right now, never blocking.
    fn drain(&mut self) {
        let mut buf = [0u8; 4096];
        loop {
            let pending = pending_bytes(self.pipe.as_raw_fd());
            if pending == 0 {
                return;
            }
            match self.pipe.read(&mut buf[..pending.min(4096)]) {
                Ok(0) | Err(_) => return,
                Ok(n) => self.keep(&buf[..n]),
            }
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        let room = STDERR_PER_TURN.saturating_sub(self.text.chars().count());
        let kept: String = text.chars().take(room).collect();
        self.dropped += text.len() - kept.len();
        self.text.push_str(&kept);
    }
}

/// Bytes waiting in a pipe (0 if the question fails).
fn pending_bytes(fd: std::os::fd::RawFd) -> usize {
    let mut pending: libc::c_int = 0;
    // SAFETY: FIONREAD writes one c_int through the pointer; `fd` is open
    // for as long as its owner, which the caller holds.
    let status = unsafe { libc::ioctl(fd, libc::FIONREAD, &mut pending) };
    if status == 0 {
        pending.max(0) as usize
    } else {
        0
    }
}

impl BotProcess {
    /// Starts `launch` with `extra_args` appended, in a new process group.
    pub fn start(launch: &Launch, extra_args: &[String]) -> std::io::Result<Self> {
        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .args(extra_args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own group, so killing the group also reaches whatever the
            // bot started (a shell's children, an interpreter's workers).
            .process_group(0);
        if let Some(dir) = &launch.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn()?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");

        let (to_writer, from_referee) = channel::<Vec<u8>>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for chunk in from_referee {
                // A bot that exited or closed stdin just stops hearing us.
                if stdin.write_all(&chunk).and_then(|_| stdin.flush()).is_err() {
                    return;
                }
            }
        });
        let (to_referee, lines) = channel();
        std::thread::spawn(move || read_lines(stdout, to_referee));
        let capture = Arc::new(Mutex::new(StderrPipe {
            pipe: stderr,
            text: String::new(),
            dropped: 0,
        }));
        let sink = Arc::clone(&capture);
        let stderr_reader = std::thread::spawn(move || read_stderr(sink));
        Ok(BotProcess {
            child,
            stdin: Some(to_writer),
            lines,
            stderr: capture,
            stderr_reader,
            closed: false,
            reaped: None,
        })
    }

    /// Queues `text` for the bot's stdin; never blocks.
    pub fn send(&mut self, text: &str) {
        if let Some(stdin) = &self.stdin {
            let _ = stdin.send(text.as_bytes().to_vec());
        }
    }

    /// The next stdout line, waiting until `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Line, NoLine> {
        if self.closed {
            return Err(NoLine::Closed);
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(NoLine::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err(NoLine::Closed)
            }
        }
    }

    /// Like [`take_stderr`](Self::take_stderr) once the process has ended:
    /// waits (briefly) for the last of its stderr to be read first.
    pub fn take_final_stderr(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(100);
        while !self.stderr_reader.is_finished() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.take_stderr()
    }

    /// The stderr written since the last call: its first
    /// [`STDERR_PER_TURN`] characters, with a note of how much was cut.
    pub fn take_stderr(&mut self) -> String {
        let mut capture = self.stderr.lock().expect("stderr capture lock");
        capture.drain();
        let mut text = std::mem::take(&mut capture.text);
        if capture.dropped > 0 {
            text.push_str(&format!("\n[{} more bytes of stderr not kept]", capture.dropped));
            capture.dropped = 0;
        }
        text
    }

    /// Closes stdin, as the server does when the game ends.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Ends the bot: closes stdin, gives it `grace` to exit by itself, then
    /// kills its whole process group and reaps it. Returns how it ended and
    /// whether it had to be killed.
    pub fn finish(&mut self, grace: Duration) -> (ExitStatus, bool) {
        self.close_stdin();
        let deadline = Instant::now() + grace;
        // Done when stdout has closed (lines printed after the game are
        // dropped) and the main process has exited; a process closes its
        // pipes a moment before it is seen to exit, hence the polling.
        let lingered = loop {
            if self.closed && !self.alive() {
                break false;
            }
            let now = Instant::now();
            if now >= deadline {
                break true;
            }
            if self.closed {
                std::thread::sleep(Duration::from_millis(2));
            } else {
                let _ = self.read_line(deadline.min(now + Duration::from_millis(20)));
            }
        };
        self.kill();
        (self.reap(), lingered)
    }

    /// Whether the bot's main process is still running (not yet exited).
    fn alive(&mut self) -> bool {
        // waitid with WNOWAIT would leave a zombie to reap; /proc says the same
        // without reaping, which keeps the group id reserved until we kill it.
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id()));
        match stat {
            Ok(s) => !s
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
            Err(_) => false,
        }
    }

    /// Kills the bot's process group. The leader is not reaped before this,
    /// so its group id cannot have been reused.
    pub fn kill(&mut self) {
        if self.reaped.is_none() {
            kill_group(self.child.id());
        }
    }

    /// Waits for the main process (after [`kill`](Self::kill) this is quick).
    pub fn reap(&mut self) -> ExitStatus {
        if let Some(status) = self.reaped {
            return status;
        }
        let status = self.child.wait().expect("waiting for a child process");
        self.reaped = Some(status);
        status
    }

    /// The main process's id (its process group id too).
    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        self.kill();
        let _ = self.reap();
    }
}

/// Describes how a process ended, for end reasons and replays.
pub fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with status {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}{}", signal_name(sig)),
        _ => "ended".to_string(),
    }
}

fn signal_name(sig: i32) -> &'static str {
    match sig {
        6 => " (SIGABRT)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        13 => " (SIGPIPE)",
        15 => " (SIGTERM)",
        _ => "",
    }
}

fn kill_group(pgid: u32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it has no
    // memory effects on this process.
    unsafe {
        libc::kill(-(pgid as libc::pid_t), libc::SIGKILL);
    }
}

fn read_lines(stdout: std::process::ChildStdout, out: Sender<Line>) {
    let mut reader = BufReader::with_capacity(1 << 16, stdout);
    let mut kept: Vec<u8> = Vec::new();
    let mut cut = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => buf,
        };
        let (chunk, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], true),
            None => (buf, false),
        };
        let room = MAX_LINE.saturating_sub(kept.len());
        kept.extend_from_slice(&chunk[..chunk.len().min(room)]);
        cut += chunk.len().saturating_sub(room);
        let used = chunk.len() + usize::from(newline);
        reader.consume(used);
        if newline {
            let line = Line {
                text: String::from_utf8_lossy(&kept).into_owned(),
                newline: true,
                cut,
                arrived: Instant::now(),
            };
            kept.clear();
            cut = 0;
            if out.send(line).is_err() {
                return;
            }
        }
    }
    if !kept.is_empty() || cut > 0 {
        let _ = out.send(Line {
            text: String::from_utf8_lossy(&kept).into_owned(),
            newline: false,
            cut,
            arrived: Instant::now(),
        });
    }
}

/// Moves stderr into the capture as it arrives, so a bot writing more than a
/// pipe holds never blocks. It waits outside the lock and reads inside it.
fn read_stderr(pipe: Arc<Mutex<StderrPipe>>) {
    let fd = pipe.lock().expect("stderr capture lock").pipe.as_raw_fd();
    loop {
        let mut wait = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; the fd stays open while we hold `pipe`.
        let ready = unsafe { libc::poll(&mut wait, 1, -1) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        let mut capture = pipe.lock().expect("stderr capture lock");
        capture.drain();
        if wait.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 && pending_bytes(fd) == 0 {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bot's debug output written before its reply belongs to that turn,
    /// however the threads are scheduled.
    #[test]
    fn stderr_written_before_a_reply_is_taken_with_it() {
        let launch = Launch {
            program: "sh".into(),
            args: vec![
                "-c".into(),
                "while read turn; do echo \"debug $turn\" >&2; echo \"move $turn\"; done".into(),
            ],
            dir: None,
        };
        let mut bot = BotProcess::start(&launch, &[]).unwrap();
        for turn in 1..=300 {
            bot.send(&format!("{turn}\n"));
            let line = bot.read_line(Instant::now() + Duration::from_secs(10)).unwrap();
            assert_eq!(line.text, format!("move {turn}"));
            assert_eq!(bot.take_stderr(), format!("debug {turn}\n"), "turn {turn}");
        }
        let (status, lingered) = bot.finish(Duration::from_secs(5));
        assert!(!lingered);
        assert!(status.success());
    }

    /// A line is stamped when the reader takes it off the pipe, so a game
    /// thread that reads it late (here, after a sleep) still times the reply
    /// by when the bot sent it.
    #[test]
    fn a_line_read_late_keeps_the_time_it_arrived() {
        let launch = Launch {
            program: "sh".into(),
            args: vec!["-c".into(), "echo move".into()],
            dir: None,
        };
        let mut bot = BotProcess::start(&launch, &[]).unwrap();
        std::thread::sleep(Duration::from_millis(500));
        let asked = Instant::now();
        let line = bot.read_line(asked + Duration::from_secs(10)).unwrap();
        assert_eq!(line.text, "move");
        assert!(line.arrived < asked, "stamped when read, not when it arrived");
        bot.finish(Duration::from_secs(5));
    }
}
