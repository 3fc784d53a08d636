//! Program bot specs: `cmd:PROGRAM ARGS` (split into words, no shell),
//! `sh:COMMAND` (through `sh -c`, for pipes and variables), and bots files.

use super::process::Launch;
use super::TimeLimits;
use std::path::{Path, PathBuf};

/// Splits a `cmd:` spec into words as a shell would, without expanding
/// anything: whitespace separates words, quotes (`'...'`, `"..."`) group, and
/// a backslash takes the next character literally.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '\\' => {
                let next = chars.next().ok_or("a trailing backslash escapes nothing")?;
                word.get_or_insert_with(String::new).push(next);
            }
            '\'' | '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some('\\') if c == '"' => w.push(chars.next().ok_or("unclosed `\"`")?),
                        Some(other) => w.push(other),
                        None => return Err(format!("unclosed `{c}`")),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The launch for a `cmd:` (`shell` false) or `sh:` spec's text, run in `dir`.
/// The program must exist: a typo is caught before any game starts.
pub fn launch(text: &str, shell: bool, dir: Option<&Path>) -> Result<Launch, String> {
    let (program, args) = if shell {
        if text.trim().is_empty() {
            return Err("`sh:` needs a command".into());
        }
        ("sh".to_string(), vec!["-c".to_string(), text.to_string()])
    } else {
        let mut words = split_words(text)?;
        if words.is_empty() {
            return Err("`cmd:` needs a program".into());
        }
        let program = words.remove(0);
        (program, words)
    };
    let program = resolve_program(&program, dir)?;
    Ok(Launch {
        program,
        args,
        dir: dir.map(Path::to_path_buf),
    })
}

/// A program named with a slash is a path (relative to `dir`, where the bot
/// runs); made absolute so it means the same whatever the working directory.
/// A bare name is looked up on PATH.
fn resolve_program(program: &str, dir: Option<&Path>) -> Result<String, String> {
    if program.contains('/') {
        let path = match dir {
            Some(d) if Path::new(program).is_relative() => d.join(program),
            _ => PathBuf::from(program),
        };
        let meta = std::fs::metadata(&path).map_err(|e| format!("program `{}`: {e}", path.display()))?;
        if !meta.is_file() {
            return Err(format!("program `{}` is not a file", path.display()));
        }
        let absolute = std::path::absolute(&path).map_err(|e| format!("program `{}`: {e}", path.display()))?;
        return Ok(absolute.display().to_string());
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|p| p.join(program).is_file()))
        .unwrap_or(false);
    if !on_path {
        return Err(format!(
            "program `{program}` is not on PATH (give a path with a `/` for a local file)"
        ));
    }
    Ok(program.to_string())
}

/// One entry of a bots file.
#[derive(Clone, Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotEntry {
    /// How specs and reports name the bot.
    pub name: String,
    /// Any bot spec: `cmd:...`, `sh:...`, `judge:NAME`, `genome:PATH`.
    pub spec: String,
    /// Working directory of a program bot, relative to the bots file.
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// Time limit per turn in milliseconds (default: the game's).
    #[serde(default)]
    pub turn_ms: Option<u64>,
    /// Time limit of the first turn in milliseconds (default: the game's).
    #[serde(default)]
    pub first_turn_ms: Option<u64>,
}

impl BotEntry {
    /// The entry's time limits over the game's defaults.
    pub fn limits(&self, defaults: TimeLimits) -> TimeLimits {
        TimeLimits::millis(
            self.first_turn_ms.unwrap_or(defaults.first.as_millis() as u64),
            self.turn_ms.unwrap_or(defaults.later.as_millis() as u64),
        )
    }
}

/// A bots file: a RON list of [`BotEntry`]; `dir` and `genome:` paths are
/// made relative to the file's folder.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotsFile {
    pub entries: Vec<BotEntry>,
}

impl BotsFile {
    pub fn load(path: &Path) -> Result<Self, String> {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read bots file {}: {e}", path.display()))?;
        // A bare file name's parent is the empty path: the working directory.
        let base = path.parent().filter(|p| !p.as_os_str().is_empty());
        let file = Self::parse(&text, base.unwrap_or(Path::new(".")))
            .map_err(|e| format!("bots file {}: {e}", path.display()))?;
        // A missing folder would otherwise show up only once a game starts,
        // as a crash of the program.
        for e in &file.entries {
            if let Some(dir) = e.dir.as_deref().filter(|d| !d.is_dir()) {
                let why = if dir.exists() {
                    "is not a folder"
                } else {
                    "does not exist"
                };
                return Err(format!(
                    "bots file {}: entry `{}`: dir {} {why}",
                    path.display(),
                    e.name,
                    dir.display()
                ));
            }
        }
        Ok(file)
    }

    /// Parses a bots file's text; relative paths are resolved against `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Self, String> {
        let text = crate::fsutil::without_bom(text);
        let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
        let mut entries: Vec<BotEntry> = options
            .from_str(text)
            .map_err(|e| format!("not a bots file (a list of (name: ..., spec: ...)): {e}"))?;
        for (i, e) in entries.iter().enumerate() {
            if e.name.is_empty() || e.name.contains(':') || e.name.chars().any(char::is_whitespace) {
                return Err(format!("entry {}: name `{}` must be a word without `:`", i + 1, e.name));
            }
            if entries[..i].iter().any(|o| o.name == e.name) {
                return Err(format!("entry {}: name `{}` is used twice", i + 1, e.name));
            }
            if e.turn_ms == Some(0) || e.first_turn_ms == Some(0) {
                return Err(format!("entry `{}`: time limits must be at least 1 ms", e.name));
            }
        }
        for e in &mut entries {
            e.dir = Some(match e.dir.take() {
                Some(d) if d.is_relative() => base.join(d),
                Some(d) => d,
                None => base.to_path_buf(),
            });
            if let Some(path) = e.spec.strip_prefix("genome:") {
                if Path::new(path).is_relative() {
                    e.spec = format!("genome:{}", base.join(path).display());
                }
            }
        }
        Ok(BotsFile { entries })
    }

    pub fn get(&self, name: &str) -> Option<&BotEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    pub fn names(&self) -> Vec<&str> {
        self.entries.iter().map(|e| e.name.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell_without_expansion() {
        assert_eq!(
            split_words(r#"python3 -u "my bot.py" --name 'a b' c\ d $HOME"#).unwrap(),
            ["python3", "-u", "my bot.py", "--name", "a b", "c d", "$HOME"]
        );
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert!(split_words("bot 'open").unwrap_err().contains("unclosed"));
    }

    #[test]
    fn a_missing_program_is_refused_before_any_game() {
        let err = launch("./no-such-bot --fast", false, Some(Path::new("/tmp"))).unwrap_err();
        assert!(err.contains("/tmp/./no-such-bot"), "{err}");
        assert!(launch("no-such-program-anywhere", false, None)
            .unwrap_err()
            .contains("PATH"));
        let ok = launch("sh -c 'echo hi'", false, None).unwrap();
        assert_eq!((ok.program.as_str(), ok.args.len()), ("sh", 2));
    }

    #[test]
    fn bots_files_resolve_paths_against_their_folder() {
        let text = r#"[
            (name: "mine", spec: "cmd:./bot", dir: "bots", turn_ms: 50),
            (name: "tuned", spec: "genome:best.ron"),
        ]"#;
        let file = BotsFile::parse(text, Path::new("/work/x")).unwrap();
        assert_eq!(
            file.get("mine").unwrap().dir.as_deref(),
            Some(Path::new("/work/x/bots"))
        );
        assert_eq!(file.get("tuned").unwrap().spec, "genome:/work/x/best.ron");
        let limits = file.get("mine").unwrap().limits(TimeLimits::millis(1000, 100));
        assert_eq!(limits, TimeLimits::millis(1000, 50));
        let twice = r#"[(name: "a", spec: "judge:x"), (name: "a", spec: "judge:y")]"#;
        assert!(BotsFile::parse(twice, Path::new("."))
            .unwrap_err()
            .contains("used twice"));
        let unknown = r#"[(name: "a", spec: "judge:x", colour: "red")]"#;
        assert!(BotsFile::parse(unknown, Path::new(".")).unwrap_err().contains("colour"));
    }
}
