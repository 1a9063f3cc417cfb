//! Every `AccountStore` suite on every engine (see `engines`): `<suite>::mem`, `<suite>::surrealkv`
//! and `<suite>::ws`, the last one ignored unless a SurrealDB server is named.

macro_rules! accounts_suite {
    ($suite:ident) => {
        on_every_engine!(accounts, accounts, $suite);
    };
}

marque_contract_tests::for_each_account_suite!(accounts_suite);
