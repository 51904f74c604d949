//! Syntax: ruleset text → spanned AST ([`ast`]), through the pest grammar in
//! `grammar/umpire.pest` ([`parser`]).

pub mod ast;
mod build;
pub mod parser;
pub mod print;

pub use parser::{
    brackets, closer, only_lets, parse_expr, parse_file, parse_set, unclosed, MAX_DEPTH,
    MAX_NESTING,
};
