//! The games registry: `games! { module: Type, ... }` in `games/mod.rs`,
//! one line per game, declares each game's module and generates everything
//! that lists the games, so that adding a game is its folder and one line.

/// A registered game's submission-path sources: its module, its type, and
/// its folder's standard-library-only files by module name (`""` is the
/// folder's `mod.rs`).
pub struct GameSources {
    pub module: &'static str,
    pub game: &'static str,
    pub files: &'static [(&'static str, &'static str)],
}

/// Something done with a game known only by name at run time (see the
/// registry's `visit`).
pub trait GameVisitor {
    type Output;
    fn visit<G: super::GameKit>(self) -> Self::Output;
}

/// `pub const SUBMISSION_FILES` for a game folder's `mod.rs`: the folder's
/// `mod.rs` and the named files beside it, embedded for bundles.
#[macro_export]
macro_rules! submission_files {
    ($($file:ident),* $(,)?) => {
        /// This folder's standard-library-only sources, which a bundle may
        /// contain (`mod.rs` itself gives only its module lines and re-exports).
        pub const SUBMISSION_FILES: &[(&str, &str)] = &[
            ("", include_str!("mod.rs")),
            $((stringify!($file), include_str!(concat!(stringify!($file), ".rs")))),*
        ];
    };
}

/// Declares the games. For each `module: Type` it declares `pub mod module;`
/// and implements [`super::Tuning`] for `module::Type` from the folder's
/// files; it also generates the list of names, the CLI's dispatch macro
/// (`with_game!`), the tests' per-game macro (`for_each_game!`) and the
/// sources a bundle is made of.
macro_rules! games {
    ($($(#[$attr:meta])* $module:ident : $game:ident),* $(,)?) => {
        games!(@with ($) $($(#[$attr])* $module : $game),*);
    };
    (@with ($d:tt) $($(#[$attr:meta])* $module:ident : $game:ident),*) => {
        $(
            $(#[$attr])*
            pub mod $module;

            $(#[$attr])*
            impl $crate::games::kit::Tuning for $module::$game {
                const JUDGES: &'static [&'static str] = $module::judges::JUDGES;
                const ENGINE_NODES: u64 = $module::judges::ENGINE_NODES;
                const PARAMS: &'static [$crate::params::ParamSpec] = $module::features::PARAMS;
                const SCALE_ANCHOR: usize = $module::SCALE_ANCHOR;
                const TUNED_PATH: &'static str = concat!("src/games/", stringify!($module), "/tuned.rs");
                const FROZEN: &'static [i32] = &$module::tuned::WEIGHTS;
                const MOVE_BUDGET_MS: u64 = $module::tuned::MOVE_BUDGET_MS;
                const DEFAULT_CONFIG: &'static str = $module::DEFAULT_CONFIG;
                type Evaluation = $crate::search::Linear<{ $module::features::COUNT }>;

                fn judge(name: &str, seed: u64) -> Option<Box<dyn $crate::game::Bot<Self>>> {
                    if name == $crate::games::kit::ENGINE_JUDGE {
                        let limits = $crate::search::Limits::nodes(Self::ENGINE_NODES);
                        return Some($module::genome_bot(&$module::features::DEFAULTS, limits));
                    }
                    $module::judges::judge(name, seed)
                }

                fn genome_bot(weights: &[i32], limits: $crate::search::Limits) -> Box<dyn $crate::game::Bot<Self>> {
                    $module::genome_bot(weights, limits)
                }

                fn evaluation(weights: &[i32]) -> Self::Evaluation {
                    $crate::search::Linear($crate::bots::genome_weights(weights))
                }

                fn features(state: &Self, me: $crate::game::Player) -> Vec<i32> {
                    $crate::search::Features::<{ $module::features::COUNT }>::features(state, me).to_vec()
                }

                fn submission_limits() -> $crate::search::Limits {
                    $module::bot::search_limits($module::tuned::MOVE_BUDGET_MS)
                }
            }
        )*

        /// Each registered game's submission-path sources, for bundles.
        pub const SOURCES: &[$crate::games::registry::GameSources] = &[$(
            $(#[$attr])*
            $crate::games::registry::GameSources {
                module: stringify!($module),
                game: stringify!($game),
                files: $module::SUBMISSION_FILES,
            }
        ),*];

        /// The registered games' names, as `--game` spells them.
        pub const NAMES: &[&str] = &[$($(#[$attr])* stringify!($module)),*];

        /// Calls `visitor` with the game named `name`, or returns `None`
        /// for a name no game has: the library's dispatch by name (a
        /// worker reads the game of each batch).
        pub fn visit<V: $crate::games::registry::GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
            match name {
                $(
                    $(#[$attr])*
                    n if n == stringify!($module) => Some(visitor.visit::<$module::$game>()),
                )*
                _ => None,
            }
        }

        /// Runs `$body` with `$G` bound to the game type named by `$name`
        /// (a `String`); an unknown name returns a bad-input error.
        #[macro_export]
        macro_rules! with_game {
            ($d name:expr, $d G:ident => $d body:expr) => {
                match $d name.as_str() {
                    $(
                        $(#[$attr])*
                        name if name == stringify!($module) => {
                            type $d G = $crate::games::$module::$game;
                            $d body
                        }
                    )*
                    other => $crate::bail_input!(
                        "unknown game `{other}`; games: {}",
                        $crate::games::NAMES.join(", ")
                    ),
                }
            };
        }

        /// Invokes `$m!(module, Type)` once per registered game, where
        /// `Type` is the game's full path: the generic tests' instances.
        #[macro_export]
        macro_rules! for_each_game {
            ($d m:ident) => {
                $(
                    $(#[$attr])*
                    $d m!($module, $crate::games::$module::$game);
                )*
            };
        }
    };
}
