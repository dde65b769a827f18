//! gammon-bot: the backgammon bot: evaluators, nets, the bear-off database, search, cube
//! decisions and the built-in rollout policies.
//!
//! Modules: [`pubeval`] (Tesauro's linear evaluator), [`net`] (the neural-net evaluator, its
//! inputs and the play screen), [`bearoff`] (the exact bear-off databases: one-sided, and
//! two-sided with cubeful money equities), [`search`] (the bot: 0, 1 and 2-ply play on the net),
//! [`cube`] (double, take and beaver for money and match play), [`policy`] (the built-in
//! policies by name), [`rollout`] (rollouts of backgammon positions) and [`duel`] (policies
//! against each other in money games).
//!
//! ```
//! use gammon_backgammon::{Dice, Position};
//! use gammon_bot::search::Bot;
//! let bot = Bot::new(0).unwrap();
//! let best = bot.best_play(&Position::initial(), Dice::new(3, 1).unwrap(), None).unwrap();
//! assert_eq!(best.play.to_string(), "8/5 6/5");
//! ```

pub mod bearoff;
pub mod cube;
pub mod duel;
pub mod net;
pub mod policy;
pub mod pubeval;
mod pubeval_weights;
pub mod rollout;
pub mod search;

pub use gammon_core::policy::{best_play, value_after, Evaluator, EvaluatorPolicy, Policy, RandomPolicy};
pub use gammon_core::Probabilities;
pub use policy::{BuiltinPolicy, NetPolicy, KEEP, WIDE_KEEP, WIDE_SCREEN};
pub use pubeval::PubevalPolicy;
