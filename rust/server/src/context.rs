//! The cube and the score of a request: given in the body, or carried by the position's ID, or
//! neither (cubeless money play).

use crate::error::{ApiError, ApiResult};
use crate::input::ReadPosition;
use gammon_bot::cube::{CubeContext, CubeOwner, Stake};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// Who owns the cube, seen from the player on roll.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum OwnerInput {
    /// In the middle.
    #[default]
    Centred,
    /// The player on roll.
    Us,
    /// The opponent.
    Them,
}

impl From<OwnerInput> for CubeOwner {
    fn from(o: OwnerInput) -> CubeOwner {
        match o {
            OwnerInput::Centred => CubeOwner::Centred,
            OwnerInput::Us => CubeOwner::Us,
            OwnerInput::Them => CubeOwner::Them,
        }
    }
}

impl From<CubeOwner> for OwnerInput {
    fn from(o: CubeOwner) -> OwnerInput {
        match o {
            CubeOwner::Centred => OwnerInput::Centred,
            CubeOwner::Us => OwnerInput::Us,
            CubeOwner::Them => OwnerInput::Them,
        }
    }
}

/// The cube.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CubeInput {
    /// Its value, a power of two. Default 1.
    #[serde(default = "one")]
    #[schema(default = 1, example = 2)]
    pub value: u32,
    /// Its owner. Default centred.
    #[serde(default)]
    pub owner: OwnerInput,
}

fn one() -> u32 {
    1
}

/// A match score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MatchInput {
    /// `[we, they]`: points the player on roll and the opponent still need.
    #[schema(example = json!([3, 5]))]
    pub away: [u32; 2],
    /// This is the Crawford game (nobody may double). With a side 1-away and this false, the
    /// Crawford game is past.
    #[serde(default)]
    pub crawford: bool,
}

/// Money play and its optional rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoneyInput {
    /// Gammons count only once the cube has been turned.
    #[serde(default)]
    pub jacoby: bool,
    /// A doubled player may take and redouble at once.
    #[serde(default)]
    pub beavers: bool,
}

/// The `cube`, `match` and `money` fields of a request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContextFields<'a> {
    /// The cube, if given.
    pub cube: Option<&'a CubeInput>,
    /// The match score, if given.
    pub match_score: Option<&'a MatchInput>,
    /// The money rules, if given.
    pub money: Option<&'a MoneyInput>,
}

impl ContextFields<'_> {
    /// The context these fields describe, each field taking the place of what the position's ID
    /// said about it; `None` when neither the fields nor the ID say anything (cubeless money).
    pub fn resolve(&self, read: &ReadPosition) -> ApiResult<Option<CubeContext>> {
        let from_id = read.game().map(CubeContext::from_game);
        if self.cube.is_none() && self.match_score.is_none() && self.money.is_none() {
            return Ok(from_id);
        }
        let base = from_id.unwrap_or_default();
        let (value, owner) = match self.cube {
            Some(c) => (c.value, c.owner.into()),
            None => (base.value(), base.owner()),
        };
        let stake = match (self.match_score, self.money) {
            (Some(_), Some(_)) => {
                return Err(ApiError::bad_request("match and money: give one of them, not both"));
            }
            (Some(m), None) => Stake::Match { away: m.away, crawford: m.crawford },
            (None, Some(m)) => Stake::Money { jacoby: m.jacoby, beavers: m.beavers },
            (None, None) => base.stake(),
        };
        let context = match stake {
            Stake::Money { jacoby, beavers } => CubeContext::money(value, owner, jacoby, beavers),
            Stake::Match { away, crawford } => CubeContext::match_play(away, value, owner, crawford),
        };
        context.map(Some).map_err(|e| ApiError::bad_request(format!("cube or match: {}", e.message())))
    }
}

/// The context a request was judged in, as sent back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct ContextView {
    /// The cube's value.
    pub value: u32,
    /// Its owner, seen from the player on roll.
    pub owner: OwnerInput,
    /// `[we, they]` points still needed; absent for money play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub away: Option<[u32; 2]>,
    /// The Crawford game.
    pub crawford: bool,
    /// A post-Crawford game.
    pub post_crawford: bool,
    /// The Jacoby rule (money play).
    pub jacoby: bool,
    /// Beavers (money play).
    pub beavers: bool,
}

impl From<&CubeContext> for ContextView {
    fn from(c: &CubeContext) -> ContextView {
        let (away, crawford, jacoby, beavers) = match c.stake() {
            Stake::Match { away, crawford } => (Some(away), crawford, false, false),
            Stake::Money { jacoby, beavers } => (None, false, jacoby, beavers),
        };
        ContextView {
            value: c.value(),
            owner: c.owner().into(),
            away,
            crawford,
            post_crawford: c.is_post_crawford(),
            jacoby,
            beavers,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::PositionInput;

    fn read(text: &str) -> ReadPosition {
        PositionInput::Text(text.into()).read().unwrap()
    }

    #[test]
    fn the_ids_context_is_used_unless_a_field_replaces_it() {
        // A 9-point match at 2-4, the bottom player on roll and owning a 2-cube.
        let game = read("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10");
        let from_id = ContextFields::default().resolve(&game).unwrap().unwrap();
        let expected = CubeContext::from_game(game.game().unwrap());
        assert_eq!(from_id, expected);
        assert_eq!((from_id.value(), from_id.owner()), (2, CubeOwner::Us));
        assert_eq!(from_id.stake(), Stake::Match { away: [7, 5], crawford: false });
        let cube = CubeInput { value: 4, owner: OwnerInput::Them };
        let fields = ContextFields { cube: Some(&cube), ..ContextFields::default() };
        let replaced = fields.resolve(&game).unwrap().unwrap();
        assert_eq!(
            (replaced.value(), replaced.owner(), replaced.stake()),
            (4, CubeOwner::Them, expected.stake())
        );
        assert_eq!(ContextFields::default().resolve(&read("4HPwATDgc/ABMA")).unwrap(), None);
    }

    #[test]
    fn contradictions_are_refused() {
        let plain = read("4HPwATDgc/ABMA");
        let score = MatchInput { away: [3, 5], crawford: false };
        let money = MoneyInput::default();
        let both =
            ContextFields { match_score: Some(&score), money: Some(&money), ..ContextFields::default() };
        assert!(both.resolve(&plain).is_err());
        let owned_one = CubeInput { value: 1, owner: OwnerInput::Us };
        let bad = ContextFields { cube: Some(&owned_one), ..ContextFields::default() };
        assert!(bad.resolve(&plain).unwrap_err().message.starts_with("cube or match: "));
        let crawford_far = MatchInput { away: [3, 5], crawford: true };
        let bad = ContextFields { match_score: Some(&crawford_far), ..ContextFields::default() };
        assert!(bad.resolve(&plain).is_err());
    }
}
