//! The syntax's small enums that a checked program holds (an operator, a `set`'s change,
//! what a check expects), written and read by serde (the cache of checked rulesets)
//! through a copy of each declaration: `syntax` stays free of serde.

use crate::syntax::ast::{BinOp, Expectation, SetOp};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// [`BinOp`], for serde.
#[derive(Serialize, Deserialize)]
#[serde(remote = "BinOp")]
pub(super) enum BinOpDef {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

/// [`SetOp`], for serde.
#[derive(Serialize, Deserialize)]
#[serde(remote = "SetOp")]
pub(super) enum SetOpDef {
    Assign,
    Add,
    Sub,
}

/// [`Expectation`], for serde.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Expectation")]
enum ExpectationDef {
    Refused,
    NotGiven,
    Missing(String),
    AskedInstead(String),
}

/// An optional [`Expectation`], for serde (`#[serde(with = "remote::expectation")]`).
pub(super) mod expectation {
    use super::*;

    #[derive(Serialize, Deserialize)]
    struct Wrapped(#[serde(with = "ExpectationDef")] Expectation);

    pub fn serialize<S: Serializer>(e: &Option<Expectation>, s: S) -> Result<S::Ok, S::Error> {
        e.clone().map(Wrapped).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Expectation>, D::Error> {
        Ok(Option::<Wrapped>::deserialize(d)?.map(|Wrapped(e)| e))
    }
}
