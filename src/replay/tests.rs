use super::*;
use crate::arena::{generated_maps, play_seated};
use crate::bots::BotSpec;
use crate::games::isolation::Isolation;

#[test]
fn a_replay_folder_names_games_by_place_and_writes_what_show_reads() {
    let dir = std::env::temp_dir().join(format!("gridtune-replays-{}", std::process::id()));
    let folder = ReplayFolder::create(&dir.join("nested")).expect("folder created");
    let map = NamedMap {
        name: "generated00001".to_string(),
        map: generated_maps::<Isolation>(1, 5).remove(0),
    };
    let a = BotSpec::Judge("random_safe".into());
    let b = BotSpec::Judge("mobility".into());
    let record = play_seated::<Isolation>(&map.map, &[&a, &b], 9, true);
    let labels = [a.label(), b.label()];
    folder
        .write::<Isolation>(2, &map, &labels, 9, &record)
        .expect("written");
    let path = dir.join("nested").join("game00003.txt");
    assert_eq!(folder.path(2), path);
    let text = std::fs::read_to_string(&path).expect("replay file");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(text, render::<Isolation>(&map.name, &map.map, &labels, 9, &record));
    let replay = parse(&text, "game00003.txt").expect("parses");
    assert_eq!(replay.seats, labels);
    assert_eq!(replay.seed, 9);
    assert_eq!(replay.map_name, "generated00001");
    show::<Isolation>(&replay, "game00003.txt").expect("agrees with the rules");
}

#[test]
fn a_replay_that_cannot_be_written_names_its_file() {
    let dir = std::env::temp_dir().join(format!("gridtune-replays-blocked-{}", std::process::id()));
    let folder = ReplayFolder::create(&dir).expect("folder created");
    // A folder where the file should go: the write must fail.
    std::fs::create_dir_all(folder.path(0)).expect("blocking folder");
    let map = NamedMap {
        name: "m".to_string(),
        map: generated_maps::<Isolation>(1, 1).remove(0),
    };
    let judge = BotSpec::Judge("random_safe".into());
    let record = play_seated::<Isolation>(&map.map, &[&judge, &judge], 1, true);
    let labels = [judge.label(), judge.label()];
    let e = folder
        .write::<Isolation>(0, &map, &labels, 1, &record)
        .expect_err("blocked");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        format!("{e:#}").starts_with(&format!("cannot write {}: ", folder.path(0).display())),
        "{e:#}"
    );
}
