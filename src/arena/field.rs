//! A match against the field: in a game of more than two seats, the contest
//! ranks a bot by what it holds against everyone at its tables (Slime: its
//! squares), which a head-to-head table of the two bots does not measure. So
//! each of the two bots plays the same table in turn: the same seat, beside
//! the same fillers, on the same map with the same seed (common random
//! numbers, as the evolve loop compares twins at a judge table), and the
//! twin games score 1 for the bot that ended with more points, ½ for as many.
//! Two twin pairs, on two seats of one map, make one pentanomial unit, so
//! the match's Elo, interval and SPRT are read as a head-to-head's are.

use super::{FieldTable, Pairing};
use crate::bots::BotSpec;
use crate::game::{mix64, Player};
use crate::games::GameKit;

/// The fillers a field match draws its tables from.
#[derive(Clone, Debug)]
pub struct FieldPlan {
    /// Every way to pick a table's other seats from the fillers, each in
    /// list order.
    pub combinations: Vec<Vec<usize>>,
}

impl FieldPlan {
    /// Tables of `players` seats with their other seats from `fillers` bots;
    /// `None` if there are too few to fill one.
    pub fn new(fillers: usize, players: usize) -> Option<FieldPlan> {
        let others = players.checked_sub(1).filter(|&o| o > 0 && o <= fillers)?;
        Some(FieldPlan {
            combinations: super::combinations(fillers, others),
        })
    }

    /// `twins` twin pairs of games, two to a map: each pair seats the first
    /// bot, then the second, in one seat beside one combination of fillers.
    /// Seats cycle fastest, so every `players / 2` maps cover each seat
    /// once, then the fillers change; every twin pair has a seed of its own.
    pub fn schedule(&self, maps: usize, twins: usize, players: usize, seed: u64) -> Vec<Pairing> {
        let combos = self.combinations.len().max(1);
        (0..twins)
            .flat_map(|twin| {
                let seat = (twin % players) as Player;
                let fillers = (twin / players) % combos;
                let seed = mix64(seed ^ mix64(twin as u64 + 1));
                [0, 1].map(|bot| Pairing {
                    map: (twin / 2) % maps.max(1),
                    first_seat: seat,
                    seed,
                    field: Some(FieldTable { bot, fillers }),
                })
            })
            .collect()
    }

    /// The game's judges as the fillers of a field match: the field a bot
    /// is ranked against when nothing names one. `None` in a two-seat game,
    /// or with too few judges to fill a table.
    pub fn of_judges<G: GameKit>() -> Option<(Vec<BotSpec>, FieldPlan)> {
        if G::PLAYERS <= 2 {
            return None;
        }
        let plan = FieldPlan::new(G::JUDGES.len(), G::PLAYERS)?;
        let judges = G::JUDGES.iter().map(|j| BotSpec::Judge(j.to_string())).collect();
        Some((judges, plan))
    }

    /// The seats of the field game at `table` with its sitting bot in
    /// `seat`: the fillers of its combination in the other seats, in list
    /// order.
    pub fn seats<'a>(
        &self,
        table: FieldTable,
        seat: Player,
        a: &'a BotSpec,
        b: &'a BotSpec,
        fillers: &'a [BotSpec],
    ) -> Vec<&'a BotSpec> {
        let sitting = if table.bot == 0 { a } else { b };
        let mut seats: Vec<&BotSpec> = self.combinations[table.fillers].iter().map(|&i| &fillers[i]).collect();
        seats.insert(seat.min(seats.len()), sitting);
        seats
    }
}

/// A match's `games` games on `maps` maps from `seed`: twin games at the
/// tables of `field`, or, head to head, pairs that swap sides.
pub fn match_schedule(field: Option<&FieldPlan>, maps: usize, games: usize, players: usize, seed: u64) -> Vec<Pairing> {
    match field {
        Some(field) => field.schedule(maps, games / 2, players, seed),
        None => super::paired_schedule(maps, games / 2, seed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twins_share_map_seat_seed_and_fillers_and_every_seat_meets_every_combination() {
        let plan = FieldPlan::new(5, 4).unwrap();
        assert_eq!(plan.combinations.len(), 10);
        let twins = 4 * 10;
        let schedule = plan.schedule(3, twins, 4, 7);
        assert_eq!(schedule.len(), 2 * twins);
        let mut met = std::collections::BTreeSet::new();
        for pair in schedule.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let (ta, tb) = (a.field.unwrap(), b.field.unwrap());
            assert_eq!((ta.bot, tb.bot), (0, 1));
            assert_eq!(
                (a.map, a.first_seat, a.seed, ta.fillers),
                (b.map, b.first_seat, b.seed, tb.fillers)
            );
            met.insert((a.first_seat, ta.fillers));
        }
        assert_eq!(met.len(), 4 * 10, "every seat beside every combination");
        // A unit's two twin pairs share a map and take two seats.
        for unit in schedule.chunks(4) {
            assert_eq!(unit[0].map, unit[2].map);
            assert_ne!(unit[0].first_seat, unit[2].first_seat);
        }
        let seeds: std::collections::BTreeSet<u64> = schedule.iter().map(|p| p.seed).collect();
        assert_eq!(seeds.len(), twins);
    }

    #[test]
    fn a_field_game_seats_one_bot_among_its_fillers() {
        let plan = FieldPlan::new(4, 4).unwrap();
        let a = BotSpec::Judge("a".into());
        let b = BotSpec::Judge("b".into());
        let fillers: Vec<BotSpec> = ["f0", "f1", "f2", "f3"].map(|f| BotSpec::Judge(f.into())).to_vec();
        let schedule = plan.schedule(1, 16, 4, 1);
        for p in &schedule {
            let seats = plan.seats(p.field.unwrap(), p.first_seat, &a, &b, &fillers);
            let sitting = if p.field.unwrap().bot == 0 { &a } else { &b };
            assert_eq!(seats[p.first_seat], sitting);
            let labels: Vec<String> = seats.iter().map(|s| s.label()).collect();
            assert_eq!(
                labels.iter().filter(|l| *l == "judge:a" || *l == "judge:b").count(),
                1,
                "{labels:?}"
            );
            let mut others: Vec<&String> = labels.iter().filter(|l| l.starts_with("judge:f")).collect();
            others.dedup();
            assert_eq!(others.len(), 3, "{labels:?}");
        }
    }

    #[test]
    fn too_few_fillers_make_no_field() {
        assert!(FieldPlan::new(2, 4).is_none());
        assert!(FieldPlan::new(3, 4).is_some());
        assert!(FieldPlan::new(5, 1).is_none());
    }
}
