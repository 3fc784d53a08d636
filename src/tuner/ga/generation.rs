//! One generation of the GA, in the order it runs: breed each island's
//! twins, schedule who plays whom, race the twin pairs, rate every player in
//! one fit, and update the islands, the hall of fame and the tail average.

use super::breed::{blend_crossover, jittered, mirrored_twins, tournament, uniform_crossover, Mutation, Twins};
use super::config::GaConfig;
use super::rated::{Rated, Role};
use super::roster::{Fixture, Roster};
use super::select::{migrate, select_and_update, Island, Seats};
use super::{Ga, GenerationLog, IslandLog, RNG_STREAM};
use crate::tuner::rating::Ratings;
use crate::tuner::{derive_seed, Oracle, Space};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Who sits where in a generation: every player's seat in the roster, with
/// its role.
struct Seating {
    roster: Roster,
    /// Each seat's role, in seat order.
    roles: Vec<Role>,
    reference: usize,
    hall: Vec<usize>,
    islands: Vec<Seats>,
    fixed: Vec<usize>,
}

impl Seating {
    fn seat(&mut self, x: Vec<f64>, role: Role) -> usize {
        self.roles.push(role);
        self.roster.add(x)
    }

    fn seat_fixed(&mut self, k: usize) -> usize {
        self.roles.push(Role::Fixed(k));
        self.roster.add_fixed(k)
    }

    /// Every player with its rating in the generation's fit, in seat order.
    fn rated(&self, ratings: &Ratings) -> Vec<Rated> {
        self.roles
            .iter()
            .enumerate()
            .map(|(seat, &role)| Rated {
                role,
                x: self.roster.points[seat].clone(),
                elo: ratings.elo[seat],
                se: ratings.se(seat),
                pairs: ratings.pairs[seat],
            })
            .collect()
    }
}

impl<'a> Ga<'a> {
    /// Plays and learns from one generation.
    pub fn step<O: Oracle + ?Sized>(&mut self, oracle: &O) -> (GenerationLog, Vec<Rated>) {
        let generation = self.state.generation;
        let progress = self.state.spent as f64 / self.evolve_budget as f64;
        let twins = self.breed(progress);
        let (mut seating, anchors) = self.schedule(&twins);
        let open_after_round = self.race(oracle, &mut seating, anchors);
        let ratings = self.rate(&seating);
        let islands = self.update(progress, &twins, &seating, &ratings, open_after_round);
        let log = GenerationLog {
            generation,
            games: seating.roster.games,
            total_games: self.state.spent,
            islands,
        };
        (log, seating.rated(&ratings))
    }

    /// Each island's twins, drawn from the generation's own random stream
    /// (derived from the run's seed and the generation's number, so a
    /// resumed run breeds as an unbroken one).
    fn breed(&self, progress: f64) -> Vec<Vec<Twins>> {
        let cfg = self.cfg;
        let generation = self.state.generation as u64;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(derive_seed(derive_seed(self.seed, RNG_STREAM), generation));
        let mutation = Mutation {
            tau: self.tau,
            sigma_min: cfg.sigma_min,
            sigma_max: cfg.sigma_max,
            min_room: cfg.min_room,
            clip: progress < cfg.clip_until,
        };
        self.state
            .islands
            .iter()
            .map(|isl| island_offspring(isl, cfg, &mutation, self.space, &mut rng))
            .collect()
    }

    /// Seats the generation's players and lists the first round's anchor
    /// games: each island mean against the reference, a hall-of-fame member
    /// and the fixed opponents, and the re-evaluated elites against their
    /// mean. A genome never plays its own copy (a mean still at the start,
    /// say): there is nothing to learn.
    fn schedule(&self, twins: &[Vec<Twins>]) -> (Seating, Vec<Fixture>) {
        let cfg = self.cfg;
        let state = &self.state;
        let mut s = Seating {
            roster: Roster::default(),
            roles: Vec::new(),
            reference: 0,
            hall: Vec::new(),
            islands: Vec::new(),
            fixed: Vec::new(),
        };
        s.reference = s.seat(state.reference.clone(), Role::Reference);
        for (k, (x, _)) in state.hall.iter().enumerate() {
            let seat = s.seat(x.clone(), Role::Hall(k));
            s.hall.push(seat);
        }
        for (i, (isl, tw)) in state.islands.iter().zip(twins).enumerate() {
            let mean = s.seat(isl.mean.clone(), Role::Mean(i));
            let elites = isl.elites.iter().map(|e| s.seat(e.x.clone(), Role::Elite(i))).collect();
            let twins = tw
                .iter()
                .map(|t| {
                    (
                        s.seat(t.plus.clone(), Role::Offspring(i)),
                        s.seat(t.minus.clone(), Role::Offspring(i)),
                    )
                })
                .collect();
            s.islands.push(Seats { mean, elites, twins });
        }
        for k in 0..self.fixed {
            let seat = s.seat_fixed(k);
            s.fixed.push(seat);
        }

        let mut fixtures = Vec::new();
        for (i, seats) in s.islands.iter().enumerate() {
            let mut anchors = vec![(seats.mean, s.reference, 1)];
            if !s.hall.is_empty() {
                anchors.push((seats.mean, s.hall[(state.generation + i) % s.hall.len()], 1));
            }
            anchors.extend(s.fixed.iter().map(|&f| (seats.mean, f, cfg.fixed_pairs)));
            anchors.extend(seats.elites.iter().map(|&e| (e, seats.mean, 1)));
            for (a, b, pairs) in anchors {
                if pairs > 0 && (s.roster.is_fixed(b) || s.roster.points[a] != s.roster.points[b]) {
                    fixtures.push(Fixture { a, b, pairs });
                }
            }
        }
        (s, fixtures)
    }

    /// Plays the rounds, all under the round's seed: the anchors and every
    /// twin pair first, then only the twin pairs whose winner is still open,
    /// up to `max_rounds`. Returns, per island, the pairs still open after
    /// each round but the last.
    fn race<O: Oracle + ?Sized>(&self, oracle: &O, seating: &mut Seating, anchors: Vec<Fixture>) -> Vec<Vec<usize>> {
        let cfg = self.cfg;
        let gen_seed = derive_seed(self.seed, self.state.generation as u64);
        let (seats, roster) = (&seating.islands, &mut seating.roster);
        let mut fixtures = anchors;
        let mut open: Vec<Vec<bool>> = seats.iter().map(|s| vec![true; s.twins.len()]).collect();
        let mut open_log: Vec<Vec<usize>> = vec![Vec::new(); seats.len()];
        for round in 0..cfg.max_rounds {
            for (s, o) in seats.iter().zip(&open) {
                for (&(a, b), _) in s.twins.iter().zip(o).filter(|(_, &o)| o) {
                    fixtures.push(Fixture {
                        a,
                        b,
                        pairs: cfg.pairs_per_round,
                    });
                }
            }
            if fixtures.is_empty() {
                break;
            }
            roster.play_round(oracle, &fixtures, derive_seed(gen_seed, round as u64), cfg.parallel);
            fixtures.clear();
            if round + 1 == cfg.max_rounds {
                break;
            }
            // A twin pair's result depends on its own games alone (the fit's
            // graph is a tree there), so racing needs no fit of the round.
            let all: Vec<(usize, usize)> = seats.iter().flat_map(|s| s.twins.iter().copied()).collect();
            let var = roster.pooled_pair_variance(&all);
            for (i, s) in seats.iter().enumerate() {
                for (j, &(a, b)) in s.twins.iter().enumerate() {
                    let (score, pairs) = roster.head_to_head(a, b);
                    if ((score - 0.5) / (var / pairs as f64).sqrt()).abs() >= cfg.race_z {
                        open[i][j] = false;
                    }
                }
                open_log[i].push(open[i].iter().filter(|&&o| o).count());
            }
        }
        open_log
    }

    /// One Bradley-Terry fit over every game of the generation, in Elo
    /// against the reference; the games count as spent.
    fn rate(&mut self, seating: &Seating) -> Ratings {
        let ratings = seating.roster.fit(seating.reference);
        self.state.spent += seating.roster.games;
        ratings
    }

    /// Learns from the ratings: each island's selection, step and mean (or
    /// its surrogate's step), the hall of fame, migration and the tail
    /// average; then the generation is finished.
    fn update(
        &mut self,
        progress: f64,
        twins: &[Vec<Twins>],
        seating: &Seating,
        ratings: &Ratings,
        open_after_round: Vec<Vec<usize>>,
    ) -> Vec<IslandLog> {
        let cfg = self.cfg;
        let generation = self.state.generation;
        self.tuning.schedule = ((1.0 + cfg.gain_a_ratio) / (progress + cfg.gain_a_ratio)).powf(cfg.gain_alpha);
        let logs = self.update_islands(twins, seating, ratings, open_after_round);
        self.update_hall(seating, ratings);
        if cfg.islands > 1 && generation > 0 && generation.is_multiple_of(cfg.migration_interval.max(1)) {
            migrate(&mut self.state.islands, &seating.islands, ratings, cfg.confirm_z);
        }
        if self.state.spent > self.average_after {
            let w = seating.roster.games as f64;
            for isl in &self.state.islands {
                let tail = self.state.tail_sum.iter_mut();
                tail.zip(&isl.mean).for_each(|(acc, v)| *acc += w * v);
                self.state.tail_weight += w;
            }
        }
        self.state.generation += 1;
        logs
    }

    /// Each island's selection and new mean, and what it did.
    fn update_islands(
        &mut self,
        twins: &[Vec<Twins>],
        seating: &Seating,
        ratings: &Ratings,
        open_after_round: Vec<Vec<usize>>,
    ) -> Vec<IslandLog> {
        let (cfg, space) = (self.cfg, self.space);
        let islands = self.state.islands.iter_mut().zip(twins).zip(&seating.islands);
        islands
            .zip(open_after_round)
            .map(|(((isl, twins), s), open_after_round)| {
                let update = select_and_update(isl, twins, s, ratings, &self.tuning, space);
                if cfg.surrogate {
                    isl.surrogate.fade(cfg.surrogate_memory);
                    for (t, &(a, b)) in twins.iter().zip(&s.twins) {
                        let (score, pairs) = seating.roster.head_to_head(a, b);
                        isl.surrogate.add(&t.plus, &t.minus, score, pairs, space);
                    }
                    let from = design_centre(twins).unwrap_or_else(|| isl.mean.clone());
                    if let Some(x) = isl.surrogate.step_from(Some(&from), cfg.surrogate_z, space) {
                        isl.mean = x;
                    }
                }
                IslandLog {
                    mean: isl.mean.clone(),
                    sigma: isl.sigma,
                    eta: update.eta,
                    mean_elo: ratings.elo[s.mean],
                    mean_elo_se: ratings.se(s.mean),
                    signal: update.signal,
                    offspring_loss: update.offspring_loss,
                    open_after_round,
                    offspring_pairs: s
                        .twins
                        .iter()
                        .map(|&(a, _)| ratings.pairs[a])
                        .chain(s.twins.iter().map(|&(_, b)| ratings.pairs[b]))
                        .collect(),
                }
            })
            .collect()
    }

    /// Hall members keep the rating of the last generation they played in;
    /// at intervals the island means, as rated now, enter, and the
    /// lowest-rated members leave a full hall.
    fn update_hall(&mut self, seating: &Seating, ratings: &Ratings) {
        let cfg = self.cfg;
        let generation = self.state.generation;
        let hall = &mut self.state.hall;
        for (k, &seat) in seating.hall.iter().enumerate() {
            if ratings.pairs[seat] > 0 {
                hall[k].1 = ratings.elo[seat];
            }
        }
        if cfg.hall_of_fame > 0 && generation > 0 && generation.is_multiple_of(cfg.hall_of_fame_interval.max(1)) {
            hall.extend(
                seating
                    .islands
                    .iter()
                    .map(|s| (seating.roster.points[s.mean].clone(), ratings.elo[s.mean])),
            );
            while hall.len() > cfg.hall_of_fame {
                let worst = (0..hall.len())
                    .min_by(|&a, &b| hall[a].1.total_cmp(&hall[b].1))
                    .expect("a full hall");
                hall.remove(worst);
            }
        }
    }
}

/// The average midpoint of an island's twins: where this generation's
/// results pin the slope. The surrogate steps from there, not from the
/// mean: twins clipped at a bound are mirrored about a point inside it, and
/// a step from a mean on the bound would take the fit's slope there, an
/// extrapolation through a curvature that is still noise.
fn design_centre(twins: &[Twins]) -> Option<Vec<f64>> {
    let k = twins.len() as f64;
    let dim = twins.first()?.plus.len();
    Some(
        (0..dim)
            .map(|d| twins.iter().map(|t| 0.5 * (t.plus[d] + t.minus[d])).sum::<f64>() / k)
            .collect(),
    )
}

/// Tries to breed a twin pair unlike the others before giving up on it.
const BREED_ATTEMPTS: usize = 8;

/// The offspring of one island: a base per pair, then mirrored twins. A pair
/// identical to another (steps at the bound of their range and clipped
/// moves make that common with few parameters) would replay the same games
/// under the round's seed and count them twice, so it is bred again, or left
/// out.
fn island_offspring(
    isl: &Island,
    cfg: &GaConfig,
    m: &Mutation,
    space: &Space,
    rng: &mut Xoshiro256PlusPlus,
) -> Vec<Twins> {
    let mut out: Vec<Twins> = Vec::with_capacity(cfg.twin_pairs);
    for _ in 0..cfg.twin_pairs {
        for _ in 0..BREED_ATTEMPTS {
            let (base, sigma) = if !isl.parents.is_empty() && rng.random::<f64>() < cfg.crossover_rate {
                let parent = tournament(&isl.parents, rng);
                let base = if rng.random::<f64>() < cfg.uniform_share {
                    uniform_crossover(&isl.mean, &parent.x, rng)
                } else {
                    blend_crossover(&isl.mean, &parent.x, cfg.blend_alpha, space, rng)
                };
                (base, (isl.sigma * parent.sigma).sqrt())
            } else {
                (
                    jittered(&isl.mean, cfg.base_jitter() * isl.sigma, space, rng),
                    isl.sigma,
                )
            };
            let t = mirrored_twins(base, sigma, m, space, rng);
            let same = |o: &Twins| (o.plus == t.plus && o.minus == t.minus) || (o.plus == t.minus && o.minus == t.plus);
            if t.plus != t.minus && !out.iter().any(same) {
                out.push(t);
                break;
            }
        }
    }
    out
}
