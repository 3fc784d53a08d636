//! cargo fuzz target: EvolveConfig::parse for each game, with the property tests' property (no
//! panic; a value that round-trips, or an error naming the place).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/props/mod.rs"]
mod props;

fuzz_target!(|data: &[u8]| {
    props::fuzz_one("config_", data);
});
