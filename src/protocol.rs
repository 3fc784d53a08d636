//! Line handling shared by every game's contest protocol, on both sides of the
//! pipe. Standard library only: the submission bots use it.

use std::fmt;
use std::io::BufRead;

/// A protocol line that breaks the statement, with its 1-based line number in
/// the text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProtocolError {
    pub line: usize,
    pub message: String,
}

impl ProtocolError {
    pub fn new(line: usize, message: impl Into<String>) -> Self {
        ProtocolError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ProtocolError {}

/// The statements' rule for incoming lines: trailing spaces and `\r` are removed.
pub fn clean(line: &str) -> &str {
    line.trim_end_matches([' ', '\r', '\n', '\t'])
}

/// Reads the non-blank lines of a stream, cleaned, counting line numbers.
pub struct LineReader<R> {
    input: R,
    line_no: usize,
    buf: String,
}

impl<R: BufRead> LineReader<R> {
    pub fn new(input: R) -> Self {
        LineReader {
            input,
            line_no: 0,
            buf: String::new(),
        }
    }

    /// The next non-blank line with its 1-based line number, or `None` at end
    /// of input (or on a read error, which for a contest bot means the referee
    /// has gone).
    pub fn next_line(&mut self) -> Option<(usize, &str)> {
        loop {
            self.buf.clear();
            match self.input.read_line(&mut self.buf) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {
                    self.line_no += 1;
                    if !clean(&self.buf).is_empty() {
                        return Some((self.line_no, clean(&self.buf)));
                    }
                }
            }
        }
    }
}

/// Parses a line of exactly `n` integers separated by single spaces, as the
/// statements write them.
pub fn parse_ints(line: &str, n: usize, line_no: usize, what: &str) -> Result<Vec<i64>, ProtocolError> {
    let parts: Vec<&str> = line.split(' ').collect();
    let bad = || ProtocolError::new(line_no, format!("expected {what}, found `{line}`"));
    if parts.len() != n {
        return Err(bad());
    }
    parts
        .iter()
        .map(|p| {
            // `+3` and `03` are not how the referee writes numbers.
            let canonical = !p.is_empty() && (p == &"0" || !p.starts_with(['0', '+']));
            if !canonical || (p.starts_with('-') && p.len() == 1) {
                return Err(bad());
            }
            p.parse::<i64>().map_err(|_| bad())
        })
        .collect()
}
