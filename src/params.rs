//! Tunable evaluation weights, each declared once (name, default, min, max,
//! step). The declaration drives mutation bounds, genome files and the
//! constants `freeze` generates. Standard library only.

/// One tunable weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// Values are multiples of `step` away from `min`; mutation moves in steps.
    pub step: i32,
}

impl ParamSpec {
    /// Clamps into `[min, max]` and rounds to the step grid.
    pub fn snap(&self, value: f64) -> i32 {
        let steps = ((value - self.min as f64) / self.step as f64).round();
        let max_steps = ((self.max - self.min) / self.step) as f64;
        self.min + steps.clamp(0.0, max_steps) as i32 * self.step
    }

    pub fn contains(&self, value: i32) -> bool {
        (self.min..=self.max).contains(&value) && (value - self.min) % self.step == 0
    }
}

/// Declares a game's weights once: an index constant per weight, `PARAMS`
/// (the specs in index order), `COUNT`, `Weights` and `DEFAULTS`.
#[macro_export]
macro_rules! declare_params {
    ($( $(#[$doc:meta])* $index:ident = ($name:literal, $default:expr, $min:expr, $max:expr, $step:expr); )*) => {
        $crate::declare_params!(@index 0usize; $( $(#[$doc])* $index, )*);
        /// Every weight's declaration, in index order.
        pub const PARAMS: &[$crate::params::ParamSpec] = &[
            $( $crate::params::ParamSpec { name: $name, default: $default, min: $min, max: $max, step: $step }, )*
        ];
        /// Number of weights.
        pub const COUNT: usize = PARAMS.len();
        /// One value per weight, in index order.
        pub type Weights = [i32; COUNT];
        /// The declared defaults.
        pub const DEFAULTS: Weights = [ $( $default, )* ];
    };
    (@index $n:expr; $(#[$doc:meta])* $index:ident, $($rest:tt)*) => {
        $(#[$doc])*
        pub const $index: usize = $n;
        $crate::declare_params!(@index $n + 1usize; $($rest)*);
    };
    (@index $n:expr; ) => {};
}
