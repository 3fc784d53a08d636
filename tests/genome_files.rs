//! The genome files the project ships: each game's default.ron is the
//! hand-set weights its features.rs declares (the baseline every tuned
//! genome is measured against), and best.ron is a valid genome.

use gridtune::games::ataxx::Ataxx;
use gridtune::games::isolation::Isolation;
use gridtune::games::lightcycles::LightCycles;
use gridtune::games::prelude::*;
use gridtune::games::slime::Slime;
use gridtune::genome::Genome;
use std::path::Path;

fn check<G: GameKit>() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("genomes").join(G::NAME);
    let default = Genome::load(&dir.join("default.ron"), G::NAME, G::PARAMS).unwrap();
    let declared = Genome::defaults(G::PARAMS);
    for ((p, file), decl) in G::PARAMS.iter().zip(&default.weights).zip(&declared.weights) {
        assert_eq!(
            file,
            decl,
            "{}: default.ron has {} = {file}, features.rs declares {decl}",
            G::NAME,
            p.name
        );
    }
    Genome::load(&dir.join("best.ron"), G::NAME, G::PARAMS).unwrap();
}

#[test]
fn each_games_default_genome_is_its_declared_defaults() {
    check::<Isolation>();
    check::<LightCycles>();
    check::<Slime>();
    check::<Ataxx>();
}
