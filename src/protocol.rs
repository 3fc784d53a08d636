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

/// The statements' rule for a reply line, as the referee reads it: trailing
/// spaces and `\r` are removed, nothing else, so a reply the contest server
/// might refuse is refused here too.
pub fn clean(line: &str) -> &str {
    line.trim_end_matches([' ', '\r', '\n', '\t'])
}

/// An input line as a bot (or `gridtune move`) reads it: whitespace on both
/// ends removed. The statements only promise trailing spaces and `\r`, but
/// contest servers vary, and no token of any game's input starts or ends with
/// whitespace, so a bot loses nothing by being lenient.
pub fn trim_input(line: &str) -> &str {
    line.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Reads the non-blank lines of a stream, trimmed (`trim_input`), counting
/// line numbers.
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
                    if !trim_input(&self.buf).is_empty() {
                        return Some((self.line_no, trim_input(&self.buf)));
                    }
                }
            }
        }
    }
}

/// Parses a line of exactly `n` integers separated by any whitespace (the
/// statements write single spaces; servers vary).
pub fn parse_ints(line: &str, n: usize, line_no: usize, what: &str) -> Result<Vec<i64>, ProtocolError> {
    let parts: Vec<&str> = line.split_ascii_whitespace().collect();
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

/// The first line the grid games send: `W H my_id`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub width: usize,
    pub height: usize,
    pub me: usize,
}

/// Writes the first line the grid games send: `W H my_id`.
pub fn header_line(width: usize, height: usize, me: usize) -> String {
    format!("{width} {height} {me}\n")
}

/// Parses `W H my_id`, with sides up to `max` `(W, H)`.
pub fn parse_header(line: &str, line_no: usize, max: (usize, usize)) -> Result<Header, ProtocolError> {
    let v = parse_ints(line, 3, line_no, "`W H my_id`")?;
    if !(1..=max.0 as i64).contains(&v[0]) || !(1..=max.1 as i64).contains(&v[1]) || !(0..=1).contains(&v[2]) {
        return Err(ProtocolError::new(
            line_no,
            format!(
                "`{line}` is out of range: W 1..={}, H 1..={}, my_id 0 or 1",
                max.0, max.1
            ),
        ));
    }
    Ok(Header {
        width: v[0] as usize,
        height: v[1] as usize,
        me: v[2] as usize,
    })
}

/// Writes a turn block: `turn T`, each player's `x y`, then the rows.
pub fn write_turn_block(turn: u32, positions: [(usize, usize); 2], rows: &[String]) -> String {
    let mut out = format!("turn {turn}\n");
    for (x, y) in positions {
        out.push_str(&format!("{x} {y}\n"));
    }
    for row in rows {
        out.push_str(row);
        out.push('\n');
    }
    out
}

/// The shape the grid games' turn input shares: `turn T`, the two players'
/// `x y` lines, then the board's rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnBlock<'a> {
    pub turn: u32,
    pub positions: [(usize, usize); 2],
    pub rows: Vec<&'a str>,
    /// Line number of `turn T`; row `y` is on line `first_line_no + 3 + y`.
    pub first_line_no: usize,
}

impl TurnBlock<'_> {
    pub fn width(&self) -> usize {
        self.rows[0].len()
    }
    pub fn height(&self) -> usize {
        self.rows.len()
    }
    pub fn row_line(&self, y: usize) -> usize {
        self.first_line_no + 3 + y
    }
}

/// Parses a turn block from cleaned, non-blank lines numbered from
/// `first_line_no`. `size` is `(W, H)` from the header; without one the rows
/// give it (at most `max`). Characters are the game's to check.
pub fn parse_turn_block<'a>(
    lines: &[&'a str],
    size: Option<(usize, usize)>,
    max: (usize, usize),
    first_line_no: usize,
) -> Result<TurnBlock<'a>, ProtocolError> {
    let at = |i: usize| first_line_no + i;
    let get = |i: usize, what: &str| {
        lines
            .get(i)
            .copied()
            .ok_or_else(|| ProtocolError::new(at(i), format!("missing {what}")))
    };
    let turn_line = get(0, "`turn T`")?;
    let words: Vec<&str> = turn_line.split_ascii_whitespace().collect();
    let turn = match words.as_slice() {
        ["turn", t] => parse_ints(t, 1, at(0), "T").ok().map(|v| v[0]),
        _ => None,
    }
    .filter(|&t| t >= 1 && t <= u16::MAX as i64)
    .ok_or_else(|| ProtocolError::new(at(0), format!("expected `turn T`, found `{turn_line}`")))?;
    let mut positions = [(0usize, 0usize); 2];
    for (p, slot) in positions.iter_mut().enumerate() {
        let v = parse_ints(get(1 + p, "a position")?, 2, at(1 + p), "`x y`")?;
        if !(0..max.0 as i64).contains(&v[0]) || !(0..max.1 as i64).contains(&v[1]) {
            return Err(ProtocolError::new(at(1 + p), "position off any legal board"));
        }
        *slot = (v[0] as usize, v[1] as usize);
    }
    let rows: Vec<&str> = lines[3.min(lines.len())..].to_vec();
    let (width, height) = size.unwrap_or((rows.first().map_or(0, |r| r.len()), rows.len()));
    if rows.len() < height || height == 0 || height > max.1 || width == 0 || width > max.0 {
        return Err(ProtocolError::new(
            at(3 + rows.len()),
            format!(
                "expected {height} board rows of width 1..={}, found {}",
                max.0,
                rows.len()
            ),
        ));
    }
    if rows.len() > height {
        return Err(ProtocolError::new(at(3 + height), "unexpected line after the board"));
    }
    for (y, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(ProtocolError::new(
                at(3 + y),
                format!("row has {} characters, expected {width}", row.len()),
            ));
        }
    }
    for (p, &(x, y)) in positions.iter().enumerate() {
        if x >= width || y >= height {
            return Err(ProtocolError::new(
                at(1 + p),
                format!("player {p} at ({x}, {y}) is off the board"),
            ));
        }
    }
    Ok(TurnBlock {
        turn: turn as u32,
        positions,
        rows,
        first_line_no,
    })
}

/// Splits a position file as `gridtune move` takes it: an optional header
/// line, then a turn block. Returns the header and the parsed block.
pub fn parse_position_text(text: &str, max: (usize, usize)) -> Result<(Option<Header>, TurnBlock<'_>), ProtocolError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, trim_input(l)))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(first_no, first)) = lines.first() else {
        return Err(ProtocolError::new(1, "empty position"));
    };
    let (header, rest) = if first.starts_with("turn") {
        (None, &lines[..])
    } else {
        (Some(parse_header(first, first_no, max)?), &lines[1..])
    };
    // Blank lines were dropped; the block's numbers restart from its first line.
    let block: Vec<&str> = rest.iter().map(|&(_, l)| l).collect();
    let start_no = rest.first().map_or(first_no + 1, |&(n, _)| n);
    let parsed = parse_turn_block(&block, header.map(|h| (h.width, h.height)), max, start_no)?;
    Ok((header, parsed))
}

/// The main loop of a grid game's submission bot: reads the `W H my_id`
/// line, then each turn block of `H + 3` lines, and answers each with the
/// line `choose` returns, flushed. A block that cannot be read is reported on
/// stderr and skipped; `choose` may also decline (`None`) to answer. Returns
/// when stdin closes (the game is over) or stdout does (the referee is gone).
/// `choose` gets the parsed turn, the header, and when the block arrived.
pub fn serve_turns<S, E: fmt::Display>(
    bot: &str,
    max: (usize, usize),
    parse: impl Fn(&[&str], (usize, usize), usize) -> Result<S, E>,
    mut choose: impl FnMut(&S, Header, std::time::Instant) -> Option<String>,
) {
    use std::io::Write;
    let mut input = LineReader::new(std::io::stdin().lock());
    let mut out = std::io::stdout().lock();
    let Some((first_no, first)) = input.next_line() else {
        return;
    };
    let header = match parse_header(first, first_no, max) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("{bot}: bad first line: {e}");
            std::process::exit(1);
        }
    };
    let mut block: Vec<String> = Vec::with_capacity(header.height + 3);
    loop {
        let Some((first_no, line)) = input.next_line() else {
            return;
        };
        let arrived = std::time::Instant::now();
        block.clear();
        block.push(line.to_string());
        while block.len() < header.height + 3 {
            match input.next_line() {
                Some((_, l)) => block.push(l.to_string()),
                None => return,
            }
        }
        let lines: Vec<&str> = block.iter().map(String::as_str).collect();
        let turn = match parse(&lines, (header.width, header.height), first_no) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{bot}: cannot read turn: {e}");
                continue;
            }
        };
        if let Some(reply) = choose(&turn, header, arrived) {
            if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
                return;
            }
        }
    }
}

/// Share of the per-move budget a submission bot's search may use; the rest
/// covers reading, writing and the scheduler's jitter on a loaded server.
/// The slowest replies must stay within [`REPLY_MARGIN`] of the limit with
/// both cores busy: at 0.6, Ataxx's median reply under load was already 66%.
pub const SEARCH_SHARE: f64 = 0.45;

/// The share of a turn's limit a submission bot's slowest reply should stay
/// within: the rest is the margin for a judge machine slower or busier than
/// the one that measured. `match` counts the replies past it.
pub const REPLY_MARGIN: f64 = 0.6;

/// A submission bot's only option, `--budget-ms N`; exits with usage on
/// anything else.
pub fn budget_from_args(bot: &str) -> Option<u64> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: {bot} [--budget-ms N]");
        std::process::exit(2);
    };
    match args.as_slice() {
        [] => None,
        [flag, n] if flag == "--budget-ms" => match n.parse() {
            Ok(ms) if ms > 0 => Some(ms),
            _ => usage(),
        },
        _ => usage(),
    }
}
