//! The report pages: one self-contained HTML file each (styles inline, plots
//! inline as SVG, no scripts, nothing loaded from the network).

use super::canvas::Plot;
use super::compare_table::CompareRow;
use super::data::{GameInfo, RunData};
use crate::stats::interval;
use std::fmt::Write;
use std::path::Path;

/// Escapes text for HTML.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An SVG document ready to sit inside HTML: the namespace attribute is not
/// needed there (and would be the page's only URL), and the plot's id and
/// class are added.
fn inline_svg(plot: &Plot) -> String {
    let start = plot.svg_text.find("<svg").unwrap_or(0);
    plot.svg_text[start..]
        .replacen(" xmlns=\"http://www.w3.org/2000/svg\"", "", 1)
        .replacen(
            "<svg ",
            &format!("<svg class=\"plot\" id=\"svg-{}\" role=\"img\" ", esc(&plot.stem)),
            1,
        )
}

fn figure(plot: &Plot, caption: &str) -> String {
    format!(
        "<figure id=\"{stem}\">\n{svg}<figcaption>{caption} Files: <a href=\"{stem}.png\">{stem}.png</a>, \
         <a href=\"{stem}.svg\">{stem}.svg</a>.</figcaption>\n</figure>\n",
        stem = esc(&plot.stem),
        svg = inline_svg(plot),
    )
}

const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 0 auto; max-width: 1000px; padding: 16px 24px;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ccc; padding-bottom: 4px; margin-top: 1.8em; }
nav a { margin-right: 1em; }
.summary { font-size: 1.05em; }
.note { color: #555; font-size: 0.92em; }
.warning { color: #a40000; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ddd; padding: 3px 9px; text-align: right; }
th { background: #f3f3f3; }
td.l, th.l { text-align: left; }
figure { margin: 0.8em 0; }
figure svg.plot { width: 100%; height: auto; border: 1px solid #e4e4e4; }
figcaption { color: #555; font-size: 0.9em; }
pre { background: #f7f7f7; padding: 8px; font-size: 0.85em; overflow-x: auto; }
";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        esc(title)
    )
}

fn pct(rate: f64) -> String {
    format!("{:.1}%", 100.0 * rate)
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.digits$}"))
}

fn range(lo_hi: Option<(f64, f64)>, digits: usize) -> String {
    lo_hi.map_or("-".to_string(), |(lo, hi)| format!("{lo:.digits$} to {hi:.digits$}"))
}

/// The plots of a run report, in page order.
pub struct RunPlots {
    pub fitness: Plot,
    pub holdout: Plot,
    pub judges: Plot,
    pub weights: Plot,
    pub effort: Plot,
}

/// The config table's rows of the run's tuner.
fn tuner_rows(c: &crate::evolve::EvolveConfig) -> Vec<(&'static str, String)> {
    if let Some(cma) = &c.cma {
        return vec![
            ("tuner", "CMA-ES with noise handling".to_string()),
            (
                "offspring",
                format!(
                    "{} a generation (mirrored pairs), {} game pairs between twins, {} against the mean, the mean {} against the start genome",
                    cma.population.map_or("4 + 3 ln n".to_string(), |p| p.to_string()),
                    cma.twin_pairs,
                    cma.mean_pairs,
                    cma.reference_pairs
                ),
            ),
            (
                "step",
                format!(
                    "starts at {} of each range, adapted within {}-{}",
                    cma.sigma_init, cma.sigma_min, cma.sigma_max
                ),
            ),
            ("mean update", format!("decaying learning rate, final precision {} Elo", cma.precision)),
        ];
    }
    let ga = &c.ga;
    vec![
        (
            "islands",
            format!("{} (migration every {} generations)", ga.islands, ga.migration_interval),
        ),
        (
            "offspring",
            format!(
                "{} mirrored twin pairs per island, {} game pairs a round, up to {} rounds (racing at |z| {})",
                ga.twin_pairs, ga.pairs_per_round, ga.max_rounds, ga.race_z
            ),
        ),
        (
            "mutation step",
            format!(
                "starts at {} of each range, self-adapted within {}-{}",
                ga.sigma_init, ga.sigma_min, ga.sigma_max
            ),
        ),
        (
            "mean update",
            if ga.surrogate {
                format!(
                    "quadratic surrogate of every twin result (memory {})",
                    ga.surrogate_memory
                )
            } else {
                format!("learning-rate step, final precision {} Elo", ga.precision)
            },
        ),
        (
            "elites, hall of fame",
            format!(
                "{} per island, {} (every {} generations)",
                ga.elites, ga.hall_of_fame, ga.hall_of_fame_interval
            ),
        ),
    ]
}

/// The run report.
pub fn run_page(run: &RunData, game: &GameInfo, plots: &RunPlots) -> String {
    let c = &run.config;
    let last = run.last();
    let mut b = String::new();
    let title = format!("{} evolution run {}", run.game, run.label);
    let _ = writeln!(b, "<h1>{}</h1>", esc(&title));
    let _ = writeln!(
        b,
        "<p class=\"summary\" id=\"summary\">Seed <b>{}</b>; {} generations of {}, \
         {} games in {:.1} s ({:.0} games/s). Champion after generation {}: {:+.1} &plusmn; {:.1} Elo \
         against the start genome, contest score {:.1} on the train maps, <b>{}</b> on the holdout maps.</p>",
        c.seed,
        last.generation,
        c.tuner_summary(),
        run.games,
        run.seconds,
        run.games as f64 / run.seconds.max(1e-9),
        last.generation,
        last.champion_elo,
        last.champion_se,
        last.train_score,
        opt(last.holdout, 1),
    );
    b.push_str(
        "<nav><a href=\"#config\">config</a><a href=\"#fitness\">fitness</a><a href=\"#holdout\">train vs holdout</a>\
         <a href=\"#judges\">judges</a><a href=\"#weights\">weights</a><a href=\"#champion\">champion</a>\
         <a href=\"#verdict\">verdict</a><a href=\"#faults\">judge faults</a><a href=\"#effort\">games and time</a><a href=\"#files\">files</a></nav>\n",
    );

    // The config.
    b.push_str("<section id=\"config\">\n<h2>Run config and seed</h2>\n<table>\n");
    let maps = |path: &Path, n: Option<usize>| {
        format!(
            "{} ({})",
            esc(&path.display().to_string()),
            n.map_or("not readable now".to_string(), |n| format!("{n} maps"))
        )
    };
    let judges: Vec<String> = c
        .judges
        .iter()
        .map(|(name, w)| format!("{} &times; {w}", esc(name)))
        .collect();
    let mut rows: Vec<(&str, String)> = vec![
        ("game", esc(&run.game)),
        ("seed", c.seed.to_string()),
        ("tuner budget", format!("{} games", c.games)),
        ("generations", last.generation.to_string()),
        ("evaluated every", format!("{} generations", c.eval_every)),
    ];
    rows.extend(tuner_rows(c));
    rows.extend([
        ("judges (contest weight)", judges.join(", ")),
        ("head-to-head share", format!("{} of the tuner's pairs", c.peer_share)),
        (
            "search per move",
            if c.timed {
                "the submission bot's time".to_string()
            } else {
                format!("{} nodes", c.nodes)
            },
        ),
        ("holdout rounds", c.holdout_rounds.to_string()),
        ("seed genome", esc(&c.seed_genome.display().to_string())),
        ("train maps", maps(&c.train_maps, run.train_maps)),
        ("holdout maps", maps(&c.holdout_maps, run.holdout_maps)),
    ]);
    for (k, v) in rows {
        let _ = writeln!(b, "<tr><th class=\"l\">{k}</th><td class=\"l\">{v}</td></tr>");
    }
    b.push_str("</table>\n<details><summary>config.ron as the run wrote it</summary>\n<pre>");
    b.push_str(&esc(&run.config_text));
    b.push_str("</pre></details>\n</section>\n");

    // Fitness.
    let train_n = run.train_games_per_judge(game.players);
    let holdout_n = run.holdout_games_per_judge(game.players);
    b.push_str("<section id=\"fitness\">\n<h2>Ratings over generations</h2>\n");
    b.push_str(&figure(
        &plots.fitness,
        "Each evaluated generation's Bradley-Terry fit over all its games, in Elo against the start genome: \
         the best, mean and median of the genomes its games tie to the start genome (the hall of fame, the \
         island means, the elites; offspring only meet their twin), and the champion (the population mean) with \
         its 95% interval (shaded, 1.96 standard errors of its rating).",
    ));
    let how = match train_n {
        Some(n) => format!(
            "How the interval is computed: each generation the champion played {n} games against each judge on \
             the train maps ({} judge combination(s) holding that judge &times; {} maps &times; {} seats). Each \
             judge's rate is treated as a binomial proportion over those games, with the Agresti-Coull \
             adjustment (two wins and two losses added: p&#771; = (x + 2) / (n + 4)); the contest score's \
             standard error is 100 &radic;(&Sigma; (w<sub>j</sub>/&Sigma;w)&sup2; p&#771;<sub>j</sub>(1 &minus; \
             p&#771;<sub>j</sub>) / (n + 4)), and the band is the score &plusmn; 1.96 standard errors, clipped \
             to 0-100. Draws make a game's variance smaller than the binomial one, so the band is conservative. \
             The champion is the population mean, tuned on these maps, so its train score may flatter it: the \
             holdout score, on maps no genome trains on, is the unbiased check.",
            n / game.players / run.train_maps.unwrap_or(1),
            run.train_maps.unwrap_or(0),
            game.players,
        ),
        None => format!(
            "No interval: the train map folder {} cannot be read now, so the champion's games per judge are \
             unknown.",
            esc(&c.train_maps.display().to_string())
        ),
    };
    b.push_str("</section>\n");

    // Train vs holdout.
    b.push_str("<section id=\"holdout\">\n<h2>Champion: train maps vs holdout maps</h2>\n");
    b.push_str(&figure(
        &plots.holdout,
        "The champion's contest score against the judges on the train maps and on the holdout maps, each with \
         its 95% interval. A holdout line that falls behind the train line means the run is fitting its maps.",
    ));
    let _ = writeln!(b, "<p class=\"note\" id=\"interval-method\">{how}</p>");
    let weights = run.judge_weights();
    let train_ci = train_n.and_then(|n| interval::contest_score(&last.judge_rates, &weights, n));
    let holdout_ci = holdout_n.and_then(|n| interval::contest_score(&last.holdout_rates, &weights, n));
    let _ = writeln!(
        b,
        "<p>Generation {}: train {:.1} (95%: {}), holdout {} (95%: {}){}.</p>\n</section>",
        last.generation,
        last.train_score,
        range(train_ci, 1),
        opt(last.holdout, 1),
        range(holdout_ci, 1),
        holdout_n.map_or(String::new(), |n| format!("; {n} holdout games per judge"))
    );

    // Judges.
    b.push_str("<section id=\"judges\">\n<h2>Win rate against each judge</h2>\n");
    b.push_str(&figure(
        &plots.judges,
        "Each generation's champion: its rate against each judge (a win counts 1, a draw 1/2) on the train \
         maps (solid) and on the holdout maps (dashed).",
    ));
    b.push_str("</section>\n");

    // Weights.
    b.push_str("<section id=\"weights\">\n<h2>How each weight moved</h2>\n");
    b.push_str(&figure(
        &plots.weights,
        "The champion's value of each weight per generation; each panel's axis is the weight's declared range, \
         the dashed line its declared default.",
    ));
    b.push_str(
        "<table id=\"weights-table\">\n<tr><th class=\"l\">weight</th><th>min</th><th>max</th><th>step</th>\
         <th>default</th><th>generation 1</th><th>final</th></tr>\n",
    );
    let first = &run.rows[0];
    for (i, p) in game.params.iter().enumerate() {
        let get = |w: &[i32]| w.get(i).map_or("-".to_string(), |v| v.to_string());
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td><b>{}</b></td></tr>",
            esc(p.name),
            p.min,
            p.max,
            p.step,
            p.default,
            get(&first.best_weights),
            get(&last.best_weights)
        );
    }
    b.push_str("</table>\n</section>\n");

    // The final champion against every judge.
    b.push_str("<section id=\"champion\">\n<h2>Final champion against every judge</h2>\n");
    b.push_str(
        "<table id=\"champion-table\">\n<tr><th class=\"l\">judge</th><th>contest weight</th>\
         <th>holdout rate</th><th>holdout 95%</th><th>train rate</th><th>train 95%</th></tr>\n",
    );
    for (j, (name, w)) in c.judges.iter().enumerate() {
        let h = last.holdout_rates.get(j).copied();
        let t = last.judge_rates.get(j).copied();
        let wilson = |p: Option<f64>, n: Option<usize>| match (p, n) {
            (Some(p), Some(n)) => {
                let (lo, hi) = interval::wilson(p, n);
                format!("{} to {}", pct(lo), pct(hi))
            }
            _ => "-".to_string(),
        };
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td>{w}</td><td><b>{}</b></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(name),
            h.map_or("-".to_string(), pct),
            wilson(h, holdout_n),
            t.map_or("-".to_string(), pct),
            wilson(t, train_n)
        );
    }
    let _ = writeln!(
        b,
        "<tr><th class=\"l\">contest score</th><td></td><td><b>{}</b></td><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
        opt(last.holdout, 1),
        range(holdout_ci, 1),
        last.train_score,
        range(train_ci, 1)
    );
    let _ = writeln!(
        b,
        "</table>\n<p class=\"note\">The champion of generation {} (best.ron). Rates count a win 1 and a draw 1/2; \
         per-judge intervals are Wilson score intervals over {} holdout and {} train games per judge.</p>\n</section>",
        last.generation,
        holdout_n.map_or("-".to_string(), |n| n.to_string()),
        train_n.map_or("-".to_string(), |n| n.to_string())
    );

    verdict_section(&mut b, run);
    judge_faults(&mut b, run);

    // Games and time.
    b.push_str("<section id=\"effort\">\n<h2>Games and seconds per generation</h2>\n");
    b.push_str(&figure(
        &plots.effort,
        "Games each evaluation period played (the tuner's, then the champion's evaluation on the train and \
         holdout maps) and the seconds it took.",
    ));
    b.push_str(
        "<table id=\"generations-table\">\n<tr><th>generation</th><th>champion Elo</th><th>&plusmn; se</th>\
         <th>step</th><th>games per offspring</th><th>train</th><th>holdout</th><th>games</th>\
         <th>tuner's games</th><th>seconds</th><th>games/s</th></tr>\n",
    );
    for r in &run.rows {
        let _ = writeln!(
            b,
            "<tr><td>{}</td><td>{:+.1}</td><td>{:.1}</td><td>{:.3}</td><td>{}-{}</td><td>{:.1}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{:.1}</td><td>{:.1}</td></tr>",
            r.generation,
            r.champion_elo,
            r.champion_se,
            r.sigma,
            r.offspring_games.0,
            r.offspring_games.1,
            r.train_score,
            opt(r.holdout, 1),
            r.games,
            r.tuning_games,
            r.seconds,
            r.games as f64 / r.seconds.max(1e-9)
        );
    }
    b.push_str("</table>\n</section>\n");
    workers_section(&mut b, run);

    // Files.
    b.push_str("<section id=\"files\">\n<h2>Files in this folder</h2>\n<ul>\n");
    for (file, what) in [
        ("config.ron", "the config the run used"),
        ("generations.csv", "the per-evaluation table"),
        ("genomes.csv", "every rated genome of every generation, with its games"),
        ("best.ron", "the champion"),
        ("holdout.csv", "the last champion on the holdout maps"),
        (
            crate::evolve::verdict::VERDICT_CSV,
            "the verdict: the champion at the submission's time control (also verdict.ron)",
        ),
        (
            crate::evolve::FAULTS_CSV,
            "each judge's games and faults per evaluation period",
        ),
        ("checkpoint.ron", "what --resume and this report read"),
        ("run.log", "the run's log"),
        ("fitness.png", "the run's own fitness plot (also .svg)"),
    ] {
        let _ = writeln!(b, "<li><a href=\"{file}\">{file}</a>: {what}</li>");
    }
    for p in [
        &plots.fitness,
        &plots.holdout,
        &plots.judges,
        &plots.weights,
        &plots.effort,
    ] {
        let _ = writeln!(
            b,
            "<li><a href=\"{s}.png\">{s}.png</a>, <a href=\"{s}.svg\">{s}.svg</a></li>",
            s = esc(&p.stem)
        );
    }
    let _ = writeln!(
        b,
        "</ul>\n<p class=\"note\">Rebuild this page with <code>gridtune report {}</code>.</p>\n</section>",
        esc(&run.label)
    );
    page(&title, &b)
}

/// A distributed run's workers and their share of the games (workers.csv);
/// nothing for a run on one machine.
fn workers_section(b: &mut String, run: &RunData) {
    if run.workers.is_empty() {
        return;
    }
    let total: u64 = run.workers.iter().map(|w| w.games).sum();
    b.push_str(
        "<section id=\"workers\">\n<h2>Workers</h2>\n<table id=\"workers-table\">\n\
         <tr><th class=\"l\">worker</th><th>batches</th><th>games</th><th>share</th><th>seconds playing</th></tr>\n",
    );
    for w in &run.workers {
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{:.1}%</td><td>{:.1}</td></tr>",
            esc(&w.worker),
            w.batches,
            w.games,
            100.0 * w.games as f64 / total.max(1) as f64,
            w.seconds
        );
    }
    b.push_str(
        "</table>\n<p class=\"note\">The games each worker played for this run (workers.csv), as the \
         coordinator counted their results; the pre-fit and the verdict are played by the coordinator.</p>\n</section>\n",
    );
}

/// The champion head to head at the submission bot's time control, or why
/// there is no verdict.
fn verdict_section(b: &mut String, run: &RunData) {
    b.push_str("<section id=\"verdict\">\n<h2>Verdict at the submission's time control</h2>\n");
    let Some(v) = &run.verdict else {
        let why = if run.config.verdict.games == 0 {
            "The config skips the verdict (<code>verdict: (games: 0)</code>)."
        } else {
            "Not played yet: the run plays it once its champion is confirmed."
        };
        let _ = writeln!(b, "<p class=\"note\">{why}</p>\n</section>");
        return;
    };
    b.push_str(
        "<table id=\"verdict-table\">\n<tr><th class=\"l\">opponent</th><th class=\"l\">genome</th><th>games</th>\
         <th>W</th><th>D</th><th>L</th><th>Elo</th><th>95%</th><th>SPRT</th><th>LLR</th></tr>\n",
    );
    for m in &v.matches {
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td><b>{:+.1}</b></td><td>{:+.1} to {:+.1}</td><td>[{}, {}] {}</td><td>{:.2}</td></tr>",
            esc(&m.opponent),
            esc(&m.genome),
            m.games,
            m.wins,
            m.draws,
            m.losses,
            m.elo,
            m.elo_lo,
            m.elo_hi,
            m.sprt.0,
            m.sprt.1,
            esc(&m.status),
            m.llr
        );
    }
    let _ = writeln!(
        b,
        "</table>\n<p class=\"note\">The champion (best.ron) against each genome at {} ms a move, the submission \
         bot's budget, on {} maps generated from the run's seed, each from both sides, under an SPRT of logistic \
         Elo stopped at {} games. Elo from the game pairs, with its 95% interval. For the full verdict: \
         <code>gridtune match --bot genome:best.ron --bot genome:GENOME --fresh-maps --ms {} --sprt 0,10</code>.</p>\n</section>",
        v.ms_per_move,
        v.maps,
        run.config.verdict.games,
        v.ms_per_move
    );
}

/// The judges' faults over the whole run: a program judge that timed out,
/// crashed or answered wrongly lost those games, so the genomes' rates
/// against it are inflated by as much.
fn judge_faults(b: &mut String, run: &RunData) {
    let mut totals = vec![crate::evolve::faults::JudgeFaults::default(); run.config.judges.len()];
    for r in &run.rows {
        for (t, f) in totals.iter_mut().zip(&r.judge_faults) {
            t.add(f);
        }
    }
    let faulted: u64 = totals.iter().map(|t| t.faulted()).sum();
    b.push_str("<section id=\"faults\">\n<h2>Judge faults</h2>\n");
    if faulted == 0 {
        b.push_str(
            "<p class=\"note\" id=\"faults-none\">No judge failed a turn: every game was played to its end \
             by the rules.</p>\n</section>\n",
        );
        return;
    }
    let _ = writeln!(
        b,
        "<p class=\"warning\" id=\"faults-warning\"><b>{faulted} game{} ended with a judge's fault.</b> \
         The judge lost each of them, so the rates against it are higher than its play earned.</p>",
        if faulted == 1 { "" } else { "s" }
    );
    b.push_str(
        "<table id=\"faults-table\">\n<tr><th class=\"l\">judge</th><th>games</th><th>faulted</th><th>share</th>\
         <th>timeouts</th><th>crashes</th><th>invalid lines</th><th>illegal moves</th></tr>\n",
    );
    for ((name, _), t) in run.config.judges.iter().zip(&totals) {
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td>{}</td><td><b>{}</b></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            esc(name),
            t.games,
            t.faulted(),
            if t.games == 0 {
                "-".to_string()
            } else {
                pct(t.faulted() as f64 / t.games as f64)
            },
            t.timeouts,
            t.crashes,
            t.invalid_lines,
            t.illegal_moves
        );
    }
    let _ = writeln!(
        b,
        "</table>\n<p class=\"note\">Over every game of the run, the tuner's and the evaluations'. \
         {} has them per evaluation; run.log names the first fault of each judge in each generation.</p>\n</section>",
        crate::evolve::FAULTS_CSV
    );
}

/// The comparison page.
pub fn compare_page(runs: &[RunData], rows: &[CompareRow], plot: &Plot, csv: &Path) -> String {
    let mut b = String::new();
    let _ = writeln!(b, "<h1>gridtune: {} runs compared</h1>", runs.len());
    b.push_str("<section id=\"compare-table\">\n<table id=\"runs\">\n<tr><th class=\"l\">run</th><th class=\"l\">game</th>\
                <th>seed</th><th>generations</th><th>games</th><th>final train</th><th>final holdout</th><th>time (s)</th></tr>\n");
    for r in rows {
        let _ = writeln!(
            b,
            "<tr><td class=\"l\">{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td>\
             <td>{}</td><td>{:.1}</td></tr>",
            esc(&r.label),
            esc(&r.game),
            r.seed,
            r.generations,
            r.games,
            r.final_train,
            opt(r.final_holdout, 1),
            r.seconds
        );
    }
    let csv_name = csv
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let _ = writeln!(
        b,
        "</table>\n<p class=\"note\">The same table: <a href=\"{0}\">{0}</a>. Run folders: {1}.</p>\n</section>",
        esc(&csv_name),
        runs.iter()
            .map(|r| format!("<code>{}</code>", esc(&r.dir.display().to_string())))
            .collect::<Vec<_>>()
            .join(", ")
    );
    b.push_str("<section id=\"compare-fitness\">\n<h2>The champion over generations</h2>\n");
    b.push_str(&figure(
        plot,
        "Each run in its own colour: its champion's contest score against the judges on the train maps \
         (solid) and on the holdout maps (dashed).",
    ));
    b.push_str("</section>\n");
    page(&format!("gridtune: {} runs compared", runs.len()), &b)
}
