//! Every `RateCounter` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

#[macro_use]
mod engines;

macro_rules! rate_suite {
    ($suite:ident) => {
        on_every_engine!(rate, rate_counter, $suite);
    };
}

marque_contract_tests::for_each_rate_suite!(rate_suite);
